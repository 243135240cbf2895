/**
 * "Only hits after this one" for one segment: what Lucene's paging collectors do for `search_after` and for
 * the next page of a scroll. A doc is accepted when it sorts strictly after the `after` entry; on a full tie
 * of the sort values the doc id decides (a scroll continues after its last emitted doc), and `search_after`
 * excludes ties entirely (ES builds its FieldDoc with doc = Integer.MAX_VALUE).
 */
import type { LeafContext } from '../core/leaf-context.js';
import type { SortValue } from '../collect/top-docs.js';
import { exactLongValues, numericValues, ordValues } from '../fetch/doc-value-reader.js';
import type { ResolvedSort, ResolvedSortField } from './sort.js';
import { compareCodePoints, LONG_MAX, LONG_MIN, shardDocValue } from './sort-values.js';

export type AfterDoc =
  /** Relevance order: after this score, and after this shard-wide doc on equal scores. */
  | { readonly kind: 'relevance'; readonly score: number; readonly doc: number }
  /** Field sort: after these sort values, and after this shard-wide doc on a full tie. */
  | { readonly kind: 'fields'; readonly values: readonly SortValue[]; readonly doc: number };

/** Doc id that no doc exceeds: ties are excluded (search_after). */
export const EXCLUDE_TIES = Number.POSITIVE_INFINITY;

export interface LeafAfterFilter {
  /** `doc` is segment-local; `score` reads the current doc's score (called only when the sort needs it). */
  accepts(doc: number, score: () => number): boolean;
}

type FieldComparison = (doc: number, score: () => number) => number;

function numericKey(value: SortValue): number {
  if (typeof value === 'bigint') {
    if (value === LONG_MAX) return Infinity;
    if (value === LONG_MIN) return -Infinity;
    return Number(value);
  }
  return typeof value === 'number' ? value : NaN;
}

function missingNumericKey(field: ResolvedSortField): number {
  if (typeof field.missing === 'number') return field.missing;
  return (field.missing === 'last') === (field.order === 'asc') ? Infinity : -Infinity;
}

/** The position of `term` among a segment's ords: an ord, or halfway between the two it falls between. */
function ordPosition(lookupTerm: (term: Uint8Array) => number, term: string, encoding: 'utf8' | 'hex'): number {
  const found = lookupTerm(Buffer.from(term, encoding));
  return found >= 0 ? found : -found - 1 - 0.5;
}

function keywordComparison(field: ResolvedSortField, leaf: LeafContext, after: SortValue): FieldComparison {
  const sign = field.order === 'asc' ? 1 : -1;
  const mode = field.mode === 'min' || field.mode === 'max' ? field.mode : field.order === 'asc' ? 'min' : 'max';
  const values = ordValues(leaf.readers, field.field!, mode);
  const missingFirst = field.missing === 'first';
  const customMissing = field.missing !== 'first' && field.missing !== 'last' ? String(field.missing) : undefined;
  const afterIsMissing = after === null;
  if (values === null) {
    // No doc of this segment has the field: every doc is "missing".
    if (customMissing !== undefined) {
      const cmp = afterIsMissing ? 0 : compareCodePoints(customMissing, String(after));
      return () => sign * cmp;
    }
    const cmp = afterIsMissing ? 0 : missingFirst ? -1 : 1;
    return () => cmp;
  }
  // ip sort values are the hex of the address bytes; a custom missing value is a string's UTF-8 bytes, as in ES.
  const encoding = field.kind === 'ip' ? 'hex' : 'utf8';
  const afterPos = afterIsMissing ? NaN : ordPosition((term) => values.lookupTerm(term), String(after), encoding);
  const missingPos = customMissing === undefined ? NaN : ordPosition((term) => values.lookupTerm(term), customMissing, 'utf8');
  return (doc) => {
    let ord = values.ord(doc);
    if (ord < 0 && customMissing !== undefined) ord = missingPos;
    const docMissing = ord < 0 && customMissing === undefined;
    if (docMissing || afterIsMissing) {
      if (docMissing && afterIsMissing) return 0;
      if (docMissing) return missingFirst ? -1 : 1;
      return missingFirst ? 1 : -1;
    }
    return sign * (ord < afterPos ? -1 : ord > afterPos ? 1 : 0);
  };
}

function fieldComparison(field: ResolvedSortField, leaf: LeafContext, shardIndex: number, after: SortValue): FieldComparison {
  const sign = field.order === 'asc' ? 1 : -1;
  const compare = (key: number, afterKey: number): number => sign * (key < afterKey ? -1 : key > afterKey ? 1 : 0);
  const afterKey = numericKey(after);
  switch (field.kind) {
    case 'score':
      return (_doc, score) => compare(score(), afterKey);
    case 'doc':
      return (doc) => compare(leaf.docBase + doc, afterKey);
    case 'shard_doc':
      return (doc) => compare(shardDocValue(shardIndex, leaf.docBase + doc), afterKey);
    case 'keyword':
    case 'ip':
      return keywordComparison(field, leaf, after);
    default: {
      if (field.exact === true) return exactComparison(field, leaf, after);
      const mode = field.mode ?? (field.order === 'asc' ? 'min' : 'max');
      const values = numericValues(leaf.readers, field.field!, mode, field.convert === 'nanos_to_millis');
      const missing = missingNumericKey(field);
      if (values === null) return () => compare(missing, afterKey);
      return (doc) => compare(values.value(doc) ?? missing, afterKey);
    }
  }
}

/** A date_nanos sort (or a date sorted as date_nanos): the doc's exact long against the after value. */
function exactComparison(field: ResolvedSortField, leaf: LeafContext, after: SortValue): FieldComparison {
  const sign = field.order === 'asc' ? 1 : -1;
  const mode = field.mode ?? (field.order === 'asc' ? 'min' : 'max');
  const values = exactLongValues(leaf.readers, field.field!, mode, field.convert === 'millis_to_nanos');
  const missingKey = numericKey(typeof field.missing === 'number' ? field.missing : missingNumericKey(field));
  // Long.MAX/MIN_VALUE are how a missing value prints: they stand for +/-Infinity, as for other longs.
  const toExact = (value: SortValue): bigint | number => (typeof value === 'bigint' && value !== LONG_MAX && value !== LONG_MIN ? value : numericKey(value));
  const afterKey = toExact(after);
  const compare = (key: bigint | number): number => {
    // Infinity stands for a missing value ordered last or first: it compares as a number.
    if (typeof key === 'bigint' && typeof afterKey === 'bigint') return sign * (key < afterKey ? -1 : key > afterKey ? 1 : 0);
    const a = Number(key);
    const b = Number(afterKey);
    return sign * (a < b ? -1 : a > b ? 1 : 0);
  };
  if (values === null) return () => compare(missingKey);
  return (doc) => compare(values.value(doc) ?? missingKey);
}

/** The filter for one segment of a shard searcher. */
export function afterFilterForLeaf(after: AfterDoc, sort: ResolvedSort, leaf: LeafContext, shardIndex: number): LeafAfterFilter {
  const docBase = leaf.docBase;
  if (after.kind === 'relevance') {
    return {
      accepts: (doc, score) => {
        const value = score();
        return value < after.score || (value === after.score && docBase + doc > after.doc);
      },
    };
  }
  const comparisons = sort.fields.map((field, i) => fieldComparison(field, leaf, shardIndex, after.values[i]!));
  return {
    accepts: (doc, score) => {
      for (const comparison of comparisons) {
        const cmp = comparison(doc, score);
        if (cmp !== 0) return cmp > 0;
      }
      return docBase + doc > after.doc;
    },
  };
}
