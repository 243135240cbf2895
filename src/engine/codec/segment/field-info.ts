/** What a segment records about each of its fields (Lucene's FieldInfo plus the statistics BM25 needs). */

/** What the inverted index keeps for a field; each level includes the previous one. */
export type IndexOptions = 'none' | 'docs' | 'freqs' | 'positions';

export const INDEX_OPTIONS: readonly IndexOptions[] = ['none', 'docs', 'freqs', 'positions'];

/** Column-wise per-document values. `numeric` and `sorted_numeric` hold longs or doubles (see NumericKind). */
export type DocValuesType = 'none' | 'numeric' | 'sorted' | 'sorted_set' | 'sorted_numeric';

export const DOC_VALUES_TYPES: readonly DocValuesType[] = ['none', 'numeric', 'sorted', 'sorted_set', 'sorted_numeric'];

export type NumericKind = 'long' | 'double';

/** Statistics of an indexed field over the whole segment (Lucene's CollectionStatistics inputs). */
export interface FieldStats {
  /** Documents that have at least one term in this field. */
  docCount: number;
  /** Sum over terms of their document frequency. */
  sumDocFreq: number;
  /** Sum over documents of their token count (equals sumDocFreq when freqs are not indexed). */
  sumTotalTermFreq: number;
  /** Number of distinct terms. */
  termCount: number;
}

export interface FieldInfo {
  readonly name: string;
  readonly number: number;
  readonly indexOptions: IndexOptions;
  readonly hasNorms: boolean;
  readonly docValues: DocValuesType;
  /** Present for indexed fields. */
  readonly stats: FieldStats | null;
}

export function hasFreqs(options: IndexOptions): boolean {
  return options === 'freqs' || options === 'positions';
}

export function hasPositions(options: IndexOptions): boolean {
  return options === 'positions';
}
