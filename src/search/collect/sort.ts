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
      /**
       * Compare exact 64-bit longs (BigInts) instead of doubles: date_nanos and dates sorted at nanosecond
       * resolution, whose values exceed 2^53.
       */
      readonly exact?: boolean;
      /** A resolution change on the way (ES's numeric_type between date and date_nanos). */
      readonly convert?: 'millis_to_nanos' | 'nanos_to_millis';
    }
  | {
      readonly kind: 'keyword';
      readonly field: string;
      readonly order?: SortOrder;
      readonly missing?: 'first' | 'last' | string;
      readonly mode?: 'min' | 'max';
      /** How a term becomes its sort value: a UTF-8 string (keyword), or hex of raw bytes (ip). */
      readonly termsAs?: 'utf8' | 'hex';
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
