/**
 * Where segment files live. Files are written once, whole, and never modified (a new generation gets a
 * new name), which is what lets readers hold a file's bytes for as long as a segment is open.
 */

export interface Directory {
  /** Human-readable location, used in error messages. */
  readonly description: string;

  /** How errors name a file of this directory: a full path when there is one. */
  resourceName(fileName: string): string;

  listAll(): Promise<string[]>;

  fileExists(fileName: string): Promise<boolean>;

  /** The whole file. Throws ENOENT-style errors (from the platform) when absent. */
  readFile(fileName: string): Promise<Buffer>;

  /** Creates a new file with this content; fails if it already exists. Not durable until sync(). */
  writeFile(fileName: string, content: Uint8Array): Promise<void>;

  deleteFile(fileName: string): Promise<void>;

  /** Makes the named files, and the directory entries that name them, durable. */
  sync(fileNames: readonly string[]): Promise<void>;
}
