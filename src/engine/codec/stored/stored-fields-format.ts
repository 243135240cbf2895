/**
 * Stored fields (`<segment>.fdt`): each document's stored values (`_id`, `_source`, ...), in compressed
 * chunks of consecutive documents, so that similar documents compress together while fetching one
 * document decompresses at most one chunk (with LZ4, only up to that document).
 *
 *   Body  = Chunk* Toc TocPointer
 *   Chunk = DocCount(vInt) { DocLength(vInt) }*DocCount RawLength(vInt) CompressedLength(vInt) CompressedBytes
 *   Toc   = Compression(byte: 0 lz4, 1 deflate level 1, 2 deflate level 6) MaxDoc(vInt) ChunkCount(vInt) { DocCount(vInt) ChunkFPDelta(vLong, file offsets) }*
 *           FieldNameCount(vInt) { Name(string) }*
 *   Doc (decompressed) = FieldCount(vInt) { FieldNumber << 3 | Type (vInt) Value }*
 *   Value = bytes: Length(vInt) Bytes | string: Length(vInt) UTF-8 | long: zLong (safe integers)
 *         | double: float64 LE | bigint: int64 LE
 *
 * A chunk is cut once its raw size reaches the mode's target chunk size (compression.ts) or it holds
 * MAX_DOCS_PER_CHUNK docs.
 */
export const STORED_FIELDS_CODEC = 'GannetStoredFields';
export const STORED_FIELDS_VERSION_START = 1;
export const STORED_FIELDS_VERSION_CURRENT = STORED_FIELDS_VERSION_START;
export const STORED_FIELDS_EXTENSION = 'fdt';

export const MAX_DOCS_PER_CHUNK = 1024;

export const TYPE_BYTES = 0;
export const TYPE_STRING = 1;
export const TYPE_LONG = 2;
export const TYPE_DOUBLE = 3;
export const TYPE_BIGINT = 4;

/** A stored value: raw bytes (`_source`), a string (`_id`, `_routing`), or a number. */
export type StoredValue = Uint8Array | string | number | bigint;

export interface StoredField {
  readonly name: string;
  readonly value: StoredValue;
}
