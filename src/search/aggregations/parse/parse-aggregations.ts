/**
 * The `aggs` / `aggregations` object of a search request to AggregationSpecs, as ES's
 * AggregatorFactories.parseAggregators reads it: names, one type per aggregation, `meta`, nested `aggs`,
 * and the same errors for each malformed shape.
 */
import { aggErrors } from '../agg-errors.js';
import { METRIC_TYPES, type AggregationSpec, type AggregationType } from '../spec.js';
import { isObject, tokenName, type JsonObject } from './object-fields.js';
import {
  parseDateHistogram,
  parseFilter,
  parseFilters,
  parseHistogram,
  parseIpPrefix,
  parseIpRange,
  parseMissing,
  parseRange,
  parseTerms,
  type Common,
  type QueryParser,
} from './parse-bucket-aggs.js';
import { parseCardinality, parseExtendedStats, parsePercentileRanks, parsePercentiles, parseSimpleMetric, parseTopHits } from './parse-metric-aggs.js';

export interface ParseAggregationsOptions {
  /** Turns the query of a filter/filters aggregation into the search layer's form (validating it). */
  readonly parseQuery?: QueryParser;
}

const VALID_NAME = /^[^[\]>]+$/;

/** Every aggregation type Elasticsearch registers, for "did you mean" and for a clear "not supported". */
const ES_AGGREGATION_TYPES = [
  'adjacency_matrix', 'auto_date_histogram', 'avg', 'avg_bucket', 'boxplot', 'bucket_count_ks_test', 'bucket_correlation',
  'bucket_script', 'bucket_selector', 'bucket_sort', 'cardinality', 'categorize_text', 'children', 'composite',
  'cumulative_cardinality', 'cumulative_sum', 'date_histogram', 'date_range', 'derivative', 'diversified_sampler',
  'extended_stats', 'extended_stats_bucket', 'filter', 'filters', 'frequent_item_sets', 'geo_bounds', 'geo_centroid',
  'geo_distance', 'geo_line', 'geohash_grid', 'geohex_grid', 'geotile_grid', 'global', 'histogram', 'inference',
  'ip_prefix', 'ip_range', 'matrix_stats', 'max', 'max_bucket', 'median_absolute_deviation', 'min', 'min_bucket',
  'missing', 'moving_fn', 'moving_percentiles', 'multi_terms', 'nested', 'normalize', 'parent', 'percentile_ranks',
  'percentiles', 'percentiles_bucket', 'random_sampler', 'range', 'rare_terms', 'rate', 'reverse_nested', 'sampler',
  'scripted_metric', 'serial_diff', 'significant_terms', 'significant_text', 'stats', 'stats_bucket', 'string_stats',
  'sum', 'sum_bucket', 't_test', 'terms', 'time_series', 'top_hits', 'top_metrics', 'value_count',
  'variable_width_histogram', 'weighted_avg',
];

const SUPPORTED: ReadonlySet<string> = new Set<AggregationType>([
  'terms', 'range', 'date_range', 'ip_range', 'ip_prefix', 'histogram', 'date_histogram', 'filter', 'filters', 'missing',
  'min', 'max', 'avg', 'sum', 'value_count', 'stats', 'extended_stats', 'cardinality', 'percentiles', 'percentile_ranks',
  'top_hits',
]);

function parseBody(type: AggregationType, common: Common, body: JsonObject, parseQuery: QueryParser): Omit<AggregationSpec, 'subAggregations'> {
  switch (type) {
    case 'terms':
      return parseTerms(common, body);
    case 'range':
    case 'date_range':
      return parseRange(common, body, type);
    case 'ip_range':
      return parseIpRange(common, body);
    case 'ip_prefix':
      return parseIpPrefix(common, body);
    case 'histogram':
      return parseHistogram(common, body);
    case 'date_histogram':
      return parseDateHistogram(common, body);
    case 'filter':
      return parseFilter(common, body, parseQuery);
    case 'filters':
      return parseFilters(common, body, parseQuery);
    case 'missing':
      return parseMissing(common, body);
    case 'min':
    case 'max':
    case 'avg':
    case 'sum':
    case 'value_count':
    case 'stats':
      return parseSimpleMetric(common, body, type);
    case 'extended_stats':
      return parseExtendedStats(common, body);
    case 'cardinality':
      return parseCardinality(common, body);
    case 'percentiles':
      return parsePercentiles(common, body);
    case 'percentile_ranks':
      return parsePercentileRanks(common, body);
    case 'top_hits':
      return parseTopHits(common, body);
  }
}

function parseLevel(json: unknown, parseQuery: QueryParser): AggregationSpec[] {
  if (!isObject(json)) {
    throw aggErrors.parsing(`Unexpected token ${tokenName(json)} in [aggs]: aggregations definitions must start with the name of the aggregation.`);
  }
  const specs: AggregationSpec[] = [];
  for (const [name, definition] of Object.entries(json)) {
    if (!VALID_NAME.test(name)) {
      throw aggErrors.parsing(`Invalid aggregation name [${name}]. Aggregation names can contain any character except '[', ']', and '>'`);
    }
    if (!isObject(definition)) {
      throw aggErrors.parsing(`Aggregation definition for [${name} starts with a [${tokenName(definition)}], expected a [START_OBJECT].`);
    }
    let type: AggregationType | null = null;
    let body: Omit<AggregationSpec, 'subAggregations'> | null = null;
    let meta: Record<string, unknown> | null = null;
    let subs: AggregationSpec[] | null = null;
    for (const [field, value] of Object.entries(definition)) {
      if (!isObject(value)) {
        throw aggErrors.parsing(`Expected [START_OBJECT] under [${field}], but got a [${tokenName(value)}] in [${name}]`);
      }
      if (field === 'meta') {
        meta = { ...value };
      } else if (field === 'aggregations' || field === 'aggs') {
        if (subs !== null) throw aggErrors.parsing(`Found two sub aggregation definitions under [${name}]`);
        subs = parseLevel(value, parseQuery);
      } else {
        if (type !== null) throw aggErrors.parsing(`Found two aggregation type definitions in [${name}]: [${type}] and [${field}]`);
        if (!SUPPORTED.has(field)) {
          if (ES_AGGREGATION_TYPES.includes(field)) throw aggErrors.notSupported(`The [${field}] aggregation`);
          throw aggErrors.unknownAggregationType(field, ES_AGGREGATION_TYPES);
        }
        type = field as AggregationType;
        body = parseBody(type, { name, meta: null }, value, parseQuery);
      }
    }
    if (type === null || body === null) throw aggErrors.parsing(`Missing definition for aggregation [${name}]`);
    if (subs !== null && METRIC_TYPES.has(type)) throw aggErrors.cannotAcceptSubAggregations(name, type);
    specs.push({ ...body, meta, subAggregations: subs ?? [] } as unknown as AggregationSpec);
  }
  return specs;
}

/** Parses the value of a request's `aggs` (or `aggregations`) key. */
export function parseAggregations(json: unknown, options: ParseAggregationsOptions = {}): AggregationSpec[] {
  return parseLevel(json, options.parseQuery ?? ((query) => query));
}
