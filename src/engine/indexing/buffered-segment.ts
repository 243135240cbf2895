/**
 * The indexing buffer as plain data (typed arrays, strings): what crosses to the segment-writing worker
 * with postMessage. Large arrays travel in the transfer list (moved, not copied); the buffer is never
 * used again once snapshotted.
 */
import type { IndexingBuffer } from './indexing-buffer.js';

export interface BufferedField {
  readonly name: string;
  readonly indexLevel: number;
  readonly hasNorms: boolean;
  /** Term id -> term. */
  readonly terms: string[];
  /** How terms become bytes: UTF-8, or latin1 for raw byte terms (ip, binary doc values). */
  readonly termBytes: 'utf8' | 'latin1';
  readonly needsByteOrderSort: boolean;
  readonly postings: { streamStart: Int32Array; writePos: Int32Array; started: Uint8Array } | null;
  readonly norms: Uint8Array | null;
  readonly sortedSet: { docs: Int32Array; counts: Int32Array; ords: Int32Array } | null;
  readonly sortedNumeric: {
    kind: 'long' | 'double';
    docs: Int32Array;
    counts: Int32Array;
    numbers: Float64Array | null;
    bigints: BigInt64Array | null;
  } | null;
}

export interface BufferedSegment {
  readonly maxDoc: number;
  readonly pool: Int32Array;
  readonly fields: BufferedField[];
  readonly ids: string[];
  readonly routings: (string | null)[];
  readonly ignored: (readonly string[] | null)[];
  readonly storedExtras: ({ name: string; value: Uint8Array | string | number | bigint }[] | null)[];
  readonly sourceBytes: Uint8Array;
  readonly sourceStarts: Float64Array;
  readonly sourceLengths: Float64Array;
  readonly seqNos: Float64Array;
  readonly primaryTerms: Float64Array;
  readonly versions: Float64Array;
}

export function snapshotBuffer(buffer: IndexingBuffer): { segment: BufferedSegment; transfer: ArrayBuffer[] } {
  const maxDoc = buffer.numDocs;
  const transfer: ArrayBuffer[] = [];
  const take = <T extends { buffer: ArrayBufferLike }>(array: T): T => {
    if (array.buffer instanceof ArrayBuffer && !transfer.includes(array.buffer)) transfer.push(array.buffer);
    return array;
  };
  const fields: BufferedField[] = [];
  for (const field of buffer.fields.values()) {
    const postings = field.postings;
    if (postings !== null) postings.finish(field.dictionary.size);
    const sortedSet = field.sortedSet;
    const numeric = field.sortedNumeric?.toColumn();
    fields.push({
      name: field.name,
      indexLevel: postings?.indexLevel ?? 0,
      hasNorms: field.norms !== null,
      terms: field.dictionary.terms,
      termBytes: field.termBytes,
      needsByteOrderSort: field.dictionary.needsByteOrderSort,
      postings:
        postings === null
          ? null
          : { streamStart: take(postings.streamStart), writePos: take(postings.writePos), started: take(postings.started) },
      norms: field.norms === null ? null : take(field.norms.toArray(maxDoc)),
      sortedSet:
        sortedSet === null
          ? null
          : { docs: take(sortedSet.docs.toArray()), counts: take(sortedSet.counts.toArray()), ords: take(sortedSet.ords.toArray()) },
      sortedNumeric:
        numeric === undefined
          ? null
          : {
              kind: numeric.kind,
              docs: take(numeric.docs),
              counts: take(numeric.counts),
              numbers: numeric.values instanceof Float64Array ? take(numeric.values) : null,
              bigints: numeric.values instanceof BigInt64Array ? take(numeric.values) : null,
            },
    });
  }
  const segment: BufferedSegment = {
    maxDoc,
    pool: take(buffer.pool.ints.subarray(0, buffer.pool.used)),
    fields,
    ids: buffer.ids,
    routings: buffer.routings,
    ignored: buffer.ignored,
    storedExtras: buffer.storedExtras,
    sourceBytes: take(buffer.sources.bytes.subarray(0, buffer.sources.used)),
    sourceStarts: take(buffer.sources.starts.toArray()),
    sourceLengths: take(buffer.sources.lengths.toArray()),
    seqNos: take(buffer.seqNos.toArray()),
    primaryTerms: take(buffer.primaryTerms.toArray()),
    versions: take(buffer.versions.toArray()),
  };
  return { segment, transfer };
}
