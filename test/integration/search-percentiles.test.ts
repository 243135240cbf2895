/**
 * `percentiles` through `_search` on a three-shard index, against Elasticsearch 8.19's values: the expected
 * numbers were recorded by running ES's t-digest classes (libs/tdigest, default HYBRID hint, compression 100)
 * on the same samples in the same shard split (ids routed by murmur3 as ES routes them; each shard's values
 * in indexing order), reduced as AbstractInternalTDigestPercentiles reduces them. Each shard holds about
 * 3,000 `sorted`/`skewed` values (above the 2,000-sample switch: merging digests) and about 500 `uniform`
 * ones (sorting digests, exact). Each value is ES's quantile(percent / 100), as InternalTDigestPercentiles asks
 * (99.9 / 100 is 0.9990000000000001, which moves the last bits). Samples: tdigest-cases.ts's samples(shape, n), value i on document `d${i}`.
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
