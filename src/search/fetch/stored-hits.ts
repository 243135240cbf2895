/**
 * Reads what a search returns for each hit from stored fields (the fetch phase's source step): the `_id`,
 * and `_source` unless it is not wanted. Hits are read in doc order (each segment's stored fields reader
 * keeps its last metadata group and a few decoded blocks, so neighbouring hits share the work) and returned
 * in the order asked. Without `_source`, only the id and routing strings are read (`StoredFieldsReader.identity`).
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

const IDENTITY_FIELDS = { id: ID_FIELD, routing: ROUTING_FIELD } as const;
const ID_AND_SOURCE = new Set([ID_FIELD, ROUTING_FIELD, SOURCE_FIELD]);

export function loadStoredHits(searcher: IndexSearcher, docs: readonly number[], options: StoredHitOptions = {}): StoredHit[] {
  const withSource = options.source !== false;
  const hits = new Array<StoredHit>(docs.length);
  for (const index of docOrder(docs)) {
    const doc = docs[index]!;
    const leaf = searcher.leafOf(doc);
    if (leaf === null) throw new RangeError(`doc ${doc} out of range [0, ${searcher.maxDoc})`);
    if (!withSource) {
      const { id, routing } = leaf.readers.stored.identity(doc - leaf.docBase, IDENTITY_FIELDS);
      hits[index] = { doc, id: id ?? '', source: null, routing };
      continue;
    }
    let id = '';
    let source: Uint8Array | null = null;
    let routing: string | null = null;
    for (const field of leaf.readers.stored.document(doc - leaf.docBase, ID_AND_SOURCE)) {
      if (field.name === ID_FIELD) id = String(field.value);
      else if (field.name === SOURCE_FIELD && field.value instanceof Uint8Array) source = field.value;
      else if (field.name === ROUTING_FIELD) routing = String(field.value);
    }
    hits[index] = { doc, id, source, routing };
  }
  return hits;
}

/** The positions of `docs` in ascending doc order; a page of a few hits takes an insertion sort (no objects). */
function docOrder(docs: readonly number[]): number[] {
  const order: number[] = [];
  for (let i = 0; i < docs.length; i++) order.push(i);
  if (docs.length > 32) return order.sort((a, b) => docs[a]! - docs[b]!);
  for (let i = 1; i < order.length; i++) {
    const position = order[i]!;
    const doc = docs[position]!;
    let at = i;
    while (at > 0 && docs[order[at - 1]!]! > doc) {
      order[at] = order[at - 1]!;
      at--;
    }
    order[at] = position;
  }
  return order;
}
