/** The file abstraction of the engine: where segment files live and how their bytes are read and written. */
export type { Directory } from './directory.js';
export { FsDirectory } from './fs-directory.js';
export { MemoryDirectory } from './memory-directory.js';
export { ByteWriter } from './byte-writer.js';
export { ByteReader } from './byte-reader.js';
