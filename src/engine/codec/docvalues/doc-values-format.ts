/**
 * Doc values file (`<segment>.dvd`): column-wise values per document, for sorting, aggregations and
 * range filters. Sections are 4-byte aligned (8 for raw doubles) so readers view them in place.
 *
 *   Body = Section* Toc TocPointer
 *   Toc  = FieldCount(vInt) { Name(string) Type(byte) TypeMeta }*
 *   numeric        : Kind(byte) DocsWithField Values                 -- values of docs with a value, in doc order
 *   sorted         : Terms Ords(PackedArrayMeta)                     -- maxDoc entries of ord + 1, 0 = missing
 *   sorted_set     : Terms Addresses(PackedArrayMeta) Ords(PackedArrayMeta)
 *   sorted_numeric : Kind(byte) Addresses(PackedArrayMeta) Values
 *   Values = long: LongValuesMeta (long-values.ts)
 *          | double: Encoding(byte) (0: LongValuesMeta of integral values | 1: Offset(u64) Count(vInt) of raw float64)
 *
 * Addresses hold maxDoc + 1 entries: doc d's values are entries [addresses[d], addresses[d + 1]) of the
 * value array, sorted ascending (ords of a set are distinct). Booleans are numeric longs 0/1.
 * Doubles that are all integers (prices in cents, counts stored as double) get the long compression;
 * anything else (fractions, NaN, -0) is stored raw, 8 bytes each, exactly.
 */
export const DOC_VALUES_CODEC = 'GannetDocValues';
export const DOC_VALUES_VERSION_START = 1;
export const DOC_VALUES_VERSION_CURRENT = DOC_VALUES_VERSION_START;
export const DOC_VALUES_EXTENSION = 'dvd';

export const TYPE_NUMERIC = 1;
export const TYPE_SORTED = 2;
export const TYPE_SORTED_SET = 3;
export const TYPE_SORTED_NUMERIC = 4;

export const KIND_LONG = 0;
export const KIND_DOUBLE = 1;

export const DOUBLE_ENCODING_INTEGRAL = 0;
export const DOUBLE_ENCODING_RAW = 1;
