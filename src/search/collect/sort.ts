/**
 * Sort specifications (Lucene's SortField, with Elasticsearch's defaults): by score, by index order, by a
 * numeric/date field's doc values, or by a keyword field's doc values. Multi-valued fields reduce to one
 * value per document through a mode (ES's MultiValueMode); documents without a value go first or last
 * (`missing`), or take a given value.
 */

export type SortOrder = 'asc' | 'desc';

export type NumericSortMode = 'min' | 'max' | 'avg' | 'sum' | 'median';

export type SortField =
  /** Default order desc (best first). */
  | { readonly kind: 'score'; readonly order?: SortOrder }
  /** Default order asc (index order). */
  | { readonly kind: 'doc'; readonly order?: SortOrder }
  | {
      readonly kind: 'numeric';
      readonly field: string;
      readonly order?: SortOrder;
      /** Default 'last'. */
      readonly missing?: 'first' | 'last' | number;
      /** Default: min for asc, max for desc (ES). */
      readonly mode?: NumericSortMode;
    }
  | {
      readonly kind: 'keyword';
      readonly field: string;
      readonly order?: SortOrder;
      readonly missing?: 'first' | 'last' | string;
      readonly mode?: 'min' | 'max';
    };

export type SortSpec = readonly SortField[];

export function orderOf(field: SortField): SortOrder {
  return field.order ?? (field.kind === 'score' ? 'desc' : 'asc');
}

/** ES's default reduction of a multi-valued field: the smallest value ascending, the largest descending. */
export function modeOf(field: SortField & { kind: 'numeric' | 'keyword' }): NumericSortMode {
  return field.mode ?? (orderOf(field) === 'asc' ? 'min' : 'max');
}

export function sortNeedsScores(sort: SortSpec): boolean {
  return sort.some((field) => field.kind === 'score');
}
