/**
 * Reindex, update_by_query, delete_by_query, rethrottle and the task APIs through the official JavaScript clients,
 * unmodified (9.x, 8.x as `es8`, and OpenSearch's): a reindex waited on, one started with
 * `wait_for_completion=false` then followed with `tasks.get`, throttled and rethrottled, scripted updates by query,
 * deletes by query, and `_update` with a script. A failure is a Gannet compatibility bug.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';
import { NodeProcess } from '../helpers/node-process.js';

const DOCS = 300;

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'compat-reindex' } });
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    lines.push(JSON.stringify({ index: { _index: 'source', _id: String(i) } }), JSON.stringify({ n: i, kind: i % 3 === 0 ? 'fizz' : 'plain' }));
  }
  await node.request('PUT', '/source', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
  const bulk = await node.request('POST', '/_bulk?refresh=true', { raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.status, 200, bulk.text);
});
after(async () => {
  await node.stop();
});

const esClients: Array<[string, () => Client9]> = [
  ['@elastic/elasticsearch 9.x', () => new Client9({ node: node.url })],
  ['@elastic/elasticsearch 8.x', () => new Client8({ node: node.url }) as unknown as Client9],
];

for (const [name, make] of esClients) {
  describe(name, () => {
    const suffix = name.includes('9.x') ? '9' : '8';

    test('reindex waited on, and one followed as a task with a rethrottle', async () => {
      const client = make();
      try {
        const copied = await client.reindex({ source: { index: 'source' }, dest: { index: `copy${suffix}` }, refresh: true });
        assert.equal(copied.created, DOCS);
        assert.equal(copied.total, DOCS);
        assert.deepEqual(copied.failures, []);
        assert.equal((await client.count({ index: `copy${suffix}` })).count, DOCS);

        // Slow enough to be seen running: 10 docs per batch at 20 docs per second.
        const started = await client.reindex({
          source: { index: 'source', size: 10 },
          dest: { index: `slow${suffix}` },
          wait_for_completion: false,
          requests_per_second: 20,
        });
        const taskId = String(started.task);
        assert.match(taskId, /^[^:]+:\d+$/);
        const running = await client.tasks.get({ task_id: taskId });
        assert.equal(running.completed, false);
        assert.equal(running.task.action, 'indices:data/write/reindex');
        assert.equal(running.task.description, `reindex from [source] to [slow${suffix}]`);
        const listed = await client.tasks.list({ actions: '*reindex', detailed: true });
        assert.ok(Object.values(listed.nodes ?? {}).some((n) => Object.keys(n.tasks).includes(taskId)));

        const rethrottled = await client.reindexRethrottle({ task_id: taskId, requests_per_second: -1 });
        assert.ok(Object.values(rethrottled.nodes ?? {}).some((n) => Object.keys(n.tasks).includes(taskId)), JSON.stringify(rethrottled));
        const done = await client.tasks.get({ task_id: taskId, wait_for_completion: true, timeout: '60s' });
        assert.equal(done.completed, true);
        const response = done.response as { created: number; requests_per_second: number };
        assert.equal(response.created, DOCS);
        assert.equal(response.requests_per_second, -1);
      } finally {
        await client.close();
      }
    });

    test('update_by_query with a script, delete_by_query, _update with a script, cancel by action', async () => {
      const client = make();
      const index = `edit${suffix}`;
      try {
        await client.reindex({ source: { index: 'source' }, dest: { index }, refresh: true });
        const updated = await client.updateByQuery({
          index,
          query: { term: { kind: 'fizz' } },
          script: { source: 'ctx._source.n += params.step; ctx._source.touched = true', params: { step: 1000 } },
          refresh: true,
        });
        assert.equal(updated.updated, 100);
        assert.equal((await client.count({ index, query: { range: { n: { gte: 1000 } } } })).count, 100);

        const deleted = await client.deleteByQuery({ index, query: { term: { touched: true } }, refresh: true });
        assert.equal(deleted.deleted, 100);
        assert.equal((await client.count({ index })).count, DOCS - 100);

        const counter = await client.update({ index, id: '1', script: { source: 'ctx._source.n++' } });
        assert.equal(counter.result, 'updated');
        assert.equal((await client.get<{ n: number }>({ index, id: '1' }))._source?.n, 2);

        await assert.rejects(
          client.updateByQuery({ index, script: { source: 'new HashMap()' } }),
          (err: { meta?: { statusCode?: number; body?: { error?: { type?: string } } } }) =>
            err.meta?.statusCode === 400 && err.meta.body?.error?.type === 'script_exception',
        );

        const slow = await client.updateByQuery({ index, wait_for_completion: false, requests_per_second: 5, scroll_size: 5, conflicts: 'proceed' });
        const cancelled = await client.tasks.cancel({ actions: '*byquery', wait_for_completion: true });
        assert.ok(Object.values(cancelled.nodes ?? {}).some((n) => Object.keys(n.tasks).includes(String(slow.task))), JSON.stringify(cancelled));
        const result = await client.tasks.get({ task_id: String(slow.task) });
        assert.equal(result.completed, true);
        assert.equal((result.response as { canceled?: string }).canceled, 'by user request');
      } finally {
        await client.close();
      }
    });
  });
}

test('@opensearch-project/opensearch: reindex as a task, tasks.get, delete_by_query', async () => {
  const client = new OpenSearchClient({ node: node.url });
  try {
    const started = await client.reindex({ body: { source: { index: 'source' }, dest: { index: 'copy-os' } }, wait_for_completion: false, refresh: true });
    const taskId = String((started.body as unknown as { task: string }).task);
    const done = await client.tasks.get({ task_id: taskId, wait_for_completion: true, timeout: '60s' });
    assert.equal(done.body.completed, true);
    assert.equal((done.body.response as { created: number }).created, DOCS);
    const deleted = await client.deleteByQuery({ index: 'copy-os', body: { query: { range: { n: { lt: 50 } } } }, refresh: true });
    assert.equal((deleted.body as { deleted?: number }).deleted, 50);
  } finally {
    await client.close();
  }
});
