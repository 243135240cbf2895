/**
 * Final aggregation results to the JSON ES returns (each InternalAggregation's toXContent): field order,
 * `meta` first, `*_as_string` only for non-raw formats, null for empty min/max/avg, keyed variants, and
 * `typed_keys` prefixes. Values ES serialises as doubles are JsonFloat so they print as "10.0"; NaN and
 * infinities print as strings, as Jackson writes them.
 */
import { setOwnValue } from '../../common/own-keys.js';
import { JsonFloat, javaDoubleString } from '../../common/json-float.js';
import type { InternalAggregation, InternalTerms } from './internal.js';
import { extendedStatsValue } from './metrics/stats-values.js';
import { HyperLogLogPlusPlus } from './metrics/hyperloglog.js';
import { percentileRankOfState, quantileOfState, stateSize, type TDigestStateData } from './metrics/tdigest.js';
import { formatBytesKey, formatDouble, formatLong, isRaw, type FormatSpec } from './support/doc-value-format.js';
import { formatIp, hexToIp } from '../../mapping/ip-address.js';
import { ipNetmask } from './bucket/ip-prefix-aggregator.js';

export interface RenderOptions {
  /** `typed_keys`: prefix each name with its type (`sterms#tags`). */
  readonly typedKeys?: boolean;
}

type Json = Record<string, unknown>;

/** A Java double on the wire. */
function double(value: number): JsonFloat | string {
  return Number.isFinite(value) ? new JsonFloat(value) : javaDoubleString(value);
}

function typeName(agg: InternalAggregation): string {
  switch (agg.type) {
    case 'terms':
      return agg.valueType === 'long' ? 'lterms' : agg.valueType === 'double' ? 'dterms' : 'sterms';
    case 'percentiles':
      return 'tdigest_percentiles';
    case 'percentile_ranks':
      return 'tdigest_percentile_ranks';
    default:
      return agg.type;
  }
}

export function renderAggregations(aggs: readonly InternalAggregation[], options: RenderOptions = {}): Json {
  const out: Json = {};
  for (const agg of aggs) setOwnValue(out, options.typedKeys ? `${typeName(agg)}#${agg.name}` : agg.name, renderOne(agg, options));
  return out;
}

function withSubs(body: Json, aggs: readonly InternalAggregation[], options: RenderOptions): Json {
  // Not Object.assign: it sets through `__proto__`, and an aggregation may be named so.
  for (const [name, rendered] of Object.entries(renderAggregations(aggs, options))) setOwnValue(body, name, rendered);
  return body;
}

/** DocValueFormat.IP of a network's bytes: 4 bytes print as IPv4, 16 as InetAddress prints them. */
function formatNetwork(hex: string): string {
  return formatIp(hexToIp(hex.length === 8 ? `00000000000000000000ffff${hex}` : hex));
}

function termsKey(agg: InternalTerms, key: string | number): Json {
  // StringTerms print DocValueFormat.format(termBytes): an ip or binary key is its address or base64.
  if (agg.valueType === 'string' && (agg.format.kind === 'ip' || agg.format.kind === 'binary')) return { key: formatBytesKey(agg.format, key as string) };
  if (agg.valueType === 'string' || agg.valueType === 'unmapped') return { key };
  const out: Json = { key: agg.valueType === 'double' ? double(key as number) : key };
  if (!isRaw(agg.format)) out['key_as_string'] = agg.valueType === 'double' ? formatDouble(agg.format, key as number) : formatLong(agg.format, key as number);
  return out;
}

function renderOne(agg: InternalAggregation, options: RenderOptions): Json {
  const out: Json = {};
  if (agg.meta !== null) out['meta'] = agg.meta;
  switch (agg.type) {
    case 'terms': {
      out['doc_count_error_upper_bound'] = agg.valueType === 'unmapped' ? 0 : (agg.docCountError ?? 0);
      out['sum_other_doc_count'] = agg.valueType === 'unmapped' ? 0 : agg.otherDocCount;
      out['buckets'] = agg.buckets.map((bucket) => {
        const body = termsKey(agg, bucket.key);
        body['doc_count'] = bucket.docCount;
        if (agg.showTermDocCountError) body['doc_count_error_upper_bound'] = bucket.docCountError;
        return withSubs(body, bucket.aggs, options);
      });
      return out;
    }
    case 'ip_range': {
      // InternalBinaryRange.Bucket.toXContent: the key, then from/to as addresses when bounded.
      const buckets = agg.buckets.map((bucket) => {
        const from = bucket.from === null ? null : formatIp(hexToIp(bucket.from));
        const to = bucket.to === null ? null : formatIp(hexToIp(bucket.to));
        const key = bucket.key ?? `${from ?? '*'}-${to ?? '*'}`;
        const body: Json = agg.keyed ? {} : { key };
        if (from !== null) body['from'] = from;
        if (to !== null) body['to'] = to;
        body['doc_count'] = bucket.docCount;
        return [key, withSubs(body, bucket.aggs, options)] as const;
      });
      out['buckets'] = agg.keyed ? Object.fromEntries(buckets) : buckets.map(([, body]) => body);
      return out;
    }
    case 'ip_prefix': {
      // InternalIpPrefix.Bucket.toXContent: key (with /length when asked), netmask for IPv4, then the counts.
      const buckets = agg.buckets.map((bucket) => {
        let key = formatNetwork(bucket.key);
        if (agg.appendPrefixLength) key = `${key}/${agg.prefixLength}`;
        const body: Json = agg.keyed ? {} : { key };
        if (!agg.isIpv6) body['netmask'] = formatNetwork(Buffer.from(ipNetmask(agg.prefixLength, false)).toString('hex'));
        body['doc_count'] = bucket.docCount;
        body['is_ipv6'] = agg.isIpv6;
        body['prefix_length'] = agg.prefixLength;
        return [key, withSubs(body, bucket.aggs, options)] as const;
      });
      out['buckets'] = agg.keyed ? Object.fromEntries(buckets) : buckets.map(([, body]) => body);
      return out;
    }
    case 'range':
    case 'date_range': {
      const buckets = agg.buckets.map((bucket) => {
        const body: Json = agg.keyed ? {} : { key: bucket.key };
        if (Number.isFinite(bucket.from)) {
          body['from'] = double(bucket.from);
          if (!isRaw(agg.format)) body['from_as_string'] = formatDouble(agg.format, bucket.from);
        }
        if (Number.isFinite(bucket.to)) {
          body['to'] = double(bucket.to);
          if (!isRaw(agg.format)) body['to_as_string'] = formatDouble(agg.format, bucket.to);
        }
        body['doc_count'] = bucket.docCount;
        return [bucket.key, withSubs(body, bucket.aggs, options)] as const;
      });
      out['buckets'] = agg.keyed ? Object.fromEntries(buckets) : buckets.map(([, body]) => body);
      return out;
    }
    case 'histogram':
    case 'date_histogram': {
      const isDate = agg.type === 'date_histogram';
      const buckets = agg.buckets.map((bucket) => {
        const keyAsString = isDate ? formatLong(agg.format, bucket.key) : formatDouble(agg.format, bucket.key);
        const body: Json = {};
        if (!isRaw(agg.format)) body['key_as_string'] = keyAsString;
        body['key'] = isDate ? bucket.key : double(bucket.key);
        body['doc_count'] = bucket.docCount;
        return [keyAsString, withSubs(body, bucket.aggs, options)] as const;
      });
      out['buckets'] = agg.keyed ? Object.fromEntries(buckets) : buckets.map(([, body]) => body);
      return out;
    }
    case 'filter':
    case 'missing':
      out['doc_count'] = agg.docCount;
      return withSubs(out, agg.aggs, options);
    case 'filters': {
      const buckets = agg.buckets.map((bucket) => [bucket.key, withSubs({ doc_count: bucket.docCount }, bucket.aggs, options)] as const);
      out['buckets'] = agg.keyed ? Object.fromEntries(buckets) : buckets.map(([, body]) => body);
      return out;
    }
    case 'min':
    case 'max': {
      const hasValue = Number.isFinite(agg.value) || Number.isNaN(agg.value);
      out['value'] = hasValue ? double(agg.value) : null;
      if (hasValue && !isRaw(agg.format)) out['value_as_string'] = formatDouble(agg.format, agg.value);
      return out;
    }
    case 'sum':
      out['value'] = double(agg.sum);
      if (!isRaw(agg.format)) out['value_as_string'] = formatDouble(agg.format, agg.sum);
      return out;
    case 'avg': {
      const value = agg.sum / agg.count;
      out['value'] = agg.count !== 0 ? double(value) : null;
      if (agg.count !== 0 && !isRaw(agg.format)) out['value_as_string'] = formatDouble(agg.format, value);
      return out;
    }
    case 'value_count':
      out['value'] = agg.value;
      return out;
    case 'stats':
    case 'extended_stats': {
      out['count'] = agg.count;
      if (agg.count !== 0) {
        const avg = agg.sum / agg.count;
        out['min'] = double(agg.min);
        out['max'] = double(agg.max);
        out['avg'] = double(avg);
        out['sum'] = double(agg.sum);
        if (!isRaw(agg.format)) {
          out['min_as_string'] = formatDouble(agg.format, agg.min);
          out['max_as_string'] = formatDouble(agg.format, agg.max);
          out['avg_as_string'] = formatDouble(agg.format, avg);
          out['sum_as_string'] = formatDouble(agg.format, agg.sum);
        }
      } else {
        out['min'] = null;
        out['max'] = null;
        out['avg'] = null;
        out['sum'] = new JsonFloat(0);
      }
      if (agg.type === 'extended_stats') renderExtendedStats(agg, out);
      return out;
    }
    case 'cardinality':
      out['value'] = agg.sketch === null ? 0 : HyperLogLogPlusPlus.fromState(agg.sketch).cardinality();
      return out;
    case 'percentiles': {
      const state = agg.state;
      out['values'] = renderDigestValues(agg.percents, agg.keyed, agg.format, state, (percent) => (state === null ? NaN : quantileOfState(state, percent / 100)));
      return out;
    }
    case 'percentile_ranks': {
      const state = agg.state;
      out['values'] = renderDigestValues(agg.values, agg.keyed, agg.format, state, (value) => (state === null ? NaN : percentileRankOfState(state, value)));
      return out;
    }
    case 'top_hits':
      out['hits'] = {
        total: { value: agg.totalHits, relation: 'eq' },
        max_score: Number.isNaN(agg.maxScore) ? null : double(agg.maxScore),
        hits: agg.hits.map((hit) => hit.rendered),
      };
      return out;
  }
}

/**
 * AbstractInternalTDigestPercentiles.doXContentBody: per key (a percent, or a value whose rank is asked) its
 * value, null for an empty digest; keyed by String.valueOf(key) or a list of {key, value}.
 */
function renderDigestValues(keys: readonly number[], keyed: boolean, format: FormatSpec, state: TDigestStateData | null, valueOf: (key: number) => number): Json | Json[] {
  const empty = state === null || stateSize(state) === 0;
  if (keyed) {
    const values: Json = {};
    for (const key of keys) {
      const name = javaDoubleString(key);
      const value = valueOf(key);
      values[name] = empty ? null : double(value);
      if (!isRaw(format) && !empty) values[`${name}_as_string`] = formatDouble(format, value);
    }
    return values;
  }
  return keys.map((key) => {
    const value = valueOf(key);
    const entry: Json = { key: double(key), value: empty ? null : double(value) };
    if (!isRaw(format) && !empty) entry['value_as_string'] = formatDouble(format, value);
    return entry;
  });
}

function renderExtendedStats(agg: Extract<InternalAggregation, { type: 'extended_stats' }>, out: Json): void {
  const names = ['std_upper', 'std_lower', 'std_upper_population', 'std_lower_population', 'std_upper_sampling', 'std_lower_sampling'];
  const boundKeys = ['upper', 'lower', 'upper_population', 'lower_population', 'upper_sampling', 'lower_sampling'];
  const plain = ['sum_of_squares', 'variance', 'variance_population', 'variance_sampling', 'std_deviation', 'std_deviation_population', 'std_deviation_sampling'];
  if (agg.count === 0) {
    for (const name of plain) out[name] = null;
    out['std_deviation_bounds'] = Object.fromEntries(boundKeys.map((k) => [k, null]));
    return;
  }
  for (const name of plain) out[name] = double(extendedStatsValue(name, agg));
  out['std_deviation_bounds'] = Object.fromEntries(boundKeys.map((k, i) => [k, double(extendedStatsValue(names[i]!, agg))]));
  if (!isRaw(agg.format)) {
    for (const name of plain) out[`${name}_as_string`] = formatDouble(agg.format, extendedStatsValue(name, agg));
    out['std_deviation_bounds_as_string'] = Object.fromEntries(boundKeys.map((k, i) => [k, formatDouble(agg.format, extendedStatsValue(names[i]!, agg))]));
  }
}
