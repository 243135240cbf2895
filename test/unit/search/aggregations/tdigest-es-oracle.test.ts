/**
 * Gannet's percentiles digest against Elasticsearch 8.19's: for every shape, size (below and above the
 * hybrid switch at 20 * compression samples) and shard split of tdigest-cases.ts, the quantiles of the
 * single or reduced digest are the very doubles ES's classes produced (tdigest-es-recorded.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TDigest, quantileOfState, type TDigestStateData } from '../../../../src/search/aggregations/metrics/tdigest.js';
import { QUANTILES, SHAPES, SHARD_COUNTS, SIZES, caseName, dealt, samples } from './tdigest-cases.js';
import { ES_QUANTILES_COMPRESSION_100, ES_QUANTILES_COMPRESSION_20 } from './tdigest-es-recorded.js';

/** Shard digests built and shipped, then reduced as ES reduces them (fresh digest, add each in shard order). */
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

for (const [compression, recorded] of [[100, ES_QUANTILES_COMPRESSION_100], [20, ES_QUANTILES_COMPRESSION_20]] as const) {
  for (const shape of SHAPES) {
    test(`t-digest (compression ${compression}, ${shape}): quantiles bit-identical to ES 8.19, single and reduced from 3 and 5 shards`, () => {
      for (const n of SIZES) {
        const values = samples(shape, n);
        for (const shards of SHARD_COUNTS) {
          const name = caseName(shape, n, shards);
          const expected = recorded[name];
          assert.ok(expected !== undefined, name);
          const state = reduced(dealt(values, shards), compression);
          const actual = QUANTILES.map((q) => quantileOfState(state, q));
          for (let i = 0; i < QUANTILES.length; i++) {
            assert.ok(Object.is(actual[i], expected[i]), `${name} q=${QUANTILES[i]}: ${actual[i]} vs ES ${expected[i]}`);
          }
        }
      }
    });
  }
}

test('the switch to the merging digest happens where ES switches (20 * round(compression) samples)', () => {
  const below = new TDigest(100);
  for (let i = 0; i < 1999; i++) below.add(i);
  assert.equal(below.state().kind, 'sorting');
  below.add(1999);
  assert.equal(below.state().kind, 'merging');
  // The merged digest switches when the sorted samples plus the incoming digest's size reach the limit.
  const merged = new TDigest(100);
  const a = new TDigest(100);
  for (let i = 0; i < 1000; i++) a.add(i);
  merged.addState(a.state());
  assert.equal(merged.state().kind, 'sorting');
  const b = new TDigest(100);
  for (let i = 0; i < 1000; i++) b.add(i);
  merged.addState(b.state());
  assert.equal(merged.state().kind, 'merging');
});
