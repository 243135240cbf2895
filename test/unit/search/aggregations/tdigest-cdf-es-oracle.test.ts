/**
 * percentile_ranks against Elasticsearch 8.19: for every shape of tdigest-cases.ts, sizes below and above the
 * hybrid switch, 1/3/5 shards and compressions 100 and 20, the ranks of the single or reduced digest are the
 * very doubles ES's cdf code produced (tdigest-cdf-es-recorded.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TDigest, percentileRankOfState, type TDigestStateData } from '../../../../src/search/aggregations/metrics/tdigest.js';
import { SHAPES, SHARD_COUNTS, caseName, dealt, samples } from './tdigest-cases.js';
import { CDF_COMPRESSIONS, CDF_SIZES, cdfPoints } from './tdigest-cdf-points.js';
import { ES_PERCENTILE_RANKS_COMPRESSION_100, ES_PERCENTILE_RANKS_COMPRESSION_20 } from './tdigest-cdf-es-recorded.js';

function reduced(parts: readonly number[][], compression: number): TDigestStateData {
  const states = parts.map((part) => {
    const digest = new TDigest(compression);
    for (const x of part) digest.add(x);
    return digest.state();
  });
  if (states.length === 1) return states[0]!;
  const merged = new TDigest(compression);
  for (const state of states) merged.addState(state);
  return merged.state();
}

const RECORDED = { 100: ES_PERCENTILE_RANKS_COMPRESSION_100, 20: ES_PERCENTILE_RANKS_COMPRESSION_20 } as const;

for (const compression of CDF_COMPRESSIONS) {
  const recorded = RECORDED[compression as 100 | 20];
  for (const shape of SHAPES) {
    test(`t-digest cdf (compression ${compression}, ${shape}): percentile ranks bit-identical to ES 8.19, single and reduced`, () => {
      for (const n of CDF_SIZES) {
        const values = samples(shape, n);
        const points = cdfPoints(values);
        for (const shards of SHARD_COUNTS) {
          const name = caseName(shape, n, shards);
          const expected = recorded[name];
          assert.ok(expected !== undefined, name);
          const state = reduced(dealt(values, shards), compression);
          points.forEach((x, i) => {
            const actual = percentileRankOfState(state, x);
            assert.ok(Object.is(actual, expected[i]), `${name} x=${x}: ${actual} vs ES ${expected[i]}`);
          });
        }
      }
    });
  }
}

test('a live digest (terms ordered by a rank read it on the shard) answers the cdf of its shipped state while exact', () => {
  const digest = new TDigest(100);
  const values = samples('skewed', 10);
  for (const v of values) digest.add(v);
  for (const x of cdfPoints(values)) assert.ok(Object.is(digest.cdf(x) * 100, percentileRankOfState(digest.state(), x)), `x=${x}`);
  const large = new TDigest(100);
  for (const v of samples('skewed', 3000)) large.add(v);
  for (const x of cdfPoints(samples('skewed', 3000))) {
    const cdf = large.cdf(x);
    assert.ok(cdf >= 0 && cdf <= 1, `x=${x}: ${cdf}`);
  }
});
