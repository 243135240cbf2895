/**
 * Stored field values (`store: true`) as ES displays them under a hit's or a GET's `fields`
 * (MappedFieldType.valueForDisplay on what StoredFieldsWriter kept): text and keyword as stored, booleans from their
 * `T`/`F` form, dates formatted with the field's format, numbers as the stored Java number prints.
 */
import { javaDoubleString } from '../../common/json-float.js';
import { RawJson } from '../../common/raw-json.js';
import type { FieldLookup } from '../dsl/build/field-lookup.js';
import { encodeBase64, formatIp } from '../../mapping/index.js';
import { floatToJsonNumber } from '../float32.js';
import type { FieldValue } from './value-fetchers.js';

export function displayStoredValue(lookup: FieldLookup, name: string, value: unknown): FieldValue {
  const field = lookup.get(name);
  const options = field?.kind === 'mapped' ? field.options : undefined;
  switch (options?.type) {
    case 'boolean':
      return value === 'T';
    case 'date':
      return options.formatter.format(Number(value));
    case 'date_nanos':
      return options.formatter.formatNanos(BigInt(value as bigint | number));
    case 'ip':
      // The stored copy is the 16-byte encoding (IpFieldMapper stores InetAddressPoint.encode).
      return value instanceof Uint8Array ? formatIp(value) : String(value);
    case 'binary':
      // BinaryFieldType.valueForDisplay: the bytes, which the response prints in base64.
      return value instanceof Uint8Array ? encodeBase64(value) : String(value);
    case 'double':
      return new RawJson(javaDoubleString(Number(value)));
    case 'float':
    case 'half_float':
      return new RawJson(javaDoubleString(floatToJsonNumber(Number(value))));
    case 'text':
    case 'keyword':
    case undefined:
      return String(value);
    default:
      return new RawJson(String(value));
  }
}

/** The names a GET's `stored_fields` selects: mapped fields with `store: true`, by exact name (no patterns). */
export function storedFieldsOfMapping(lookup: FieldLookup, requested: readonly string[]): string[] {
  return requested.filter((name) => {
    const field = lookup.get(name);
    return field?.kind === 'mapped' && field.options.store === true;
  });
}
