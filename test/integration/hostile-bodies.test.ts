/**
 * Six concurrent 95 KB gzip bodies, each inflating to a 95 MB document (issue 18), against a node whose heap is
 * small enough that ES would refuse most of them: the in-flight requests breaker counts each body as it is
 * inflated, so what does not fit is refused with ES's 429 circuit_breaking_exception before it is parsed, the
 * operator's commands keep answering, and the node survives to serve the next request. `_nodes/stats/breaker`
 * shows the trips in ES's shape.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { OpsProbe, formatProbe, hostLoad, probeBoundMillis } from '../helpers/ops-probe.js';
import { HOSTILE_CASES } from '../helpers/hostile-requests.js';

let node: NodeProcess;

before(async () => {
  // A 512 MB heap whose in-flight requests breaker holds one such body at a time (ES would hold one or two).
  node = await NodeProcess.start({ settings: { 'node.name': 'bodies-node', 'network.breaker.inflight_requests.limit': '50%' }, runtimeOptions: ['--max-old-space-size=512'] });
});

after(async () => {
  await node.stop();
});

test('a document parsed in a worker keeps a text value of over a million characters searchable (it was indexed as "")', { timeout: 120_000 }, async () => {
  // Over LARGE_DOCUMENT_BYTES (parsed in a worker) with one value over LONG_STRING_CHARS (moved as UTF-8 bytes).
  const value = `${'alpha beta gamma '.repeat(70_000)}zebraword`;
  const put = await node.request('PUT', '/long-values/_doc/1?refresh=true', { body: { message: value } });
  assert.equal(put.status, 201, put.text.slice(0, 300));
  const found = await node.request('POST', '/long-values/_search', { body: { query: { match: { message: 'zebraword' } }, _source: false } });
  assert.equal(found.status, 200, found.text.slice(0, 300));
  assert.equal(found.body.hits.total.value, 1);
  const got = await node.request('GET', '/long-values/_doc/1');
  assert.equal(got.body._source.message, value);
});

test('six concurrent 95 MB gzip bodies: those that do not fit are refused with 429, the node keeps answering', { timeout: 600_000 }, async () => {
  const bombs = HOSTILE_CASES.find((candidate) => candidate.name.startsWith('six'))!;
  const probe = OpsProbe.start({ port: node.port, intervalMillis: 50 });
  const answers = await bombs.send(node.port, 'bombs');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const probes = probe.stop();
  const statuses = answers.map((answer) => answer.status);
  assert.ok(statuses.every((status) => status === 201 || status === 429 || status === 0), `statuses ${statuses.join(', ')}: ${answers.map((a) => a.text.slice(0, 200)).join(' | ')}`);
  const refused = answers.filter((answer) => answer.status === 429);
  assert.ok(refused.length >= 3, `at least half refused: ${statuses.join(', ')}`);
  for (const answer of refused) {
    assert.equal(answer.body.error.type, 'circuit_breaking_exception');
    assert.match(answer.body.error.reason, /^\[(inflight_requests|parent)\] Data too large, data for \[<http_request>\] would be \[\d+\/[\d.]+[kmg]?b\], which is larger than the limit of \[\d+\/[\d.]+[kmg]?b\]/);
    assert.equal(typeof answer.body.error.bytes_wanted, 'number');
    assert.equal(typeof answer.body.error.bytes_limit, 'number');
    assert.equal(answer.body.error.durability, 'TRANSIENT');
    assert.equal(answer.body.status, 429);
  }
  // The accepted body's copies and checksum no longer run on the event loop in one piece (decision 0019).
  const bound = probeBoundMillis();
  assert.ok(probes.p99Millis < bound, `operator commands (bound ${bound} ms, ${hostLoad()}): ${formatProbe(probes)}`);
  assert.equal(probes.failed, 0, formatProbe(probes));
  // The node is alive and its breakers say what happened.
  const health = await node.request('GET', '/_cluster/health');
  assert.equal(health.status, 200);
  const stats = await node.request('GET', '/_nodes/stats/breaker');
  const breakers = (Object.values(stats.body.nodes)[0] as any).breakers;
  assert.deepEqual(Object.keys(breakers), ['fielddata', 'inflight_requests', 'request', 'parent']);
  for (const breaker of Object.values<any>(breakers)) {
    assert.deepEqual(Object.keys(breaker), ['limit_size_in_bytes', 'limit_size', 'estimated_size_in_bytes', 'estimated_size', 'overhead', 'tripped']);
  }
  assert.ok(breakers.inflight_requests.tripped + breakers.parent.tripped >= refused.length);
  assert.equal(breakers.inflight_requests.estimated_size_in_bytes, 0, 'every body was released');
});
