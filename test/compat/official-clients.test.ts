/**
 * The official Elasticsearch JavaScript clients, unmodified, against a real Gannet node: the 9.x client
 * (`@elastic/elasticsearch`) and the 8.x client (installed under the alias `es8`). Both check the
 * X-Elastic-Product header on every 2xx response and send compatible-with media types, so passing here means
 * Gannet is accepted as Elasticsearch. A failure is a Gannet compatibility bug, never a reason to change the
 * client.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { clusterSize } from '../helpers/topology.js';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'cluster.name': 'compat' } });
});
after(async () => {
  await node.stop();
});

interface OpsClient {
  info(): Promise<{ cluster_name: string; version: { number: string } }>;
  ping(): Promise<boolean>;
  cluster: { health(params?: Record<string, unknown>): Promise<Record<string, any>> };
  cat: {
    nodes(params?: Record<string, unknown>): Promise<any>;
    allocation(params?: Record<string, unknown>): Promise<any>;
    tasks(params?: Record<string, unknown>): Promise<any>;
  };
  tasks: {
    list(params?: Record<string, unknown>): Promise<Record<string, any>>;
    get(params: Record<string, unknown>): Promise<Record<string, any>>;
    cancel(params?: Record<string, unknown>): Promise<Record<string, any>>;
  };
  close(): Promise<void>;
}

const clients: Array<[string, () => OpsClient]> = [
  ['@elastic/elasticsearch 9.x', () => new Client9({ node: node.url }) as unknown as OpsClient],
  ['@elastic/elasticsearch 8.x', () => new Client8({ node: node.url }) as unknown as OpsClient],
];

for (const [name, makeClient] of clients) {
  describe(name, () => {
    let client: OpsClient;
    before(() => {
      client = makeClient();
    });
    after(async () => {
      await client.close();
    });

    test('info and ping pass the product check', async () => {
      const info = await client.info();
      assert.equal(info.cluster_name, 'compat');
      assert.equal(await client.ping(), true);
    });

    test('cluster.health', async () => {
      const health = await client.cluster.health();
      assert.equal(health['cluster_name'], 'compat');
      assert.equal(health['status'], 'green');
      assert.equal(health['number_of_nodes'], clusterSize(node));
      const waited = await client.cluster.health({ wait_for_status: 'green', timeout: '1s', level: 'indices' });
      assert.equal(waited['timed_out'], false);
      assert.deepEqual(waited['indices'], {});
    });

    test('cluster.health timeout is a 408 the client surfaces with the body', async () => {
      await assert.rejects(client.cluster.health({ wait_for_nodes: '10', timeout: '1ms' }), (err: any) => {
        assert.equal(err.meta?.statusCode, 408);
        assert.equal(err.meta?.body?.timed_out, true);
        return true;
      });
    });

    test('cat.nodes and cat.allocation, as text and as JSON', async () => {
      const text = await client.cat.nodes({ v: true });
      assert.equal(typeof text, 'string');
      assert.match(text, /^ip\s+heap\.percent\s+ram\.percent\s+cpu\s+load_1m\s+load_5m\s+load_15m\s+node\.role\s+master\s+name\n/);
      const rows = await client.cat.nodes({ format: 'json', h: 'name,master,heap.percent' });
      // One row per node, one elected master (this node when it is alone; GANNET_TEST_CLUSTER: another node).
      assert.equal(rows.length, clusterSize(node));
      assert.ok(rows.some((r: any) => r.name === 'test-node'));
      assert.equal(rows.filter((r: any) => r.master === '*').length, 1);
      if (clusterSize(node) === 1) assert.deepEqual(rows.map((r: any) => [r.name, r.master]), [['test-node', '*']]);
      assert.match(rows[0]['heap.percent'], /^\d+$/);
      const allocation = await client.cat.allocation({ format: 'json', bytes: 'b' });
      assert.equal(allocation.length, clusterSize(node));
      assert.ok(allocation.some((row: any) => row.node === 'test-node'));
      assert.match(allocation[0]['disk.total'], /^\d+$/);
    });

    test('tasks.list sees itself; cat.tasks lists tasks', async () => {
      const list = await client.tasks.list({ actions: 'cluster:monitor/tasks/lists*', detailed: true });
      const tasks = Object.values(list['nodes'][node.nodeId].tasks) as any[];
      assert.ok(tasks.some((t) => t.action === 'cluster:monitor/tasks/lists'));
      const cat = await client.cat.tasks({ format: 'json', actions: 'cluster:monitor/tasks/lists*' });
      assert.ok(cat.some((row: any) => row.action === 'cluster:monitor/tasks/lists'));
    });

    test('tasks.cancel stops a waiting health request', async () => {
      const waiting = client.cluster.health({ wait_for_nodes: '10', timeout: '30s' }).then(
        () => 'completed',
        (err: any) => err.meta?.body?.error?.type ?? String(err),
      );
      let taskId: string | undefined;
      for (let i = 0; i < 400 && !taskId; i++) {
        const list = await client.tasks.list({ actions: 'cluster:monitor/health', group_by: 'none' });
        taskId = (list['tasks'] as any[])[0] ? `${list['tasks'][0].node}:${list['tasks'][0].id}` : undefined;
        if (!taskId) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(taskId, 'the waiting health request is listed as a task');
      const cancelled = await client.tasks.cancel({ task_id: taskId, wait_for_completion: true });
      assert.ok(JSON.stringify(cancelled).includes(taskId!.split(':')[1]!));
      assert.equal(await waiting, 'task_cancelled_exception');
      await assert.rejects(client.tasks.get({ task_id: 'foo:1' }), (err: any) => err.meta?.statusCode === 404);
    });
  });
}
