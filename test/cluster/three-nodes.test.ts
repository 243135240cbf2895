/**
 * Three node processes on etcd form one cluster (issue 12): one master that all agree on, a health wait that
 * resolves when the third node joins, an index of 3 shards x 1 replica placed two copies per node, writes and
 * realtime gets through any node, tasks listed across nodes, node figures from every node, and an etcd
 * restart under the running cluster.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterProcesses } from '../helpers/cluster-processes.js';
import { NodeProcess } from '../helpers/node-process.js';

describe('three nodes on etcd', () => {
  let cluster: ClusterProcesses;
  before(async () => {
    cluster = await ClusterProcesses.start(2);
  });
  after(async () => {
    await cluster?.stop();
  });

  test('a health wait for three nodes resolves when the third joins; all three agree on one master', async () => {
    const [a, b] = cluster.nodes;
    await cluster.waitFor(a!, '/_cluster/health', (r) => r.body?.number_of_nodes === 2);
    const waiting = b!.request('GET', '/_cluster/health?wait_for_nodes=3&timeout=60s');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const third = await cluster.addNode();
    const health = await waiting;
    assert.equal(health.status, 200, health.text);
    assert.equal(health.body.timed_out, false);
    assert.equal(health.body.number_of_nodes, 3);
    const masters = new Set<string>();
    for (const node of [a!, b!, third]) {
      const state = await cluster.waitFor(node, '/_cluster/state/master_node,nodes', (r) => Object.keys(r.body?.nodes ?? {}).length === 3);
      masters.add(state.body.master_node);
      const cat = await node.request('GET', '/_cat/master?h=id');
      assert.equal(cat.text.trim(), state.body.master_node);
    }
    assert.equal(masters.size, 1, `one master: ${[...masters].join(', ')}`);
    const nodesCat = await a!.request('GET', '/_cat/nodes?h=name,master&s=name');
    assert.equal(nodesCat.text.split('\n').filter((line) => line.includes('*')).length, 1, nodesCat.text);
    assert.equal(nodesCat.text.trim().split('\n').length, 3);
  });

  test('an index of 3 shards x 1 replica is placed two copies per node and goes green', async () => {
    const [a, b, c] = cluster.nodes;
    const created = await b!.request('PUT', '/placed', { body: { settings: { number_of_shards: 3, number_of_replicas: 1 } } });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.acknowledged, true);
    const health = await c!.request('GET', '/_cluster/health/placed?wait_for_status=green&timeout=30s');
    assert.equal(health.body.status, 'green', health.text);
    const state = await a!.request('GET', '/_cluster/state/routing_table/placed');
    const perNode = new Map<string, number>();
    for (const copies of Object.values(state.body.routing_table.indices.placed.shards) as Array<Array<{ node: string; shard: number }>>) {
      assert.equal(new Set(copies.map((copy) => copy.node)).size, copies.length, 'never two copies of a shard on one node');
      for (const copy of copies) perNode.set(copy.node, (perNode.get(copy.node) ?? 0) + 1);
    }
    assert.deepEqual([...perNode.values()].sort(), [2, 2, 2]);
  });

  test('writes through any node land on the primaries; gets through any node find them', async () => {
    const created = await cluster.nodes[0]!.request('PUT', '/docs', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } });
    assert.equal(created.status, 200, created.text);
    for (let i = 0; i < 12; i++) {
      const node = cluster.nodes[i % 3]!;
      const put = await node.request('PUT', `/docs/_doc/${i}`, { body: { n: i, text: `document ${i}` } });
      assert.equal(put.status, 201, put.text);
    }
    const bulk = await cluster.nodes[1]!.request('POST', '/_bulk', {
      raw: Array.from({ length: 9 }, (_, i) => `{"index":{"_index":"docs","_id":"b${i}"}}\n{"n":${100 + i}}\n`).join(''),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(bulk.status, 200, bulk.text);
    assert.equal(bulk.body.errors, false, bulk.text);
    for (const node of cluster.nodes) {
      for (const id of ['0', '5', '11', 'b3']) {
        const got = await node.request('GET', `/docs/_doc/${id}`);
        assert.equal(got.status, 200, got.text);
        assert.equal(got.body.found, true);
      }
      const missing = await node.request('GET', '/docs/_doc/nope');
      assert.equal(missing.status, 404);
    }
    const mapping = await cluster.nodes[2]!.request('GET', '/docs/_mapping');
    assert.deepEqual(Object.keys(mapping.body.docs.mappings.properties).sort(), ['n', 'text'], 'dynamic mappings from every node reached the master');
  });

  test('search, count and aggregations answer the same from each node as one node holding the same data', async () => {
    const settings = { settings: { number_of_shards: 3, number_of_replicas: 1 } };
    const single = await NodeProcess.start({ settings: { 'node.name': 'single' } });
    try {
      const bulk = Array.from({ length: 40 }, (_, i) => `{"index":{"_index":"searched","_id":"${i}"}}\n{"n":${i},"text":"quick brown fox number ${i % 7} jumps ${i % 3 === 0 ? 'high' : 'low'}","tag":"t${i % 4}"}\n`).join('');
      for (const node of [cluster.nodes[0]!, single]) {
        assert.equal((await node.request('PUT', '/searched', { body: settings })).status, 200);
        const loaded = await node.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } });
        assert.equal(loaded.body.errors, false, loaded.text);
      }
      const query = {
        query: { bool: { must: [{ match: { text: 'fox high 3' } }], filter: [{ range: { n: { gte: 2 } } }] } },
        size: 7,
        aggs: { tags: { terms: { field: 'tag.keyword' }, aggs: { top: { max: { field: 'n' } } } }, spread: { stats: { field: 'n' } } },
      };
      const strip = (body: { took?: number }) => ({ ...body, took: 0 });
      const expected = strip((await single.request('POST', '/searched/_search', { body: query })).body);
      const expectedCount = (await single.request('POST', '/searched/_count', { body: { query: query.query } })).body;
      for (const node of cluster.nodes) {
        const answer = await node.request('POST', '/searched/_search', { body: query });
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(strip(answer.body), expected, `search through ${node.url}`);
        assert.deepEqual((await node.request('POST', '/searched/_count', { body: { query: query.query } })).body, expectedCount);
      }
    } finally {
      await single.stop();
    }
  });

  test('tasks and node figures come from every node', async () => {
    // A header outside ASCII: each node's listing reaches the response as the UTF-8 bytes that node wrote.
    const tasks = await cluster.nodes[0]!.request('GET', '/_tasks', { headers: { 'X-Opaque-Id': 'caf\u00e9' } });
    assert.equal(Object.keys(tasks.body.nodes).length, 3, tasks.text);
    for (const node of Object.values(tasks.body.nodes) as Array<{ tasks: Record<string, { action: string; headers: Record<string, string> }> }>) {
      assert.ok(Object.values(node.tasks).some((task) => task.action.startsWith('cluster:monitor/tasks/lists') && task.headers['X-Opaque-Id'] === 'caf\u00e9'), tasks.text);
    }
    // Not grouped: every node's tasks in one array, spliced from each node's bytes (the listing itself and its
    // child on each node, in the order the nodes were asked).
    const flat = await cluster.nodes[1]!.request('GET', '/_tasks?group_by=none&actions=cluster:monitor/tasks/lists*', { headers: { 'X-Opaque-Id': 'caf\u00e9' } });
    const listed = flat.body.tasks as Array<{ node: string; action: string; parent_task_id?: string; headers: Record<string, string> }>;
    const ours = listed.filter((task) => task.headers['X-Opaque-Id'] === 'caf\u00e9');
    assert.equal(ours.filter((task) => task.action === 'cluster:monitor/tasks/lists[n]').length, 3, flat.text);
    assert.equal(new Set(ours.map((task) => task.node)).size, 3, flat.text);
    assert.ok(ours.some((task) => task.action === 'cluster:monitor/tasks/lists' && task.node === cluster.nodes[1]!.nodeId), flat.text);
    const stats = await cluster.nodes[1]!.request('GET', '/_nodes/stats/jvm');
    assert.equal(stats.body._nodes.successful, 3, stats.text);
    const cat = await cluster.nodes[2]!.request('GET', '/_cat/nodes?h=name,heap.percent&format=json');
    assert.equal(cat.body.length, 3);
    for (const row of cat.body as Array<{ 'heap.percent': string }>) assert.match(row['heap.percent'], /^\d+$/);
  });

  test('a reindex cancelled with actions=*reindex&nodes=<its node> stops, with its bulk children on the other nodes', async () => {
    const [a] = cluster.nodes;
    assert.equal((await a!.request('PUT', '/rsrc', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } })).status, 200);
    assert.equal((await a!.request('PUT', '/rdst', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } })).status, 200);
    const bulk = Array.from({ length: 200 }, (_, i) => `{"index":{"_index":"rsrc","_id":"${i}"}}\n{"n":${i}}\n`).join('');
    assert.equal((await a!.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } })).body.errors, false);
    // The reindex runs on the node holding the source shard; its bulk
    // shard requests go to the nodes of rdst's three primaries, two of them other nodes.
    const routing = await a!.request('GET', '/_cluster/state/routing_table/rsrc');
    const sourceNodeId = (Object.values(routing.body.routing_table.indices.rsrc.shards) as Array<Array<{ node: string }>>)[0]![0]!.node;
    const runner = cluster.nodes.find((node) => node.nodeId === sourceNodeId)!;
    const started = await runner.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=20', { body: { source: { index: 'rsrc', size: 10 }, dest: { index: 'rdst' } } });
    assert.equal(started.status, 200, started.text);
    const taskId = started.body.task as string;
    const nodeId = taskId.split(':')[0]!;
    // Let it write a few batches, whose shard requests go to the nodes of rdst's primaries.
    await cluster.waitFor(a!, '/rdst/_count', (r) => (r.body?.count ?? 0) >= 20, 30_000).catch(() => a!.request('POST', '/rdst/_refresh'));
    const cancelled = await cluster.nodes[2]!.request('POST', `/_tasks/_cancel?actions=*reindex&nodes=${nodeId}&wait_for_completion=true`);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.ok(JSON.stringify(cancelled.body).includes(taskId), cancelled.text);
    const done = await cluster.waitFor(runner, `/_tasks/${taskId}`, (r) => r.body?.completed === true, 30_000);
    assert.ok(done.body.response?.canceled ?? done.body.task?.status?.canceled, done.text);
    // No child of the reindex is left on any node, and nothing more is written.
    for (const node of cluster.nodes) {
      const children = await node.request('GET', `/_tasks?parent_task_id=${taskId}`);
      for (const entry of Object.values(children.body.nodes ?? {}) as Array<{ tasks: object }>) assert.deepEqual(entry.tasks, {}, children.text);
    }
    await a!.request('POST', '/rdst/_refresh');
    const count = (await a!.request('GET', '/rdst/_count')).body.count as number;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await a!.request('POST', '/rdst/_refresh');
    assert.equal((await a!.request('GET', '/rdst/_count')).body.count, count, 'no write after the cancel returned');
    assert.ok(count < 200, `stopped early (${count} of 200)`);
  });

  test('etcd restarted under the running cluster: nodes keep serving and the cluster resumes', async () => {
    await cluster.etcd.restart('SIGKILL', 500);
    const after = await cluster.waitFor(cluster.nodes[1]!, '/_cluster/health', (r) => r.status === 200 && r.body?.number_of_nodes === 3, 45_000);
    assert.equal(after.body.number_of_nodes, 3);
    const deadline = Date.now() + 30_000;
    let created;
    do {
      created = await cluster.nodes[2]!.request('PUT', '/after-etcd-restart');
      if (created.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    } while (Date.now() < deadline);
    assert.equal(created.status, 200, created.text);
    for (const node of cluster.nodes) await cluster.waitFor(node, '/_cat/indices/after-etcd-restart?h=index', (r) => r.text.trim() === 'after-etcd-restart');
  });
});

describe('a node that stops answering, then dies under a search', () => {
  test('node APIs report it in their failures; the search answers with the other shards and reports the lost one in _shards', async () => {
    const cluster = await ClusterProcesses.start(3, { 'cluster.etcd.lease_ttl': '10s' });
    try {
      const [a] = cluster.nodes;
      assert.equal((await a!.request('PUT', '/partial', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } })).status, 200);
      const bulk = Array.from({ length: 30 }, (_, i) => `{"index":{"_index":"partial","_id":"${i}"}}\n{"n":${i}}\n`).join('');
      const loaded = await a!.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(loaded.body.errors, false, loaded.text);
      const full = await a!.request('GET', '/partial/_search?size=0');
      assert.equal(full.body.hits.total.value, 30);
      // A second index with a replica of every shard: the search and gets below find the victim's copies elsewhere.
      assert.equal((await a!.request('PUT', '/copies', { body: { settings: { number_of_shards: 3, number_of_replicas: 1 } } })).status, 200);
      const copiesBulk = Array.from({ length: 30 }, (_, i) => `{"index":{"_index":"copies","_id":"${i}"}}\n{"n":${i}}\n`).join('');
      const copiesLoaded = await a!.request('POST', '/_bulk?refresh=true', { raw: copiesBulk, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(copiesLoaded.body.errors, false, copiesLoaded.text);
      await cluster.waitFor(a!, '/_cluster/health/copies?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
      const state = await a!.request('GET', '/_cluster/state/master_node,routing_table/partial');
      const holders = new Set((Object.values(state.body.routing_table.indices.partial.shards) as Array<Array<{ node: string }>>).map((copies) => copies[0]!.node));
      // Kill a data node that is neither the master nor the node we ask (its lease keeps it in the state for now).
      const victim = cluster.nodes.find((node) => node !== a && node.nodeId !== state.body.master_node && holders.has(node.nodeId))!;
      assert.ok(victim, 'a shard holder other than the master and the coordinating node');
      // Paused (its lease still keeps it in the cluster): the node-level APIs answer within their `timeout` with
      // the silent node in their failures, and the others' answers.
      victim.child.kill('SIGSTOP');
      try {
        const started = Date.now();
        const tasks = await a!.request('GET', '/_tasks?timeout=1s');
        assert.equal(tasks.status, 200, tasks.text);
        assert.equal(Object.keys(tasks.body.nodes).length, 2, tasks.text);
        assert.equal(tasks.body.node_failures.length, 1, tasks.text);
        assert.equal(tasks.body.node_failures[0].type, 'failed_node_exception');
        assert.equal(tasks.body.node_failures[0].node_id, victim.nodeId);
        assert.equal(tasks.body.node_failures[0].caused_by.type, 'receive_timeout_transport_exception', tasks.text);
        for (const path of ['/_nodes/stats/os?timeout=1s', '/_nodes/_all/jvm?timeout=1s', '/_cluster/stats?timeout=1s']) {
          const answer = await a!.request('GET', path);
          assert.equal(answer.status, 200, answer.text);
          assert.deepEqual({ ...answer.body._nodes, failures: undefined }, { total: 3, successful: 2, failed: 1, failures: undefined }, `${path}: ${answer.text}`);
          assert.equal(answer.body._nodes.failures[0].node_id, victim.nodeId);
        }
        assert.ok(Date.now() - started < 20_000, `each answered within its timeout, not the handshake's 30 s (${Date.now() - started} ms)`);
      } finally {
        victim.child.kill('SIGCONT');
      }
      // Killed mid-request: a search and gets that try the victim's copies first are in flight to it (paused, so
      // they wait there) when it dies; each goes on to the shard's other copy (ES's next copy in the shard
      // iterator), so the answers are complete and no shard failed.
      const copiesState = await a!.request('GET', '/_cluster/state/routing_table/copies');
      const onVictim = (Object.values(copiesState.body.routing_table.indices.copies.shards) as Array<Array<{ node: string }>>).filter((copies) => copies.some((copy) => copy.node === victim.nodeId));
      assert.ok(onVictim.length > 0, `the victim holds a copy of some shard of copies: ${copiesState.text}`);
      victim.child.kill('SIGSTOP');
      const preferVictim = `preference=_prefer_nodes:${victim.nodeId}`;
      const inFlightSearch = a!.request('GET', `/copies/_search?size=100&${preferVictim}`);
      const inFlightGets = Array.from({ length: 6 }, (_, i) => a!.request('GET', `/copies/_doc/${i}?${preferVictim}`));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await victim.kill9();
      const retried = await inFlightSearch;
      assert.equal(retried.status, 200, retried.text);
      assert.deepEqual(retried.body._shards, { total: 3, successful: 3, skipped: 0, failed: 0 }, retried.text);
      assert.equal(retried.body.hits.total.value, 30);
      assert.equal(retried.body.hits.hits.length, 30);
      for (const [i, pending] of inFlightGets.entries()) {
        const got = await pending;
        assert.equal(got.status, 200, got.text);
        assert.equal(got.body._source.n, i, got.text);
      }
      // Gone (connection refused). Fast failure detection (decision 0011) may already have removed it from the
      // state by the time the cancel arrives, or not yet: both are ES's answers, and each is checked exactly.
      const cancel = await a!.request('POST', `/_tasks/_cancel?nodes=${victim.nodeId}`);
      assert.equal(cancel.status, 200, cancel.text);
      const stillListed = cancel.body.node_failures !== undefined;
      if (stillListed) {
        assert.equal(cancel.body.node_failures[0].node_id, victim.nodeId, cancel.text);
        assert.equal(cancel.body.node_failures[0].caused_by.type, 'node_not_connected_exception', cancel.text);
      } else {
        assert.deepEqual(cancel.body.nodes ?? {}, {}, cancel.text);
        const nodes = await a!.request('GET', '/_cat/nodes?h=id&full_id=true');
        assert.ok(!nodes.text.includes(victim.nodeId), `no failure reported, so the victim has left the state: ${nodes.text}`);
      }
      const partial = await a!.request('GET', '/partial/_search?size=0');
      assert.equal(partial.status, 200, partial.text);
      assert.equal(partial.body._shards.total, 3);
      assert.equal(partial.body._shards.failed, 1, partial.text);
      assert.equal(partial.body._shards.successful, 2);
      // While the victim is listed its shard's failure names it (node_not_connected); once it has left, the shard
      // has no copy (no_shard_available_action_exception) and no node.
      const failure = partial.body._shards.failures[0];
      assert.ok(failure.node === victim.nodeId || failure.reason.type === 'no_shard_available_action_exception', partial.text);
      assert.ok(partial.body.hits.total.value < 30 && partial.body.hits.total.value > 0);
      const strict = await a!.request('GET', '/partial/_search?size=0&allow_partial_search_results=false');
      assert.equal(strict.body.error?.type, 'search_phase_execution_exception', strict.text);
    } finally {
      await cluster.stop();
    }
  });
});
