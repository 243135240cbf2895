/**
 * What Gannet does not have answers honestly: every path of a missing API family, with any method, parameters or
 * body, is one ES-shaped 501 `unsupported_operation_exception` naming the feature (never `invalid_index_name_exception`
 * from `GET /{index}`, never a 405 that suggests the path exists). Driven with curl as an operator would.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { curl } from '../helpers/curl.js';
import { unsupportedFeaturePrefixes } from '../../src/actions/unsupported-features.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'unsupported-node' } });
  await node.request('PUT', '/logs', { body: { settings: { number_of_replicas: 0 } } });
});
after(async () => {
  await node.stop();
});

function assertMissingFeature(answer: { status: number; body: any; text: string }, feature: RegExp, where: string): void {
  assert.equal(answer.status, 501, `${where}: ${answer.text}`);
  assert.equal(answer.body?.status, 501, where);
  assert.equal(answer.body.error.type, 'unsupported_operation_exception', where);
  assert.match(answer.body.error.reason, feature, where);
  assert.match(answer.body.error.reason, /not available in Gannet/, where);
  assert.deepEqual(answer.body.error.root_cause, [{ type: 'unsupported_operation_exception', reason: answer.body.error.reason }], where);
}

test('the families the issue names, as operators and tools call them', async () => {
  const calls: Array<[string[], RegExp]> = [
    [['/_snapshot'], /^snapshot and restore: /],
    [['/_snapshot/_all?pretty'], /^snapshot and restore: /],
    [['/_snapshot/backups', '-X', 'PUT', '-H', 'Content-Type: application/json', '-d', '{"type":"fs","settings":{"location":"/mnt/b"}}'], /^snapshot and restore: /],
    [['/_snapshot/backups/snap-1/_restore', '-X', 'POST'], /^snapshot and restore: /],
    [['/_cat/snapshots/backups?v'], /^snapshot and restore: /],
    [['/_license'], /^licensing: /],
    [['/_license?accept_enterprise=true'], /^licensing: /],
    [['/_xpack'], /^x-pack: /],
    [['/_xpack/usage'], /^x-pack: /],
    [['/_data_stream'], /^data streams: /],
    [['/_data_stream/logs-app', '-X', 'PUT'], /^data streams: /],
    [['/_ingest/pipeline'], /^ingest pipelines: /],
    [['/_ingest/pipeline/strip', '-X', 'PUT', '-H', 'Content-Type: application/json', '-d', '{"processors":[]}'], /^ingest pipelines: /],
    [['/_sql?format=txt', '-X', 'POST', '-H', 'Content-Type: application/json', '-d', '{"query":"SELECT 1"}'], /^SQL, EQL and ES\|QL: /],
    [['/_security/_authenticate'], /^security: /],
    [['/_security/user/elastic/_password', '-X', 'POST'], /^security: /],
    [['/_ilm/policy'], /^index lifecycle management: /],
    [['/_all/_ilm/explain'], /^index lifecycle management: /],
    [['/logs/_ilm/explain'], /^index lifecycle management: /],
    [['/_slm/policy'], /^snapshot and restore: /],
    [['/_scripts/my-script'], /^stored scripts: /],
    [['/logs/_search/template', '-X', 'POST', '-H', 'Content-Type: application/json', '-d', '{"id":"t"}'], /^search templates: /],
    [['/_remote/info'], /^remote clusters: /],
    [['/_ml/anomaly_detectors'], /^machine learning: /],
    // Administration APIs ES has that operators call: not a "no handler found", a 405 or an index name error.
    [['/_shard_stores'], /^shard stores: /],
    [['/logs/_shard_stores?status=green'], /^shard stores: /],
    [['/_nodes/reload_secure_settings', '-X', 'POST'], /^secure settings: /],
    [['/logs/_disk_usage?run_expensive_tasks=true', '-X', 'POST'], /^disk usage analysis: /],
    [['/_resolve/cluster/logs*'], /^remote clusters: /],
  ];
  for (const [args, feature] of calls) assertMissingFeature(await curl(node.url, args), feature, args.join(' '));
});

test('every registered prefix, every method: never a routing error, never invalid_index_name_exception', async () => {
  for (const { prefix } of unsupportedFeaturePrefixes()) {
    const path = prefix.replace('{index}', 'logs');
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const answer = await node.request(method, `${path}/some/thing?unknown_param=1`, { body: { any: 'body' } });
      assertMissingFeature(answer, /: not available in Gannet; /, `${method} ${path}`);
    }
    const head = await node.request('HEAD', path);
    assert.equal(head.status, 501, `HEAD ${path}`);
  }
});

test('the features Gannet has still route as before', async () => {
  assert.equal((await curl(node.url, ['/logs'])).status, 200);
  assert.equal((await curl(node.url, ['/_search/scroll', '-X', 'DELETE', '-H', 'Content-Type: application/json', '-d', '{"scroll_id":"x"}'])).body.error?.type ?? 'ok', 'illegal_argument_exception');
  assert.equal((await curl(node.url, ['/logs/_search'])).status, 200);
  // An index named like a feature is refused as ES refuses it, because names may not start with '_'.
  assert.equal((await curl(node.url, ['/_snapshots'])).body.error.type, 'invalid_index_name_exception');
});
