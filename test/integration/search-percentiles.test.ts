/**
 * `percentiles` and `percentile_ranks` through `_search` on a three-shard index, against Elasticsearch 8.19's values: the expected
 * numbers were recorded by running ES's t-digest classes (libs/tdigest, default HYBRID hint, compression 100)
 * on the same samples in the same shard split (ids routed by murmur3 as ES routes them; each shard's values
 * in indexing order), reduced as AbstractInternalTDigestPercentiles reduces them. Each shard holds about
 * 3,000 `sorted`/`skewed` values (above the 2,000-sample switch: merging digests) and about 500 `uniform`
 * ones (sorting digests, exact). Each value is ES's quantile(percent / 100), as InternalTDigestPercentiles asks
 * (99.9 / 100 is 0.9990000000000001, which moves the last bits). Samples: tdigest-cases.ts's samples(shape, n), value i on document `d${i}`.
 * The ranks were recorded the same way with ES 8.19's cdf code (MergingDigest.cdf, Dist.cdf) and
 * InternalTDigestPercentileRanks.percentileRank; the last value asked of each field is its sample 0, a value a
 * document holds.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { samples } from '../unit/search/aggregations/tdigest-cases.js';

let node: NodeProcess;

const PERCENTS = [0, 1, 25, 50, 75, 95, 99, 99.9, 100];
const KEYS = ['0.0', '1.0', '25.0', '50.0', '75.0', '95.0', '99.0', '99.9', '100.0'];

const ES_VALUES: Record<string, readonly number[]> = {
  sorted: [0.8673377186059952, 89.69549546400427, 2259.1874148035736, 4495.906269384354, 6755.09677587231, 8547.381804807264, 8911.228363895743, 8991.142324340066, 8999.275860080495],
  skewed: [4.091761213106724e-12, 0.017450743496031994, 4666.6260187868465, 66003.31570644617, 312650.5699179866, 810994.4551408985, 952630.673935815, 995932.981817411, 999164.6977887397],
  uniform: [0.6793939974159002, 9.803301359061152, 247.06178065389395, 522.195856901817, 773.0076342704706, 957.3348885634914, 994.2295433627442, 998.9935850903857, 999.8351384419948],
};

const RANK_VALUES: Record<string, readonly number[]> = {
  sorted: [0, 100, 4500, 8999.5, 10000, samples('sorted', 9000)[0]!],
  skewed: [1, 1000, 100000, 500000, samples('skewed', 9000)[0]!],
  uniform: [0.5, 250, 500, 999.9, samples('uniform', 1500)[0]!],
};

const ES_RANKS: Record<string, readonly number[]> = {
  sorted: [0.0, 1.086666820845551, 50.50699597065245, 100.0, 100.0, 0.005555555555555556],
  skewed: [2.8055711275793653, 16.27407721254176, 55.43337195544753, 84.89955285785055, 40.397781882147164],
  uniform: [0.0, 25.423817581049924, 47.78517282460475, 100.0, 76.26666666666667],
};

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'percentiles-node' } });
  const created = await node.request('PUT', '/pct', {
    body: {
      settings: { number_of_shards: 3, number_of_replicas: 0 },
      mappings: { properties: { sorted: { type: 'double' }, skewed: { type: 'double' }, uniform: { type: 'double' } } },
    },
  });
  assert.equal(created.status, 200, created.text);
  const sorted = samples('sorted', 9000);
  const skewed = samples('skewed', 9000);
  const uniform = samples('uniform', 1500);
  for (let start = 0; start < 9000; start += 3000) {
    const lines: string[] = [];
    for (let i = start; i < start + 3000; i++) {
      lines.push(JSON.stringify({ index: { _id: `d${i}` } }));
      lines.push(JSON.stringify({ sorted: sorted[i], skewed: skewed[i], ...(i < 1500 && { uniform: uniform[i] }) }));
    }
    const bulk = await node.request('POST', '/pct/_bulk', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.body.errors, false);
  }
  assert.equal((await node.request('POST', '/pct/_refresh')).status, 200);
});

after(async () => {
  await node?.stop();
});

test('percentiles over three shards equal ES 8.19 to the last bit (merging and sorting digests)', async () => {
  const aggs = Object.fromEntries(Object.keys(ES_VALUES).map((field) => [field, { percentiles: { field, percents: PERCENTS } }]));
  const res = await node.request('POST', '/pct/_search', { body: { size: 0, aggs } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body._shards.total, 3);
  for (const [field, expected] of Object.entries(ES_VALUES)) {
    const values = res.body.aggregations[field].values;
    assert.deepEqual(Object.keys(values), KEYS);
    KEYS.forEach((key, i) => assert.ok(Object.is(values[key], expected[i]), `${field} ${key}: ${values[key]} vs ES ${expected[i]}`));
  }
});

test('percentile_ranks over three shards equal ES 8.19 to the last bit; list form and a missing `values` over HTTP', async () => {
  const aggs = Object.fromEntries(Object.keys(ES_RANKS).map((field) => [field, { percentile_ranks: { field, values: RANK_VALUES[field] } }]));
  const res = await node.request('POST', '/pct/_search', { body: { size: 0, aggs } });
  assert.equal(res.status, 200, res.text);
  for (const [field, expected] of Object.entries(ES_RANKS)) {
    const values = res.body.aggregations[field].values;
    const asked = [...RANK_VALUES[field]!].sort((a, b) => a - b);
    const order = RANK_VALUES[field]!.map((v) => asked.indexOf(v));
    const keys = Object.keys(values);
    assert.equal(keys.length, asked.length);
    RANK_VALUES[field]!.forEach((_, i) => {
      const key = keys[order[i]!]!;
      assert.ok(Object.is(values[key], expected[i]), `${field} ${key}: ${values[key]} vs ES ${expected[i]}`);
    });
  }
  const list = await node.request('POST', '/pct/_search?typed_keys=true', { body: { size: 0, aggs: { r: { percentile_ranks: { field: 'uniform', values: [500, 250], keyed: false } } } } });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.body.aggregations['tdigest_percentile_ranks#r'], {
    values: [
      { key: 250.0, value: ES_RANKS['uniform']![1] },
      { key: 500.0, value: ES_RANKS['uniform']![2] },
    ],
  });
  assert.match(list.text, /"key":250\.0,/);
  const missing = await node.request('POST', '/pct/_search', { body: { size: 0, aggs: { r: { percentile_ranks: { field: 'uniform' } } } } });
  assert.equal(missing.status, 400, missing.text);
  // ConstructingObjectParser wraps what the builder throws.
  assert.equal(missing.body.error.type, 'x_content_parse_exception');
  assert.equal(missing.body.error.reason, 'Failed to build [percentile_ranks] after last required field arrived');
  assert.equal(missing.body.error.caused_by.type, 'illegal_argument_exception');
  assert.equal(missing.body.error.caused_by.reason, '[values] must not be null: [r]');
});
