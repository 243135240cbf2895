/** What the engine knows about the latest operation on one id (ES's VersionValue / DeleteVersionValue). */
export interface VersionValue {
  readonly version: number;
  readonly seqNo: number;
  readonly primaryTerm: number;
  readonly deleted: boolean;
  /** For an unrefreshed index operation: what a real-time get returns until the document is in a segment. */
  readonly source?: Uint8Array;
  readonly routing?: string;
  readonly ignored?: readonly string[];
  /** For a delete: when it happened (ms), to expire its tombstone after `index.gc_deletes`. */
  readonly time?: number;
}
