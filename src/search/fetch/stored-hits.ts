/**
 * Reads what a search returns for each hit from stored fields (the fetch phase's source step): the `_id`,
 * and `_source` unless it is not wanted. Hits are read in doc order (each segment's stored fields reader
 * keeps its last decompressed chunk, so neighbouring hits share the work) and returned in the order asked.
 */
import { ID_FIELD, ROUTING_FIELD, SOURCE_FIELD } from '../../engine/searcher.js';
import type { IndexSearcher } from '../searcher/index-searcher.js';

export interface StoredHit {
  /** Searcher-wide doc id. */
  readonly doc: number;
  readonly id: string;
  /** The `_source` bytes (JSON as indexed); null when not requested or not stored. */
  readonly source: Uint8Array | null;
  readonly routing: string | null;
}

export interface StoredHitOptions {
  /** Default true. */
  readonly source?: boolean;
}

const ID_ONLY = new Set([ID_FIELD, ROUTING_FIELD]);
const ID_AND_SOURCE = new Set([ID_FIELD, ROUTING_FIELD, SOURCE_FIELD]);

export function loadStoredHits(searcher: IndexSearcher, docs: readonly number[], options: StoredHitOptions = {}): StoredHit[] {
  const wanted = options.source === false ? ID_ONLY : ID_AND_SOURCE;
  const order = docs.map((doc, index) => ({ doc, index })).sort((a, b) => a.doc - b.doc);
  const hits = new Array<StoredHit>(docs.length);
  for (const { doc, index } of order) {
    const leaf = searcher.leafOf(doc);
    if (leaf === null) throw new RangeError(`doc ${doc} out of range [0, ${searcher.maxDoc})`);
    let id = '';
    let source: Uint8Array | null = null;
    let routing: string | null = null;
    for (const field of leaf.readers.stored.document(doc - leaf.docBase, wanted)) {
      if (field.name === ID_FIELD) id = String(field.value);
      else if (field.name === SOURCE_FIELD && field.value instanceof Uint8Array) source = field.value;
      else if (field.name === ROUTING_FIELD) routing = String(field.value);
    }
    hits[index] = { doc, id, source, routing };
  }
  return hits;
}
