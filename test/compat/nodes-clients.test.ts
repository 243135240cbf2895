/**
 * The official JavaScript clients (9.x and the 8.x alias `es8`), unmodified, on the node info and stats APIs:
 * `nodes.info`, `nodes.stats`, `cluster.stats`, and sniffing (`sniffOnStart`), which reads
 * `_nodes/_all/http` and then sends requests to the publish addresses it found.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { clusterSize } from '../helpers/topology.js';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'cluster.name': 'compat-nodes', 'node.name': 'sniffed' } });
});
after(async () => {
  await node.stop();
});

/** The transport's sniff result: `meta.sniff.hosts` lists the nodes it will talk to from now on. */
interface SniffEvent {
  meta?: { sniff?: { hosts?: Array<{ url: URL | string }> } };
}

interface NodesClient {
  nodes: {
    info(params?: Record<string, unknown>): Promise<Record<string, any>>;
    stats(params?: Record<string, unknown>): Promise<Record<string, any>>;
  };
  cluster: { stats(params?: Record<string, unknown>): Promise<Record<string, any>> };
  info(): Promise<Record<string, any>>;
  diagnostic: { on(event: string, listener: (err: unknown, result: SniffEvent | null) => void): void };
  close(): Promise<void>;
}

const makers: Array<[string, (options: Record<string, unknown>) => NodesClient]> = [
  ['@elastic/elasticsearch 9.x', (options) => new Client9({ node: node.url, ...options }) as unknown as NodesClient],
  ['@elastic/elasticsearch 8.x', (options) => new Client8({ node: node.url, ...options }) as unknown as NodesClient],
];

for (const [name, makeClient] of makers) {
  describe(name, () => {
    let client: NodesClient;
    before(() => {
      client = makeClient({});
    });
    after(async () => {
      await client.close();
    });

    test('nodes.info, with metrics and a node selector', async () => {
      const all = await client.nodes.info();
      assert.equal(all.cluster_name, 'compat-nodes');
      const infos = Object.values(all.nodes) as Array<Record<string, any>>;
      assert.equal(infos.length, clusterSize(node));
      assert.ok(infos.some((info) => info.name === 'sniffed'));
      const some = await client.nodes.info({ node_id: '_local', metric: ['jvm', 'os'] });
      const [only] = Object.values(some.nodes) as Array<Record<string, any>>;
      assert.ok(only!.jvm && only!.os && !only!.settings);
    });

    test('nodes.stats, whole and narrowed', async () => {
      const stats = await client.nodes.stats();
      const [all] = Object.values(stats.nodes) as Array<Record<string, any>>;
      assert.ok(all!.jvm.mem.heap_used_in_bytes > 0);
      const narrowed = await client.nodes.stats({ node_id: '_local', metric: ['indices'], index_metric: ['docs'] });
      const [one] = Object.values(narrowed.nodes) as Array<Record<string, any>>;
      assert.deepEqual(Object.keys(one!.indices), ['docs']);
    });

    test('cluster.stats', async () => {
      const stats = await client.cluster.stats();
      assert.equal(stats.cluster_name, 'compat-nodes');
      assert.equal(stats.nodes.count.total, clusterSize(node));
      assert.equal(typeof stats.indices.count, 'number');
    });

    test('sniffOnStart finds the node through _nodes/_all/http and keeps working', async () => {
      const sniffing = makeClient({ sniffOnStart: true });
      try {
        const sniffed = new Promise<SniffEvent | null>((resolve, reject) => {
          sniffing.diagnostic.on('sniff', (err, result) => (err ? reject(err) : resolve(result)));
        });
        const result = await sniffed;
        const hosts = (result?.meta?.sniff?.hosts ?? []).map((host) => String(host.url));
        // Every node's publish address (only this node's when it is alone).
        assert.deepEqual(hosts.sort(), [node, ...node.peers].map((one) => `http://127.0.0.1:${one.port}/`).sort());
        assert.equal((await sniffing.info()).cluster_name, 'compat-nodes');
      } finally {
        await sniffing.close();
      }
    });
  });
}
