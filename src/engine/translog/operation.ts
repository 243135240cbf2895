/**
 * What the translog stores: the three kinds of shard operation Elasticsearch logs, and where one landed.
 * These are Gannet's own typed objects; the engine builds them, the translog never sees ES JSON.
 */

export interface IndexOperation {
  readonly type: 'index';
  readonly id: string;
  readonly seqNo: number;
  readonly primaryTerm: number;
  readonly version: number;
  /** The document's _source bytes exactly as indexed. The translog copies them when the operation is added. */
  readonly source: Uint8Array;
  /** Custom routing, when the document was indexed with one. */
  readonly routing?: string;
}

export interface DeleteOperation {
  readonly type: 'delete';
  readonly id: string;
  readonly seqNo: number;
  readonly primaryTerm: number;
  readonly version: number;
}

/** Fills a sequence number that carries no document change (ES logs these so seqNo history has no gaps). */
export interface NoOpOperation {
  readonly type: 'noop';
  readonly seqNo: number;
  readonly primaryTerm: number;
  readonly reason: string;
}

export type TranslogOperation = IndexOperation | DeleteOperation | NoOpOperation;

/** Where an added operation sits: its generation, the byte offset of its record and the record's size. */
export interface TranslogLocation {
  readonly generation: number;
  readonly offset: number;
  readonly size: number;
}

/** ES's SequenceNumbers.NO_OPS_PERFORMED: min/max seqNo of a generation that holds no operation. */
export const NO_OPS_PERFORMED = -1;
/** ES's SequenceNumbers.UNASSIGNED_SEQ_NO: "not known" for the global checkpoint, "no trim" for trimmedAboveSeqNo. */
export const UNASSIGNED_SEQ_NO = -2;
