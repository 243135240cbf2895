/**
 * A request's `sort` resolved against one shard's mapping (SortBuilder.buildSort): each entry becomes a
 * typed sort field (score, index order, `_shard_doc`, a numeric/date/boolean field, a keyword field) with
 * its order, missing value and multi-value mode, plus the execution core's SortSpec. A sort that is only
 * `_score` descending is no sort at all (ES optimises it away), so hits keep relevance order and no `sort`
 * values. Errors are ES's: text fields have no fielddata, unmapped fields need `unmapped_type`.
 */
import { ownValue } from '../../common/own-keys.js';
import { EsError } from '../../common/errors.js';
import type { DateFormatter, FieldOptions } from '../../mapping/index.js';
import { dateFormatter } from '../../mapping/index.js';
import type { SortField as CoreSortField, SortSpec as CoreSortSpec } from '../collect/sort.js';
import type { SortSpec as RequestSort, SortOrder } from '../dsl/index.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import { fieldLookupFor } from './shard-query.js';
import type { ShardSearchTarget } from './shard-target.js';

export type SortFieldKind =
  | 'score'
  | 'doc'
  | 'shard_doc'
  | 'long'
  | 'double'
  | 'float'
  | 'scaled_float'
  | 'date'
  | 'date_nanos'
  | 'boolean'
  | 'keyword'
  | 'ip';

export interface ResolvedSortField {
  readonly kind: SortFieldKind;
  readonly order: SortOrder;
  /** The field name (undefined for score, doc and shard_doc). */
  readonly field?: string;
  /** Where docs without a value go, or the value they take (a number for numerics, a string for keywords). */
  readonly missing: 'first' | 'last' | number | string;
  readonly mode?: 'min' | 'max' | 'sum' | 'avg' | 'median';
  /** scaled_float: values are stored scaled; sort values print divided by it. */
  readonly scalingFactor?: number;
  /** A date sort with an explicit `format`: sort values print as formatted dates. */
  readonly dateFormat?: DateFormatter;
  /** numeric_type between date and date_nanos: the doc values change resolution before they compare. */
  readonly convert?: 'millis_to_nanos' | 'nanos_to_millis';
  /** Values compare as exact 64-bit longs (nanoseconds exceed 2^53). */
  readonly exact?: boolean;
}

export interface ResolvedSort {
  /** True when hits come in relevance order (no sort, or only `_score` descending). */
  readonly relevance: boolean;
  readonly fields: readonly ResolvedSortField[];
  /** The execution core's sort (empty for relevance). */
  readonly core: CoreSortSpec;
}

export const RELEVANCE: ResolvedSort = { relevance: true, fields: [], core: [] };

const NUMERIC_KINDS: Readonly<Record<string, SortFieldKind>> = {
  long: 'long',
  integer: 'long',
  short: 'long',
  byte: 'long',
  unsigned_long: 'long',
  double: 'double',
  float: 'float',
  half_float: 'float',
  scaled_float: 'scaled_float',
  date: 'date',
  date_nanos: 'date_nanos',
  boolean: 'boolean',
};

function kindOfType(type: string): SortFieldKind | undefined {
  if (type === 'keyword') return 'keyword';
  if (type === 'ip') return 'ip';
  return ownValue(NUMERIC_KINDS, type);
}

/** ES's IndexNumericFieldData types: what numeric_type may be set on. */
const NUMERIC_FIELD_DATA = new Set(['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'date', 'date_nanos', 'boolean']);

function fielddataDisabled(field: string): EsError {
  return illegalArgument(
    'Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these ' +
      'operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [' +
      field +
      '] in order to load field data by uninverting the inverted index. Note that this can use significant memory.',
  );
}

function queryShardError(target: ShardSearchTarget, reason: string): EsError {
  return new EsError('query_shard_exception', reason, { metadata: { index_uuid: target.indexUuid, index: target.index } });
}

/** `missing` as the field kind reads it: `_first`/`_last`, or a value of the field's type. */
function resolveMissing(raw: unknown, kind: SortFieldKind, field: string, options: FieldOptions | undefined): ResolvedSortField['missing'] {
  if (raw === undefined || raw === null || raw === '_last') return 'last';
  if (raw === '_first') return 'first';
  if (kind === 'keyword' || kind === 'ip') return String(raw);
  if (kind === 'boolean') {
    if (raw === true || raw === 'true') return 1;
    if (raw === false || raw === 'false') return 0;
    throw illegalArgument(`Can't parse boolean value [${String(raw)}], expected [true] or [false]`);
  }
  if (kind === 'date' && typeof raw === 'string' && options?.type === 'date' && !/^-?\d+$/.test(raw)) {
    return options.formatter.parseMillis(raw);
  }
  if (kind === 'date_nanos' && typeof raw === 'string' && options?.type === 'date_nanos' && !/^-?\d+$/.test(raw)) {
    return Number(options.formatter.parseNanos(raw));
  }
  const value = typeof raw === 'number' ? raw : Number(String(raw));
  if (!Number.isFinite(value)) throw new EsError('number_format_exception', `For input string: "${String(raw)}"`);
  if (kind === 'scaled_float' && options?.type === 'scaled_float' && options.scalingFactor !== undefined) {
    return Math.round(value * options.scalingFactor);
  }
  return value;
}

function resolveField(target: ShardSearchTarget, spec: Extract<RequestSort, { kind: 'field' }>): ResolvedSortField {
  const name = spec.field;
  if (name === '_doc') return { kind: 'doc', order: spec.order, missing: 'last' };
  if (name === '_shard_doc') return { kind: 'shard_doc', order: spec.order, missing: 'last' };
  const lookup = fieldLookupFor(target.mapping, target.mappingSettings);
  const mapped = lookup.get(name);
  let kind: SortFieldKind | undefined;
  let options: FieldOptions | undefined;
  if (name === '_id') {
    throw illegalArgument('Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled');
  }
  if (mapped === undefined || mapped.kind === 'metadata') {
    if (spec.unmappedType === undefined) throw queryShardError(target, `No mapping found for [${name}] in order to sort on`);
    kind = kindOfType(spec.unmappedType);
    if (kind === undefined) {
      if (spec.unmappedType === 'text') throw fielddataDisabled(name);
      throw queryShardError(target, `No mapper found for type [${spec.unmappedType}]`);
    }
  } else {
    options = mapped.options;
    if (options.type === 'text') {
      if (!options.fielddata) throw fielddataDisabled(name);
      throw illegalArgument(`sorting on text fields with fielddata is not supported by this node: [${name}]`);
    }
    if (options.type === 'binary') {
      // BytesBinaryIndexFieldData.sortField.
      if (!options.docValues) {
        throw illegalArgument(`Can't load fielddata on [${name}] because fielddata is unsupported on fields of type [binary]. Use doc values instead.`);
      }
      throw illegalArgument("can't sort on binary field");
    }
    kind = kindOfType(options.type);
    if (kind === undefined) throw illegalArgument(`sorting on fields of type [${options.type}] is not supported by this node: [${name}]`);
    if (!options.docValues) {
      throw illegalArgument(`Can't load fielddata on [${name}] because fielddata is unsupported on fields of type [${options.type}]. Use doc values instead.`);
    }
  }
  const mode = spec.mode;
  if ((kind === 'keyword' || kind === 'ip') && mode !== undefined && mode !== 'min' && mode !== 'max') {
    throw queryShardError(target, 'we only support AVG, MEDIAN and SUM on number based fields');
  }
  // numeric_type: the sort's own numeric type, converting between date resolutions (FieldSortBuilder).
  let convert: ResolvedSortField['convert'];
  const fieldType = options?.type ?? spec.unmappedType;
  if (spec.numericType !== undefined) {
    if (fieldType === undefined || !NUMERIC_FIELD_DATA.has(fieldType)) {
      throw queryShardError(target, `[numeric_type] option cannot be set on a non-numeric field, got ${fieldType}`);
    }
    const target2 = spec.numericType;
    if (target2 === 'date_nanos' && kind === 'date') convert = 'millis_to_nanos';
    if (target2 === 'date' && kind === 'date_nanos') convert = 'nanos_to_millis';
    kind = target2 === 'long' ? 'long' : target2 === 'double' ? 'double' : target2 === 'date' ? 'date' : 'date_nanos';
  }
  const exact = convert === 'millis_to_nanos' || (fieldType === 'date_nanos' && convert === undefined && kind !== 'double');
  let dateFormat: DateFormatter | undefined;
  if (spec.format !== undefined) {
    if (kind !== 'date' && kind !== 'date_nanos') throw illegalArgument(`Field [${name}] of type [${options?.type ?? spec.unmappedType}] does not support custom formats`);
    dateFormat = dateFormatter(spec.format);
  }
  return {
    kind,
    order: spec.order,
    field: name,
    missing: resolveMissing(spec.missing, kind, name, options),
    ...(mode !== undefined && { mode }),
    ...(kind === 'scaled_float' && options?.type === 'scaled_float' && { scalingFactor: options.scalingFactor ?? 1 }),
    ...(dateFormat !== undefined && { dateFormat }),
    ...(convert !== undefined && { convert }),
    ...(exact && { exact }),
  };
}

function toCore(field: ResolvedSortField): CoreSortField {
  switch (field.kind) {
    case 'score':
      return { kind: 'score', order: field.order };
    case 'doc':
    case 'shard_doc':
      return { kind: 'doc', order: field.order };
    case 'keyword':
    case 'ip':
      return {
        kind: 'keyword',
        field: field.field!,
        order: field.order,
        missing: field.missing as 'first' | 'last' | string,
        ...(field.mode !== undefined && { mode: field.mode as 'min' | 'max' }),
        ...(field.kind === 'ip' && { termsAs: 'hex' as const }),
      };
    default:
      return {
        kind: 'numeric',
        field: field.field!,
        order: field.order,
        missing: typeof field.missing === 'string' && field.missing !== 'first' && field.missing !== 'last' ? Number(field.missing) : (field.missing as 'first' | 'last' | number),
        ...(field.mode !== undefined && { mode: field.mode }),
        ...(field.exact === true && { exact: true }),
        ...(field.convert !== undefined && { convert: field.convert }),
      };
  }
}

/** SortBuilder.buildSort for one shard. */
export function resolveSort(target: ShardSearchTarget, sorts: readonly RequestSort[] | undefined): ResolvedSort {
  if (sorts === undefined || sorts.length === 0) return RELEVANCE;
  const fields = sorts.map((spec): ResolvedSortField => (spec.kind === 'score' ? { kind: 'score', order: spec.order, missing: 'last' } : resolveField(target, spec)));
  if (fields.length === 1 && fields[0]!.kind === 'score' && fields[0]!.order === 'desc') return RELEVANCE;
  return { relevance: false, fields, core: fields.map(toCore) };
}

export function sortNeedsScores(sort: ResolvedSort): boolean {
  return sort.relevance || sort.fields.some((field) => field.kind === 'score');
}
