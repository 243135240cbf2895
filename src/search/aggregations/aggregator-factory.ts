/**
 * Turns parsed specs into aggregators for one shard request (ES's AggregatorFactories): resolves each
 * values source against the mapping, creates sub-aggregators, and validates bucket orders that point at
 * sub-aggregations, failing the request before any document is collected.
 */
import { resolveSortValueGetter, type Aggregator, type AggregatorEnv } from './aggregator.js';
import { DateHistogramAggregator, HistogramAggregator } from './bucket/histogram-aggregator.js';
import { FilterAggregator, FiltersAggregator, MissingAggregator } from './bucket/filter-aggregators.js';
import { IpPrefixAggregator } from './bucket/ip-prefix-aggregator.js';
import { IpRangeAggregator } from './bucket/ip-range-aggregator.js';
import { RangeAggregator } from './bucket/range-aggregator.js';
import { TermsAggregator } from './bucket/terms-aggregator.js';
import { NumericMetricsAggregator } from './metrics/numeric-metrics.js';
import { CardinalityAggregator } from './metrics/sketch-metrics.js';
import { PercentileRanksAggregator, PercentilesAggregator } from './metrics/tdigest-aggregators.js';
import { TopHitsAggregator } from './metrics/top-hits-aggregator.js';
import { aggErrors } from './agg-errors.js';
import type { AggregationSpec } from './spec.js';
import { parseOrderPath } from './support/order-path.js';
import { ALL_KINDS, NUMERIC_KINDS, resolveValuesSource, type ValuesKind } from './support/values-source-config.js';

function createOne(spec: AggregationSpec, env: AggregatorEnv): Aggregator {
  const resolve = (allowed: readonly ValuesKind[], defaultKind: ValuesKind) =>
    'source' in spec ? resolveValuesSource(spec.source, env.ctx, { aggregation: spec.type, allowed, defaultKind }) : null!;
  switch (spec.type) {
    case 'terms':
      return new TermsAggregator(spec, env, resolve(ALL_KINDS, 'keyword'));
    case 'range':
      return new RangeAggregator(spec, env, resolve(NUMERIC_KINDS, 'double'));
    case 'date_range':
      return new RangeAggregator(spec, env, resolve(NUMERIC_KINDS, 'date'));
    case 'ip_range':
      return new IpRangeAggregator(spec, env, resolve(['bytes'], 'bytes'));
    case 'ip_prefix': {
      // Registered for the IP values source only: a binary field is refused as any other type.
      const config = resolve(['bytes'], 'bytes');
      const fieldType = spec.source.field === null ? undefined : env.ctx.fieldType(spec.source.field);
      if (fieldType !== undefined && config.format.kind !== 'ip') throw aggErrors.unsupportedFieldType(spec.source.field!, fieldType.typeName, 'ip_prefix');
      return new IpPrefixAggregator(spec, env, config);
    }
    case 'histogram':
      return new HistogramAggregator(spec, env, resolve(['long', 'double', 'boolean'], 'double'));
    case 'date_histogram':
      return new DateHistogramAggregator(spec, env, resolve(NUMERIC_KINDS, 'date'));
    case 'filter':
      return new FilterAggregator(spec, env);
    case 'filters':
      return new FiltersAggregator(spec, env);
    case 'missing':
      return new MissingAggregator(spec, env, resolve(ALL_KINDS, 'keyword'));
    case 'min':
    case 'max':
    case 'avg':
    case 'sum':
    case 'stats':
    case 'extended_stats':
      return new NumericMetricsAggregator(spec, env, resolve(NUMERIC_KINDS, 'double'));
    case 'value_count':
      return new NumericMetricsAggregator(spec, env, resolve(ALL_KINDS, 'keyword'));
    case 'cardinality':
      return new CardinalityAggregator(spec, env, resolve(ALL_KINDS, 'keyword'));
    case 'percentiles':
      return new PercentilesAggregator(spec, env, resolve(NUMERIC_KINDS, 'double'));
    case 'percentile_ranks':
      return new PercentileRanksAggregator(spec, env, resolve(NUMERIC_KINDS, 'double'));
    case 'top_hits':
      return new TopHitsAggregator(spec, env);
  }
}

export function createAggregators(specs: readonly AggregationSpec[], env: AggregatorEnv): Aggregator[] {
  return specs.map((spec) => {
    const aggregator = createOne(spec, env);
    aggregator.subAggregators = createAggregators(spec.subAggregations, env);
    if (aggregator instanceof TermsAggregator) aggregator.validateOrder();
    if (aggregator instanceof HistogramAggregator || aggregator instanceof DateHistogramAggregator) {
      // Histograms only sort at the final reduce, but ES rejects a bad order path up front all the same.
      for (const element of aggregator.spec.order.elements) {
        if (element.kind === 'path') resolveSortValueGetter(aggregator, parseOrderPath(element.path));
      }
    }
    return aggregator;
  });
}
