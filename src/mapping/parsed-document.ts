/**
 * What document parsing hands the indexer: Gannet's own typed fields (no ES JSON), the metadata, the fields
 * ES would record in `_ignored`, and the mapping update the document introduced (to merge into the index
 * metadata before the document is indexed). Values are not analyzed here; text fields name their analyzer.
 */
import type { RootMapping } from './mapping-model.js';

interface FieldFlags {
  /** Full dotted path of the field ("user.name", "title.keyword"). */
  readonly field: string;
  /** Searchable (inverted index / points). */
  readonly indexed: boolean;
  /** Has doc values (sorting, aggregations, range filters). */
  readonly docValues: boolean;
  readonly stored: boolean;
}

export interface TextField {
  readonly kind: 'text';
  readonly field: string;
  readonly value: string;
  readonly indexed: boolean;
  readonly stored: boolean;
  readonly analyzer: string;
  /** Position gap the analyzer adds between consecutive values of the same field (an array). */
  readonly positionIncrementGap: number;
  readonly indexOptions: 'docs' | 'freqs' | 'positions' | 'offsets';
  readonly norms: boolean;
}

export interface KeywordField extends FieldFlags {
  readonly kind: 'keyword';
  readonly value: string;
  /** The normalizer to apply before indexing (e.g. "lowercase"), null for none. */
  readonly normalizer: string | null;
  readonly norms: boolean;
  readonly indexOptions: 'docs' | 'freqs';
}

export interface LongField extends FieldFlags {
  readonly kind: 'long';
  readonly numericType: 'long' | 'integer' | 'short' | 'byte';
  readonly value: bigint;
}

export interface DoubleField extends FieldFlags {
  readonly kind: 'double';
  readonly numericType: 'double' | 'float' | 'half_float' | 'scaled_float';
  /** Already reduced to the type's precision (float, half float, or scaled and rounded). */
  readonly value: number;
  /** scaled_float only: the long ES indexes, round(value * scaling_factor). */
  readonly scaledValue?: bigint;
}

export interface DateField extends FieldFlags {
  readonly kind: 'date';
  readonly epochMillis: number;
}

export interface BooleanField extends FieldFlags {
  readonly kind: 'boolean';
  readonly value: boolean;
}

/** A date_nanos value: nanoseconds since the epoch, within [0, Long.MAX_VALUE]. */
export interface DateNanosField extends FieldFlags {
  readonly kind: 'date_nanos';
  readonly epochNanos: bigint;
}

/** An ip value: 16 bytes (IPv4 as IPv4-mapped IPv6), sorting in unsigned byte order. */
export interface IpField extends FieldFlags {
  readonly kind: 'ip';
  readonly value: Uint8Array;
}

/** A binary value: the decoded bytes (never indexed; doc values and stored copy when the mapping asks). */
export interface BinaryField extends FieldFlags {
  readonly kind: 'binary';
  readonly value: Uint8Array;
}

export type IndexableField = TextField | KeywordField | LongField | DoubleField | DateField | BooleanField | DateNanosField | IpField | BinaryField;

export interface ParsedDocument {
  readonly id: string | undefined;
  readonly routing: string | undefined;
  /** The source exactly as received. */
  readonly source: Uint8Array;
  /**
   * What to store as `_source`: the source, filtered by `_source.includes/excludes`, or undefined when
   * `_source.enabled` is false.
   */
  readonly storedSource: Uint8Array | undefined;
  /** In document order; an array value yields one field per element. */
  readonly fields: readonly IndexableField[];
  /** Full names of fields whose values were skipped (ignore_above, ignore_malformed), sorted: ES's `_ignored`. */
  readonly ignored: readonly string[];
  /** `_doc_count` when the document sets it. */
  readonly docCount: number | undefined;
  /** The fields and objects this document added to the mapping, or undefined when it added none. */
  readonly mappingUpdate: RootMapping | undefined;
  /**
   * The fields already encoded where the document was parsed (a parse worker, for very large documents), in the
   * engine's document-batch layout; `fields` is then empty. Moving them as flat arrays costs a copy, where a
   * structured clone of millions of field objects would hold the event loop for seconds.
   */
  readonly encodedFields?: EncodedFields;
}

/** One document's fields in the engine's document-batch layout (a batch of that one document, without source). */
export interface EncodedFields {
  readonly ints: Int32Array;
  readonly numbers: Float64Array;
  readonly strings: readonly string[];
  /** Strings moved out as UTF-8 bytes (LONG_STRING_CHARS and longer); `strings` holds '' at their index. */
  readonly longStrings?: readonly { readonly index: number; readonly utf8: Uint8Array }[];
  readonly names: readonly string[];
}
