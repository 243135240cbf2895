/**
 * Parsing pieces several aggregations share: the values-source fields (field, missing, script, value_type,
 * format, time_zone), bucket orders (InternalOrder.Parser) and terms include/exclude (IncludeExclude).
 */
import { EsError } from '../../../common/errors.js';
import { parseZoneId, type ZoneRef } from '../../../mapping/date/zones.js';
import { aggErrors } from '../agg-errors.js';
import type { BucketOrder, IncludeExclude, MissingValue, OrderElement, ValuesSourceSpec } from '../spec.js';
import { isObject, tokenName, type JsonObject, type ObjectFields } from './object-fields.js';

export interface ValuesSourceOptions {
  readonly formattable: boolean;
  readonly timeZoneAware: boolean;
}

export function valuesSourceFieldNames(options: ValuesSourceOptions): string[] {
  const names = ['field', 'missing', 'script', 'value_type'];
  if (options.formattable) names.push('format');
  if (options.timeZoneAware) names.push('time_zone');
  return names;
}

function parseTimeZone(fields: ObjectFields): ZoneRef | null {
  const value = fields.raw('time_zone');
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    const hours = Math.trunc(value);
    if (hours < -18 || hours > 18) {
      throw aggErrors.failedToParseField(fields.parser, 'time_zone', aggErrors.illegalArgument(`Zone offset hours not in valid range: value ${hours} is not in the range -18 to 18`));
    }
    return { kind: 'offset', seconds: hours * 3600 };
  }
  if (typeof value !== 'string') throw aggErrors.unsupportedValueType(fields.parser, 'time_zone', tokenName(value));
  const zone = parseZoneId(value);
  if (zone === undefined) {
    throw aggErrors.failedToParseField(fields.parser, 'time_zone', aggErrors.illegalArgument(`Unknown time-zone ID: ${value}`));
  }
  return zone;
}

export function parseValuesSource(fields: ObjectFields, options: ValuesSourceOptions): ValuesSourceSpec {
  const missingRaw = fields.raw('missing');
  let missing: MissingValue | undefined;
  if (missingRaw !== undefined && missingRaw !== null) {
    if (typeof missingRaw !== 'string' && typeof missingRaw !== 'number' && typeof missingRaw !== 'boolean') {
      throw aggErrors.unsupportedValueType(fields.parser, 'missing', tokenName(missingRaw));
    }
    missing = missingRaw;
  }
  const script = fields.raw('script');
  const source: ValuesSourceSpec = {
    field: fields.string('field') ?? null,
    script: script === undefined ? null : script,
    missing,
    format: options.formattable ? (fields.string('format') ?? null) : null,
    timeZone: options.timeZoneAware ? parseTimeZone(fields) : null,
    valueType: fields.string('value_type') ?? null,
  };
  if (source.script !== null) throw aggErrors.notSupported('[script] in aggregations');
  if (source.field === null) throw aggErrors.requiredFieldOrScript();
  return source;
}

/** InternalOrder.Parser.parseOrderParam for one `{"key": "asc|desc"}` object. */
function parseOrderElement(value: unknown, parser: string): OrderElement {
  if (!isObject(value)) throw aggErrors.unsupportedValueType(parser, 'order', tokenName(value));
  let key: string | null = null;
  let asc = false;
  for (const [name, direction] of Object.entries(value)) {
    key = name;
    if (typeof direction !== 'string') throw aggErrors.failedToParseField(parser, 'order', aggErrors.parsing(`Unexpected token [${tokenName(direction)}] for [order]`));
    const lower = direction.toLowerCase();
    if (lower === 'asc') asc = true;
    else if (lower === 'desc') asc = false;
    else throw aggErrors.failedToParseField(parser, 'order', aggErrors.parsing(`Unknown order direction [${direction}]`));
  }
  if (key === null) throw aggErrors.failedToParseField(parser, 'order', aggErrors.parsing('Must specify at least one field for [order]'));
  if (key === '_key') return { kind: 'key', asc };
  if (key === '_count') return { kind: 'count', asc };
  return { kind: 'path', path: key, asc };
}

function isKeyElement(element: OrderElement | undefined): boolean {
  return element !== undefined && element.kind === 'key';
}

/**
 * The order of terms and histogram buckets. A single key order stays as it is; anything else becomes a
 * compound order with `_key asc` appended as tie-breaker unless the last element already orders by key.
 */
export function parseOrder(value: unknown, parser: string): BucketOrder {
  const elements = Array.isArray(value) ? value.map((v) => parseOrderElement(v, parser)) : [parseOrderElement(value, parser)];
  if (elements.length === 1 && isKeyElement(elements[0])) return { elements };
  if (!isKeyElement(elements[elements.length - 1])) elements.push({ kind: 'key', asc: true });
  return { elements };
}

export const COUNT_DESC_ORDER: BucketOrder = { elements: [{ kind: 'count', asc: false }, { kind: 'key', asc: true }] };
export const KEY_ASC_ORDER: BucketOrder = { elements: [{ kind: 'key', asc: true }] };

function parseTermList(value: readonly unknown[], parser: string, field: string): (string | number)[] {
  return value.map((item) => {
    if (typeof item === 'string' || typeof item === 'number') return item;
    throw aggErrors.failedToParseField(parser, field, aggErrors.illegalArgument(`Unrecognized token for an ${field} [${tokenName(item)}]`));
  });
}

function parseInclude(value: unknown, parser: string): IncludeExclude {
  if (typeof value === 'string') return { kind: 'regex', include: value, exclude: null };
  if (Array.isArray(value)) return { kind: 'set', include: parseTermList(value, parser, 'include'), exclude: null };
  if (isObject(value)) {
    let partition: number | null = null;
    let numPartitions: number | null = null;
    for (const [key, v] of Object.entries(value as JsonObject)) {
      if (key === 'num_partitions') numPartitions = Number(v);
      else if (key === 'partition') partition = Number(v);
      else throw new EsError('parse_exception', `Unknown parameter in Include/Exclude clause: ${key}`);
    }
    if (partition === null) throw aggErrors.failedToParseField(parser, 'include', aggErrors.illegalArgument('Missing [partition] parameter for partition-based include'));
    if (numPartitions === null) throw aggErrors.failedToParseField(parser, 'include', aggErrors.illegalArgument('Missing [num_partitions] parameter for partition-based include'));
    if (partition < 0 || partition >= numPartitions) {
      throw aggErrors.failedToParseField(parser, 'include', aggErrors.illegalArgument(`Partition must be >=0 and < numPartition which is ${numPartitions}`));
    }
    return { kind: 'partition', partition, numPartitions };
  }
  throw aggErrors.failedToParseField(parser, 'include', aggErrors.illegalArgument(`Unrecognized token for an include [${tokenName(value)}]`));
}

function parseExclude(value: unknown, parser: string): IncludeExclude {
  if (typeof value === 'string') return { kind: 'regex', include: null, exclude: value };
  if (Array.isArray(value)) return { kind: 'set', include: null, exclude: parseTermList(value, parser, 'exclude') };
  throw aggErrors.failedToParseField(parser, 'exclude', aggErrors.illegalArgument(`Unrecognized token for an exclude [${tokenName(value)}]`));
}

/** IncludeExclude.merge of the parsed include and exclude. */
export function parseIncludeExclude(include: unknown, exclude: unknown, parser: string): IncludeExclude | null {
  const inc = include === undefined ? null : parseInclude(include, parser);
  const exc = exclude === undefined ? null : parseExclude(exclude, parser);
  if (inc === null) return exc;
  if (exc === null) return inc;
  const field = 'exclude';
  if (inc.kind === 'partition') throw aggErrors.failedToParseField(parser, field, aggErrors.illegalArgument('Cannot specify any excludes when using a partition-based include'));
  if (inc.kind !== exc.kind) {
    const method = (k: string): string => (k === 'regex' ? 'regex' : 'set');
    throw aggErrors.failedToParseField(parser, field, aggErrors.illegalArgument(`Cannot mix a ${method(inc.kind)}-based include with a ${method(exc.kind)}-based method`));
  }
  if (inc.kind === 'regex' && exc.kind === 'regex') return { kind: 'regex', include: inc.include, exclude: exc.exclude };
  if (inc.kind === 'set' && exc.kind === 'set') return { kind: 'set', include: inc.include, exclude: exc.exclude };
  return inc;
}
