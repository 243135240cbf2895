/**
 * ES's ValuesSourceConfig: resolves an aggregation's `field`, `missing`, `format`, `time_zone` and
 * `value_type` against the field's type into what aggregators read (numbers or keyword ordinals), the
 * DocValueFormat results are printed with, and the errors ES gives for unsupported field types.
 */
import { ownValue } from '../../../common/own-keys.js';
import { dateFormatter } from '../../../mapping/date/date-formatter.js';
import { parseDateMath } from '../../../mapping/date/date-math.js';
import { UTC_ZONE, type ZoneRef } from '../../../mapping/date/zones.js';
import { Base64DecodeError, decodeBase64Value } from '../../../mapping/base64-value.js';
import { IpFormatError, ipToHex, parseIp } from '../../../mapping/ip-address.js';
import { aggErrors } from '../agg-errors.js';
import type { AggregationContext } from '../context.js';
import type { ValuesSourceSpec } from '../spec.js';
import { BINARY_FORMAT, BOOLEAN_FORMAT, IP_FORMAT, RAW_FORMAT, type FormatSpec } from './doc-value-format.js';
import type { AggFieldType } from './field-types.js';
import { bytesValues, keywordValues, numericValues, type AggregationSegment, type DocNumbers, type DocOrds } from './values.js';

/**
 * `bytes`: raw byte terms (ip, binary) read through ordinals like keywords; their keys are the bytes in hex
 * (which sorts as the bytes do) and the format prints them.
 */
export type ValuesKind = 'keyword' | 'long' | 'double' | 'date' | 'boolean' | 'bytes';

/** Kinds read as ordinals into sorted terms rather than as numbers. */
export function usesOrds(kind: ValuesKind | null): boolean {
  return kind === 'keyword' || kind === 'bytes';
}

export interface ValuesSourceConfig {
  /** null when the field is unmapped and no `missing` makes up values. */
  readonly kind: ValuesKind | null;
  readonly field: string | null;
  readonly format: FormatSpec;
  readonly zone: ZoneRef;
  /** The `missing` value of an ordinals kind (a keyword, or the hex of an ip/binary value), or null. */
  readonly missingTerm: string | null;
  numbers(segment: AggregationSegment): DocNumbers;
  ords(segment: AggregationSegment): DocOrds;
}

const VALUE_TYPE_HINTS: Record<string, ValuesKind> = {
  string: 'keyword',
  keyword: 'keyword',
  long: 'long',
  integer: 'long',
  short: 'long',
  byte: 'long',
  numeric: 'double',
  number: 'double',
  double: 'double',
  float: 'double',
  date: 'date',
  boolean: 'boolean',
  ip: 'bytes',
};

function kindOf(type: AggFieldType): ValuesKind | null {
  switch (type.family) {
    case 'keyword':
      return 'keyword';
    case 'long':
      return 'long';
    case 'double':
      return 'double';
    case 'date':
      return 'date';
    case 'boolean':
      return 'boolean';
    case 'bytes':
      return 'bytes';
    case 'none':
      return null;
  }
}

/** DocValueFormat.parseBytesRef of the IP and BINARY formats: a value given for a bytes field, as its hex key. */
export function parseBytesKey(format: FormatSpec, value: string): string {
  try {
    if (format.kind === 'ip') return ipToHex(parseIp(value));
    return Buffer.from(decodeBase64Value(value)).toString('hex');
  } catch (err) {
    if (err instanceof IpFormatError || err instanceof Base64DecodeError) throw aggErrors.illegalArgument(err.message);
    throw err;
  }
}

function parseMissingNumber(missing: string | number | boolean, kind: ValuesKind, dateFormat: string, zone: ZoneRef, ctx: AggregationContext): number {
  if (typeof missing === 'number') return missing;
  if (typeof missing === 'boolean') return missing ? 1 : 0;
  if (kind === 'date') {
    return parseDateMath(missing, dateFormatter(dateFormat), { now: () => ctx.nowInMillis, zone });
  }
  if (kind === 'boolean') {
    if (missing === 'true') return 1;
    if (missing === 'false' || missing === '') return 0;
    throw aggErrors.illegalArgument(`Can't parse boolean value [${missing}], expected [true] or [false]`);
  }
  const value = Number(missing.trim());
  if (missing.trim() === '' || Number.isNaN(value)) throw aggErrors.numberFormat(missing);
  return value;
}

export interface ResolveOptions {
  /** The aggregation type, for "not supported for aggregation [type]". */
  readonly aggregation: string;
  readonly allowed: readonly ValuesKind[];
  /** The kind an unmapped field with `missing` takes (the builder's defaultValueSourceType). */
  readonly defaultKind: ValuesKind;
}

export function resolveValuesSource(source: ValuesSourceSpec, ctx: AggregationContext, options: ResolveOptions): ValuesSourceConfig {
  const field = source.field!;
  const fieldType = ctx.fieldType(field);
  const zone = source.timeZone ?? UTC_ZONE;
  let kind: ValuesKind | null;
  let divisor = 1;
  let dateFormat = source.format ?? 'strict_date_optional_time||epoch_millis';
  let mapped = true;
  let nanos = false;
  let bytesDisplay: 'ip' | 'binary' = 'ip';
  if (fieldType === undefined) {
    mapped = false;
    kind = source.missing === undefined ? null : (ownValue(VALUE_TYPE_HINTS, source.valueType ?? '') ?? options.defaultKind);
  } else {
    kind = kindOf(fieldType);
    if (kind === null) {
      if (fieldType.family === 'none' && fieldType.isText) throw aggErrors.textFieldData(field, ctx.indexName);
      throw aggErrors.unsupportedFieldType(field, fieldType.typeName, options.aggregation);
    }
    if (!options.allowed.includes(kind)) throw aggErrors.unsupportedFieldType(field, fieldType.typeName, options.aggregation);
    if (fieldType.family === 'double' && fieldType.scalingFactor !== null) divisor = fieldType.scalingFactor;
    if (fieldType.family === 'date') {
      dateFormat = source.format ?? fieldType.format;
      nanos = fieldType.nanos === true;
    }
    if (fieldType.family === 'bytes') bytesDisplay = fieldType.display;
  }
  let format: FormatSpec = RAW_FORMAT;
  if (kind === 'date') format = { kind: 'date', pattern: dateFormat, zone };
  else if (kind === 'boolean') format = BOOLEAN_FORMAT;
  else if (kind === 'bytes') format = bytesDisplay === 'ip' ? IP_FORMAT : BINARY_FORMAT;
  else if ((kind === 'long' || kind === 'double') && source.format !== null) format = { kind: 'decimal', pattern: source.format };

  const missing = source.missing;
  let missingNumber: number | null = null;
  let missingString: string | null = null;
  if (missing !== undefined && kind !== null) {
    if (kind === 'keyword') missingString = String(missing);
    else if (kind === 'bytes') missingString = parseBytesKey(format, String(missing));
    else missingNumber = parseMissingNumber(missing, kind, dateFormat, zone, ctx);
  }
  const valuesField = mapped ? field : null;
  return {
    kind,
    field: valuesField,
    format,
    zone,
    missingTerm: missingString,
    numbers: (segment) => numericValues(valuesField === null ? null : segment, valuesField, divisor, missingNumber, nanos),
    ords: (segment) =>
      kind === 'bytes'
        ? bytesValues(valuesField === null ? null : segment, valuesField, missingString)
        : keywordValues(valuesField === null ? null : segment, valuesField, missingString, ctx.termStrings),
  };
}

export const NUMERIC_KINDS: readonly ValuesKind[] = ['long', 'double', 'date', 'boolean'];
export const ALL_KINDS: readonly ValuesKind[] = ['keyword', 'long', 'double', 'date', 'boolean', 'bytes'];
