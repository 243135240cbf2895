/**
 * Bodies of the metrics aggregations: min, max, avg, sum, value_count, stats, extended_stats, cardinality,
 * percentiles, percentile_ranks and top_hits.
 */
import type { EsError } from '../../../common/errors.js';
import { javaDoubleString } from '../../../common/json-float.js';
import { aggErrors } from '../agg-errors.js';
import type { CardinalitySpec, ExtendedStatsSpec, PercentileRanksSpec, PercentilesSpec, SimpleMetricSpec, SimpleMetricType, SortSpec, SourceSpec, TopHitsSpec } from '../spec.js';
import { DEFAULT_COMPRESSION } from '../metrics/tdigest.js';
import { isObject, ObjectFields, tokenName, type JsonObject } from './object-fields.js';
import { parseValuesSource, valuesSourceFieldNames } from './parse-common.js';
import type { Common } from './parse-bucket-aggs.js';

export function parseSimpleMetric(common: Common, body: JsonObject, type: SimpleMetricType): Omit<SimpleMetricSpec, 'subAggregations'> {
  const fields = new ObjectFields(type, body, valuesSourceFieldNames({ formattable: true, timeZoneAware: false }));
  return { ...common, type, source: parseValuesSource(fields, { formattable: true, timeZoneAware: false }) };
}

export function parseExtendedStats(common: Common, body: JsonObject): Omit<ExtendedStatsSpec, 'subAggregations'> {
  const fields = new ObjectFields('extended_stats', body, [...valuesSourceFieldNames({ formattable: true, timeZoneAware: false }), 'sigma']);
  const sigma = fields.double('sigma') ?? 2;
  if (sigma < 0) {
    throw aggErrors.failedToParseField('extended_stats', 'sigma', aggErrors.illegalArgument(`[sigma] must be greater than or equal to 0. Found [${javaDoubleString(sigma)}] in [${common.name}]`));
  }
  return { ...common, type: 'extended_stats', source: parseValuesSource(fields, { formattable: true, timeZoneAware: false }), sigma };
}

export function parseCardinality(common: Common, body: JsonObject): Omit<CardinalitySpec, 'subAggregations'> {
  const fields = new ObjectFields('cardinality', body, [...valuesSourceFieldNames({ formattable: false, timeZoneAware: false }), 'precision_threshold', 'rehash', 'execution_hint']);
  const threshold = fields.long('precision_threshold');
  if (threshold !== undefined && threshold < 0) {
    throw aggErrors.failedToParseField(
      'cardinality',
      'precision_threshold',
      aggErrors.illegalArgument(`[precisionThreshold] must be greater than or equal to 0. Found [${threshold}] in [${common.name}]`),
    );
  }
  fields.string('execution_hint');
  return { ...common, type: 'cardinality', source: parseValuesSource(fields, { formattable: false, timeZoneAware: false }), precisionThreshold: threshold ?? null };
}

export const DEFAULT_PERCENTS: readonly number[] = [1, 5, 25, 50, 75, 95, 99];

/**
 * A double array of ObjectParser (`percents`, `values`): numbers or numeric strings; one bare value is read as
 * an array of it, as ES's parseArray does.
 */
function parseDoubles(parser: string, field: string, raw: unknown): number[] {
  if (raw === null || (typeof raw !== 'number' && typeof raw !== 'string' && !Array.isArray(raw))) {
    throw aggErrors.unsupportedValueType(parser, field, tokenName(raw));
  }
  const items: unknown[] = Array.isArray(raw) ? raw : [raw];
  return items.map((item) => {
    const value = typeof item === 'string' ? Number(item) : item;
    if (typeof value !== 'number' || Number.isNaN(value)) throw aggErrors.failedToParseField(parser, field, aggErrors.numberFormat(String(item)));
    return value;
  });
}

/**
 * What the builder of ES's ConstructingObjectParser throws (the method check, the keys' checks) reaches the
 * user wrapped: "Failed to build [percentiles] after last required field arrived", caused by the reason.
 */
function buildError(parser: string, reason: string): EsError {
  return aggErrors.failedToBuild(parser, aggErrors.illegalArgument(reason));
}

/** AbstractPercentilesAggregationBuilder's constructor: the keys are required, non-empty, kept sorted. */
function checkedKeys(parser: string, field: string, keys: number[] | undefined, name: string): number[] {
  if (keys === undefined) throw buildError(parser, `[${field}] must not be null: [${name}]`);
  if (keys.length === 0) throw buildError(parser, `[${field}] must not be an empty array: [${name}]`);
  return [...keys].sort((a, b) => a - b);
}

/** The method objects both t-digest aggregations share: `tdigest` (compression, execution_hint) or `hdr`. */
function parseTDigestCompression(fields: ObjectFields, what: string): number {
  if (fields.has('hdr')) {
    if (fields.has('tdigest')) throw buildError(fields.parser, 'Only one percentiles method should be declared.');
    throw aggErrors.notSupported(`[hdr] ${what}`);
  }
  const tdigest = fields.object('tdigest');
  if (tdigest === undefined) return DEFAULT_COMPRESSION;
  const options = new ObjectFields('tdigest', tdigest, ['compression', 'execution_hint']);
  const compression = options.double('compression') ?? DEFAULT_COMPRESSION;
  if (compression < 0) {
    throw aggErrors.failedToParseField('tdigest', 'compression', aggErrors.illegalArgument(`[compression] must be greater than or equal to 0. Found [${javaDoubleString(compression)}]`));
  }
  const hint = options.string('execution_hint');
  if (hint !== undefined && hint !== 'default' && hint !== 'high_accuracy' && hint !== '') {
    throw aggErrors.failedToParseField('tdigest', 'execution_hint', aggErrors.illegalArgument(`Invalid execution_hint [${hint}], valid values are [default, high_accuracy]`));
  }
  return compression;
}

const DIGEST_FIELDS = ['keyed', 'tdigest', 'hdr'];

export function parsePercentiles(common: Common, body: JsonObject): Omit<PercentilesSpec, 'subAggregations'> {
  const fields = new ObjectFields('percentiles', body, [...valuesSourceFieldNames({ formattable: true, timeZoneAware: false }), 'percents', ...DIGEST_FIELDS]);
  const name = common.name;
  const rawPercents = fields.raw('percents');
  const parsedPercents = rawPercents === undefined ? undefined : parseDoubles('percentiles', 'percents', rawPercents);
  // ES picks the method before PercentilesAggregationBuilder.validatePercentiles checks the percents.
  const compression = parseTDigestCompression(fields, 'percentiles');
  if (parsedPercents !== undefined && parsedPercents.length === 0) throw buildError('percentiles', `[percents] must not be empty: [${name}]`);
  const percents = checkedKeys('percentiles', 'percents', parsedPercents ?? [...DEFAULT_PERCENTS], name);
  for (const percent of percents) {
    if (percent < 0 || percent > 100) throw buildError('percentiles', `percent must be in [0,100], got [${javaDoubleString(percent)}]: [${name}]`);
  }
  return {
    ...common,
    type: 'percentiles',
    source: parseValuesSource(fields, { formattable: true, timeZoneAware: false }),
    percents,
    keyed: fields.boolean('keyed') ?? true,
    compression,
  };
}

/** PercentileRanksAggregationBuilder: `values` is required (no default), any doubles. */
export function parsePercentileRanks(common: Common, body: JsonObject): Omit<PercentileRanksSpec, 'subAggregations'> {
  const fields = new ObjectFields('percentile_ranks', body, [...valuesSourceFieldNames({ formattable: true, timeZoneAware: false }), 'values', ...DIGEST_FIELDS]);
  const rawValues = fields.raw('values');
  const parsedValues = rawValues === undefined ? undefined : parseDoubles('percentile_ranks', 'values', rawValues);
  // ES picks the method before its constructor checks the values.
  const compression = parseTDigestCompression(fields, 'percentile ranks');
  const values = checkedKeys('percentile_ranks', 'values', parsedValues, common.name);
  return {
    ...common,
    type: 'percentile_ranks',
    source: parseValuesSource(fields, { formattable: true, timeZoneAware: false }),
    values,
    keyed: fields.boolean('keyed') ?? true,
    compression,
  };
}

function parseSortElement(value: unknown): SortSpec {
  if (typeof value === 'string') return { field: value, asc: value !== '_score', missing: null };
  if (!isObject(value)) throw aggErrors.parsing(`[sort] unexpected token [${tokenName(value)}]`);
  const entries = Object.entries(value);
  if (entries.length !== 1) throw aggErrors.parsing('[sort] must contain exactly one field per sort object');
  const [field, options] = entries[0]!;
  let asc = field !== '_score';
  let missing: SortSpec['missing'] = null;
  if (typeof options === 'string') {
    asc = options.toLowerCase() === 'asc';
  } else if (isObject(options)) {
    const order = options['order'];
    if (typeof order === 'string') asc = order.toLowerCase() === 'asc';
    const m = options['missing'];
    if (m === '_first') missing = 'first';
    else if (m === '_last') missing = 'last';
    else if (typeof m === 'number' || typeof m === 'string') missing = m;
  }
  return { field, asc, missing };
}

function parseSource(value: unknown): SourceSpec {
  if (value === undefined || value === true) return { fetch: true, includes: [], excludes: [] };
  if (value === false) return { fetch: false, includes: [], excludes: [] };
  if (typeof value === 'string') return { fetch: true, includes: [value], excludes: [] };
  if (Array.isArray(value)) return { fetch: true, includes: value.map(String), excludes: [] };
  if (isObject(value)) {
    const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
    return { fetch: true, includes: list(value['includes'] ?? value['include']), excludes: list(value['excludes'] ?? value['exclude']) };
  }
  throw aggErrors.parsing(`Expected one of [VALUE_BOOLEAN, START_OBJECT] but found [${tokenName(value)}]`);
}

export function parseTopHits(common: Common, body: JsonObject): Omit<TopHitsSpec, 'subAggregations'> {
  const fields = new ObjectFields('top_hits', body, ['from', 'size', 'sort', '_source', 'track_scores', 'version', 'seq_no_primary_term', 'explain']);
  const name = common.name;
  const from = fields.int('from') ?? 0;
  if (from < 0) throw aggErrors.illegalArgument(`[from] must be greater than or equal to 0. Found [${from}] in [${name}]`);
  const size = fields.int('size') ?? 3;
  if (size < 0) throw aggErrors.illegalArgument(`[size] must be greater than or equal to 0. Found [${size}] in [${name}]`);
  const rawSort = fields.raw('sort');
  const sort = rawSort === undefined ? [] : Array.isArray(rawSort) ? rawSort.map(parseSortElement) : [parseSortElement(rawSort)];
  return {
    ...common,
    type: 'top_hits',
    from,
    size,
    sort,
    fetchSource: parseSource(fields.raw('_source')),
    trackScores: fields.boolean('track_scores') ?? false,
    version: fields.boolean('version') ?? false,
    seqNoPrimaryTerm: fields.boolean('seq_no_primary_term') ?? false,
  };
}
