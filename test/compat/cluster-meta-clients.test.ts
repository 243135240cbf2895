/**
 * The official JavaScript clients (9.x and the 8.x alias `es8`), unmodified, on `cluster.getSettings`,
 * `cluster.putSettings`, `cluster.state` and `fieldCaps`.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'cluster.name': 'compat-meta' } });
  await node.request('PUT', '/meta-idx', { body: { settings: { number_of_replicas: 0 }, mappings: { properties: { title: { type: 'text' }, n: { type: 'long' } } } } });
});
after(async () => {
  await node.stop();
});

interface MetaClient {
  cluster: {
    getSettings(params?: Record<string, unknown>): Promise<Record<string, any>>;
    putSettings(params?: Record<string, unknown>): Promise<Record<string, any>>;
    state(params?: Record<string, unknown>): Promise<Record<string, any>>;
  };
  fieldCaps(params?: Record<string, unknown>): Promise<Record<string, any>>;
  close(): Promise<void>;
}

const makers: Array<[string, () => MetaClient]> = [
  ['@elastic/elasticsearch 9.x', () => new Client9({ node: node.url }) as unknown as MetaClient],
  ['@elastic/elasticsearch 8.x', () => new Client8({ node: node.url }) as unknown as MetaClient],
];

for (const [label, make] of makers) {
  describe(label, () => {
    test('putSettings, getSettings, state and fieldCaps', async () => {
      const client = make();
      try {
        const put = await client.cluster.putSettings({ persistent: { 'search.max_buckets': 5000 }, flat_settings: true });
        assert.deepEqual(put, { acknowledged: true, persistent: { 'search.max_buckets': '5000' }, transient: {} });
        const got = await client.cluster.getSettings({ flat_settings: true });
        assert.deepEqual(got.persistent, { 'search.max_buckets': '5000' });
        await client.cluster.putSettings({ persistent: { 'search.max_buckets': null } });
        const state = await client.cluster.state({ metric: ['metadata', 'routing_table'], index: 'meta-idx' });
        assert.equal(state.cluster_name, 'compat-meta');
        assert.deepEqual(Object.keys(state.metadata.indices), ['meta-idx']);
        assert.equal(state.routing_table.indices['meta-idx'].shards['0'][0].state, 'STARTED');
        const caps = await client.fieldCaps({ index: 'meta-idx', fields: ['title', 'n'] });
        assert.deepEqual(caps.indices, ['meta-idx']);
        assert.equal(caps.fields.n.long.aggregatable, true);
        assert.equal(caps.fields.title.text.searchable, true);
      } finally {
        await client.close();
      }
    });
  });
}
