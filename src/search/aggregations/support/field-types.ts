/**
 * What an aggregation needs to know about a field: which values source it is (ES's CoreValuesSourceType:
 * keyword bytes, numbers, dates, booleans), how its doc values are stored in segments, and its default
 * format. `fieldTypesFromMapping` derives it from an index mapping; the search layer may supply its own.
 */
import { ownValue } from '../../../common/own-keys.js';
import { fieldOptions } from '../../../mapping/field-options.js';
import { lookupPath } from '../../../mapping/mapping-merge.js';
import type { FieldMapping, MappingSettings, RootMapping } from '../../../mapping/mapping-model.js';
import { DEFAULT_MAPPING_SETTINGS } from '../../../mapping/mapping-model.js';
import { DEFAULT_DATE_FORMAT } from '../../../mapping/date/date-formatter.js';

export type AggFieldType =
  /** keyword: sorted(-set) doc values of terms. */
  | { readonly family: 'keyword'; readonly typeName: string }
  /** Whole numbers stored as longs (long, integer, short, byte). */
  | { readonly family: 'long'; readonly typeName: string }
  /** Floating point numbers; scaled_float stores the scaled long and divides by the factor. */
  | { readonly family: 'double'; readonly typeName: string; readonly scalingFactor: number | null }
  /**
   * Epoch milliseconds stored as longs, printed with the field's format. date_nanos fields store nanoseconds,
   * which aggregations read as the millisecond they fall in (ES's NanoSecondFieldData.getLongValues).
   */
  | { readonly family: 'date'; readonly typeName: string; readonly format: string; readonly nanos?: boolean }
  /**
   * Raw byte terms in sorted(-set) doc values, compared in byte order and printed by their format: ip addresses
   * (16 bytes) or binary values (base64).
   */
  | { readonly family: 'bytes'; readonly typeName: string; readonly display: 'ip' | 'binary' }
  /** 0/1 longs printed as false/true. */
  | { readonly family: 'boolean'; readonly typeName: string }
  /** Fields without doc values aggregations can read (text without fielddata, ...). */
  | { readonly family: 'none'; readonly typeName: string; readonly isText: boolean };

export type FieldTypeLookup = (field: string) => AggFieldType | undefined;

export function aggFieldType(mapping: FieldMapping, settings: MappingSettings = DEFAULT_MAPPING_SETTINGS): AggFieldType {
  const options = fieldOptions(mapping, settings);
  switch (options.type) {
    case 'keyword':
      return options.docValues ? { family: 'keyword', typeName: 'keyword' } : { family: 'none', typeName: 'keyword', isText: false };
    case 'text':
      return { family: 'none', typeName: 'text', isText: true };
    case 'boolean':
      return options.docValues ? { family: 'boolean', typeName: 'boolean' } : { family: 'none', typeName: 'boolean', isText: false };
    case 'date':
      return options.docValues ? { family: 'date', typeName: 'date', format: options.format || DEFAULT_DATE_FORMAT, nanos: false } : { family: 'none', typeName: 'date', isText: false };
    case 'date_nanos':
      return options.docValues ? { family: 'date', typeName: 'date_nanos', format: options.format, nanos: true } : { family: 'none', typeName: 'date_nanos', isText: false };
    case 'ip':
      return options.docValues ? { family: 'bytes', typeName: 'ip', display: 'ip' } : { family: 'none', typeName: 'ip', isText: false };
    case 'binary':
      return options.docValues ? { family: 'bytes', typeName: 'binary', display: 'binary' } : { family: 'none', typeName: 'binary', isText: false };
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
      return options.docValues ? { family: 'long', typeName: options.type } : { family: 'none', typeName: options.type, isText: false };
    case 'double':
    case 'float':
    case 'half_float':
    case 'scaled_float':
      if (!options.docValues) return { family: 'none', typeName: options.type, isText: false };
      return { family: 'double', typeName: options.type, scalingFactor: options.type === 'scaled_float' ? (options.scalingFactor ?? 1) : null };
  }
}

/** Field lookup over an index mapping: object paths and multi-fields (`title.keyword`). */
export function fieldTypesFromMapping(root: RootMapping, settings: MappingSettings = DEFAULT_MAPPING_SETTINGS): FieldTypeLookup {
  const cache = new Map<string, AggFieldType | undefined>();
  return (field) => {
    if (cache.has(field)) return cache.get(field);
    let node = lookupPath(root, field);
    if (node === undefined) {
      // A multi-field: the parent field's `fields` entry.
      const dot = field.lastIndexOf('.');
      if (dot > 0) {
        const parent = lookupPath(root, field.slice(0, dot));
        if (parent !== undefined && parent.kind === 'field') node = ownValue(parent.fields, field.slice(dot + 1));
      }
    }
    const type = node !== undefined && node.kind === 'field' ? aggFieldType(node, settings) : undefined;
    cache.set(field, type);
    return type;
  };
}
