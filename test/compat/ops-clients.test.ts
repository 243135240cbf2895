/**
 * The official JavaScript clients (9.x and the 8.x alias `es8`), unmodified, on the endpoints ops tools call on a
 * routine day (segments, mappings of `_all`, resolve index, synced flush, blocks, hot threads, thread pools, rollover,
 * shrink/split/clone) and on a feature Gannet does not have: the client parses the 501 into its ordinary error.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9, errors as errors9 } from '@elastic/elasticsearch';
import { Client as Client8, errors as errors8 } from 'es8';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'cluster.name': 'compat-ops', 'node.name': 'ops-client-node', 'node.attr.zone': 'z1' } });
});
after(async () => {
  await node.stop();
});

type Api = (params?: Record<string, unknown>) => Promise<any>;

interface OpsClient {
  indices: Record<'create' | 'segments' | 'getMapping' | 'resolveIndex' | 'addBlock' | 'rollover' | 'shrink' | 'split' | 'clone' | 'refresh' | 'getAlias', Api>;
  nodes: { hotThreads: Api };
  cat: { threadPool: Api; nodeattrs: Api; componentTemplates: Api };
  cluster: { putComponentTemplate: Api };
  snapshot: { getRepository: Api };
  license: { get: Api };
  bulk: Api;
  count: Api;
  get: Api;
  transport: { request(params: Record<string, unknown>, options?: Record<string, unknown>): Promise<any> };
  close(): Promise<void>;
}

const makers: Array<[string, string, () => OpsClient, new (...args: any[]) => Error]> = [
  ['@elastic/elasticsearch 9.x', 'c9', () => new Client9({ node: node.url }) as unknown as OpsClient, errors9.ResponseError],
  ['@elastic/elasticsearch 8.x', 'c8', () => new Client8({ node: node.url }) as unknown as OpsClient, errors8.ResponseError],
];

for (const [label, prefix, make, ResponseError] of makers) {
  describe(label, () => {
    test('segments, _all mappings, resolve index, synced flush, blocks, hot threads, thread pools, node attributes, component templates', async () => {
      const client = make();
      try {
        const index = `${prefix}-ops`;
        await client.indices.create({ index, settings: { number_of_shards: 2, number_of_replicas: 0 }, aliases: { [`${prefix}-alias`]: {} } });
        await client.bulk({ refresh: true, operations: [{ index: { _index: index, _id: '1' } }, { n: 1 }, { index: { _index: index, _id: '2' } }, { n: 2 }] });
        const segments = await client.indices.segments({ index });
        assert.equal(segments._shards.successful, 2);
        const docs = Object.values(segments.indices[index].shards as Record<string, any[]>)
          .flatMap((copies) => copies.flatMap((copy) => Object.values(copy.segments as Record<string, { num_docs: number }>)))
          .reduce((sum, segment) => sum + segment.num_docs, 0);
        assert.equal(docs, 2);
        const mappings = await client.indices.getMapping({ index: '_all' });
        assert.deepEqual(mappings[index].mappings.properties.n, { type: 'long' });
        const resolved = await client.indices.resolveIndex({ name: `${prefix}-*` });
        assert.deepEqual(resolved, {
          indices: [{ name: index, aliases: [`${prefix}-alias`], attributes: ['open'] }],
          aliases: [{ name: `${prefix}-alias`, indices: [index] }],
          data_streams: [],
        });
        const synced = await client.transport.request({ method: 'POST', path: `/${index}/_flush/synced` }, { meta: true });
        assert.equal(synced.statusCode, 200);
        assert.deepEqual(synced.body[index], { total: 2, successful: 2, failed: 0 });
        assert.match(String(synced.warnings?.[0] ?? ''), /Synced flush is deprecated/);
        const blocked = await client.indices.addBlock({ index, block: 'write' });
        assert.deepEqual(blocked, { acknowledged: true, shards_acknowledged: true, indices: [{ name: index, blocked: true }] });
        const hot = await client.nodes.hotThreads({ interval: '100ms' });
        assert.equal(typeof hot, 'string');
        // A section per node, this one's among them (the only one when it is alone).
        assert.match(hot, /^::: \{ops-client-node\}/m);
        assert.equal(hot.match(/^::: \{/gm)?.length, 1 + node.peers.length);
        assert.match(hot, /Hot threads at .*, interval=100ms, busiestThreads=3, ignoreIdleThreads=true:/);
        const pools = await client.cat.threadPool({ format: 'json', h: 'node_name,name,active,queue,rejected' });
        assert.ok(Array.isArray(pools) && pools.length > 0);
        assert.deepEqual(Object.keys(pools[0]), ['node_name', 'name', 'active', 'queue', 'rejected']);
        assert.ok(pools.some((row: { name: string }) => row.name === 'write'));
        const attrs = await client.cat.nodeattrs({ format: 'json' });
        const own = attrs.filter((row: { node: string }) => row.node === 'ops-client-node');
        assert.deepEqual(own, [{ node: 'ops-client-node', host: own[0]?.host, ip: own[0]?.ip, attr: 'zone', value: 'z1' }]);
        assert.equal(attrs.length, 1 + node.peers.length, 'every node was started with zone=z1');
        await client.cluster.putComponentTemplate({ name: `${prefix}-ct`, template: { settings: { number_of_shards: 1 } } });
        const components = await client.cat.componentTemplates({ name: `${prefix}-ct`, format: 'json' });
        assert.deepEqual(components, [{ name: `${prefix}-ct`, version: null, alias_count: '0', mapping_count: '0', settings_count: '1', metadata_count: '0', included_in: '[]' }]);
      } finally {
        await client.close();
      }
    });

    test('rollover, shrink, split and clone', async () => {
      const client = make();
      try {
        const first = `${prefix}-roll-000001`;
        await client.indices.create({ index: first, settings: { number_of_replicas: 0 }, aliases: { [`${prefix}-roll`]: { is_write_index: true } } });
        await client.bulk({ refresh: true, operations: [{ index: { _index: `${prefix}-roll`, _id: 'a' } }, { n: 1 }, { index: { _index: `${prefix}-roll`, _id: 'b' } }, { n: 2 }] });
        const rolled = await client.indices.rollover({ alias: `${prefix}-roll`, conditions: { max_docs: 2 } });
        assert.equal(rolled.rolled_over, true);
        assert.equal(rolled.old_index, first);
        assert.equal(rolled.new_index, `${prefix}-roll-000002`);
        assert.deepEqual(rolled.conditions, { '[max_docs: 2]': true });
        const aliases = await client.indices.getAlias({ name: `${prefix}-roll` });
        assert.equal(aliases[`${prefix}-roll-000002`].aliases[`${prefix}-roll`].is_write_index, true);

        const source = `${prefix}-src`;
        await client.indices.create({ index: source, settings: { number_of_shards: 2, number_of_replicas: 0 } });
        const operations = Array.from({ length: 10 }, (_, i) => [{ index: { _index: source, _id: String(i) } }, { n: i }]).flat();
        await client.bulk({ refresh: true, operations });
        await client.indices.addBlock({ index: source, block: 'write' });
        const shrunk = await client.indices.shrink({ index: source, target: `${prefix}-shrunk`, settings: { 'index.number_of_replicas': 0 } });
        assert.deepEqual(shrunk, { acknowledged: true, shards_acknowledged: true, index: `${prefix}-shrunk` });
        const split = await client.indices.split({ index: source, target: `${prefix}-split`, settings: { 'index.number_of_shards': 4, 'index.number_of_replicas': 0 } });
        assert.equal(split.acknowledged, true);
        const cloned = await client.indices.clone({ index: source, target: `${prefix}-clone` });
        assert.equal(cloned.acknowledged, true);
        for (const target of ['shrunk', 'split', 'clone']) {
          assert.equal((await client.count({ index: `${prefix}-${target}` })).count, 10, target);
          assert.equal((await client.get({ index: `${prefix}-${target}`, id: '7' }))._source.n, 7);
        }
      } finally {
        await client.close();
      }
    });

    test('a missing feature is an ordinary ResponseError: status 501, ES error body', async () => {
      const client = make();
      try {
        for (const call of [() => client.snapshot.getRepository(), () => client.license.get()]) {
          await assert.rejects(call(), (err: unknown) => {
            assert.ok(err instanceof ResponseError, String(err));
            const meta = (err as unknown as { meta: { statusCode: number; body: { error: { type: string; reason: string } } } }).meta;
            assert.equal(meta.statusCode, 501);
            assert.equal(meta.body.error.type, 'unsupported_operation_exception');
            assert.match(meta.body.error.reason, /: not available in Gannet; /);
            return true;
          });
        }
      } finally {
        await client.close();
      }
    });
  });
}
