/**
 * `docvalue_fields` (ES's FetchDocValuesPhase): values come from doc values, not `_source`, so they are
 * the indexed values in doc-values order (numbers ascending, keywords sorted and distinct), printed through
 * the field type's DocValueFormat: raw numbers (a float field shows its float widened to double, e.g.
 * 3.140000104904175), a date format (the mapping's or the requested one, in UTC; date_nanos at nanosecond
 * resolution), a java.text.DecimalFormat pattern for numbers, true/false for booleans, ip addresses as ES
 * prints them, binary values in base64. Text fields have no doc values and fail as ES does.
 *
 * The engine's codec readers are plugged in through DocValuesSource, one per hit.
 */
import { RawJson } from '../../common/raw-json.js';
import { javaDoubleString } from '../../common/json-float.js';
import { dateFormatter, encodeBase64, formatIp, type DateFormatter } from '../../mapping/index.js';
import { formatDecimal, parseDecimalPattern } from '../aggregations/support/decimal-format.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import { FieldCatalog, type MappedField } from './field-catalog.js';
import type { FetchIndexContext, FieldAndFormat } from './fields.js';
import type { FieldValue } from './value-fetchers.js';

/** One document's doc values for one field, as the codec holds them. */
export type DocValueList =
  /** long/integer/short/byte, date (epoch millis), boolean (0/1), scaled_float (the scaled long). */
  | { readonly kind: 'long'; readonly values: readonly (bigint | number)[] }
  /** double/float/half_float, already at the type's precision. */
  | { readonly kind: 'double'; readonly values: readonly number[] }
  /** keyword, ip, binary: the doc's distinct terms in byte order (raw bytes; keyword terms may come as strings). */
  | { readonly kind: 'bytes'; readonly values: readonly (string | Uint8Array)[] };

/** What the search API provides per hit: the doc values of a field, or undefined when it has none. */
export interface DocValuesSource {
  values(field: string): DocValueList | undefined;
}

/** IndexSettings.MAX_DOCVALUE_FIELDS_SEARCH_SETTING default. */
export const DEFAULT_MAX_DOCVALUE_FIELDS_SEARCH = 100;

type Formatter = (list: DocValueList, field: MappedField) => FieldValue[];

function noFormat(field: MappedField, format: string | undefined): void {
  if (format !== undefined) throw illegalArgument(`Field [${field.name}] of type [${field.mapping.type}] does not support custom formats`);
}

function utf8(value: string | Uint8Array): string {
  return typeof value === 'string' ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
}

function rawBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

function asNumber(value: bigint | number): number {
  return typeof value === 'bigint' ? Number(value) : value;
}

function failIfNoDocValues(field: MappedField): void {
  const options = field.options;
  if (options.type === 'text') {
    throw illegalArgument(
      'Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these ' +
        'operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [' +
        field.name +
        '] in order to load field data by uninverting the inverted index. Note that this can use significant memory.',
    );
  }
  if (!options.docValues) {
    throw illegalArgument(
      `Can't load fielddata on [${field.name}] because fielddata is unsupported on fields of type [${field.mapping.type}]. Use doc values instead.`,
    );
  }
}

/** DateFieldType.docValueFormat: a requested format keeps the field's locale. */
function compileDate(format: string, locale: string): DateFormatter {
  try {
    return dateFormatter(format, locale);
  } catch (err) {
    throw illegalArgument(err instanceof Error ? err.message : String(err));
  }
}

/** fieldType.docValueFormat(format, null) + the matching doc values reader, as one printing step. */
function formatterFor(field: MappedField, format: string | undefined): Formatter {
  failIfNoDocValues(field);
  const options = field.options;
  switch (options.type) {
    case 'keyword':
      noFormat(field, format);
      return (list) => (list.kind === 'bytes' ? list.values.map(utf8) : []);
    case 'ip':
      noFormat(field, format);
      return (list) => (list.kind === 'bytes' ? list.values.map((value) => formatIp(rawBytes(value))) : []);
    case 'binary':
      // BinaryFieldType.docValueFormat takes no notice of a format.
      return (list) => (list.kind === 'bytes' ? list.values.map((value) => encodeBase64(rawBytes(value))) : []);
    case 'date_nanos': {
      // DocValueFormat.withNanosecondResolution: the doc values are nanoseconds, printed as such.
      const printer = format === undefined ? options.formatter : compileDate(format, options.locale);
      return (list) => (list.kind === 'long' ? list.values.map((value) => printer.formatNanos(BigInt(value))) : []);
    }
    case 'boolean':
      noFormat(field, format);
      return (list) => (list.kind === 'long' ? list.values.map((value) => asNumber(value) !== 0) : []);
    case 'date': {
      const printer = format === undefined ? options.formatter : compileDate(format, options.locale);
      return (list) => (list.kind === 'long' ? list.values.map((value) => printer.format(asNumber(value))) : []);
    }
    case 'text':
      return () => [];
    default: {
      const decimal = format === undefined ? undefined : parseDecimalPattern(format);
      const isScaled = options.type === 'scaled_float';
      const factor = options.scalingFactor ?? 1;
      return (list) => {
        if (list.kind === 'bytes') return [];
        if (list.kind === 'double' || isScaled) {
          // Floating point fielddata yields doubles; scaled_float divides its long by the scaling factor.
          const doubles = list.values.map((value) => (isScaled && list.kind === 'long' ? asNumber(value) / factor : asNumber(value)));
          return doubles.map((value) => (decimal === undefined ? new RawJson(javaDoubleString(value)) : formatDecimal(decimal, value)));
        }
        return list.values.map((value) => (decimal === undefined ? new RawJson(BigInt(value).toString()) : formatDecimal(decimal, asNumber(value))));
      };
    }
  }
}

export class DocValueFieldsFetcher {
  private constructor(private readonly fields: ReadonlyArray<{ readonly name: string; readonly field: MappedField; readonly format: Formatter }>) {}

  /**
   * FetchDocValuesContext: patterns expand against the mapping (unmapped concrete names are skipped), the
   * total may not exceed index.max_docvalue_fields_search, and each field's format is checked up front.
   */
  static create(context: FetchIndexContext, requested: readonly FieldAndFormat[], maxDocvalueFields = DEFAULT_MAX_DOCVALUE_FIELDS_SEARCH): DocValueFieldsFetcher {
    const catalog = FieldCatalog.of(context.mapping, context.mappingSettings);
    const expanded: Array<{ name: string; format: string | undefined }> = [];
    for (const entry of requested) {
      for (const name of catalog.matchingFieldNames(entry.field)) expanded.push({ name, format: entry.format });
    }
    if (expanded.length > maxDocvalueFields) {
      throw illegalArgument(
        `Trying to retrieve too many docvalue_fields. Must be less than or equal to: [${maxDocvalueFields}] but was [${expanded.length}]. ` +
          'This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.',
      );
    }
    const fields: Array<{ name: string; field: MappedField; format: Formatter }> = [];
    for (const { name, format } of expanded) {
      const field = catalog.get(name);
      // Metadata fields have no doc values Gannet can read; ES would load their fielddata.
      if (field === undefined) continue;
      fields.push({ name, field, format: formatterFor(field, format) });
    }
    return new DocValueFieldsFetcher(fields);
  }

  /** Field name -> values, in request order; fields without values are present with an empty list (as in ES). */
  fetch(docValues: DocValuesSource): Map<string, FieldValue[]> {
    const out = new Map<string, FieldValue[]>();
    for (const { name, field, format } of this.fields) {
      const list = docValues.values(name);
      const values = list === undefined ? [] : format(list, field);
      const existing = out.get(name);
      if (existing === undefined) out.set(name, values);
      else existing.push(...values);
    }
    return out;
  }
}
