/**
 * Slices a shard by a numeric field's doc values (ES's DocValuesSliceQuery): a document is in the slice when
 * one of its values, mixed by BitMixer.mix, falls in it; a document without a value hashes as 0. Longs
 * (long, integer, date, boolean, ...) hash their value, doubles the sortable long bits Lucene stores.
 */
import type { DocValuesReader } from '../../../engine/codec/index.js';
import { PredicateIterator } from '../../core/bitset.js';
import { ConstantScoreWeight } from '../../core/constant-score-weight.js';
import type { DocIdSetIterator } from '../../core/doc-id-set-iterator.js';
import type { LeafContext } from '../../core/leaf-context.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { doubleToSortableLong, mixLong } from './slice-hash.js';
import { SliceQuery } from './slice-query.js';

export class DocValuesSliceQuery extends SliceQuery {
  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    return new DocValuesSliceWeight(this, boost);
  }

  /** Whether a document with these raw values (none: hashes as 0) is in the slice. */
  containsValues(values: readonly bigint[]): boolean {
    if (values.length === 0) return this.contains(0);
    return values.some((value) => this.contains(mixLong(value)));
  }
}

/** A document's values as the longs Lucene's SortedNumericDocValues would return. */
function valuesReader(docValues: DocValuesReader, field: string): (doc: number) => bigint[] {
  const single = docValues.numeric(field);
  if (single !== undefined) {
    if (single.kind === 'long') return (doc) => (single.has(doc) ? [single.getBigInt(doc)] : []);
    return (doc) => (single.has(doc) ? [doubleToSortableLong(single.get(doc))] : []);
  }
  const multi = docValues.sortedNumeric(field);
  if (multi !== undefined) {
    return (doc) => {
      const values: bigint[] = [];
      for (let i = multi.docStart(doc); i < multi.docEnd(doc); i++) {
        values.push(multi.kind === 'long' ? multi.bigIntAt(i) : doubleToSortableLong(multi.valueAt(i)));
      }
      return values;
    };
  }
  return () => [];
}

class DocValuesSliceWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: DocValuesSliceQuery,
    boost: number,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const read = valuesReader(leaf.readers.docValues, this.query.field);
    return new PredicateIterator(leaf.maxDoc, (doc) => this.query.containsValues(read(doc)));
  }
}
