/**
 * A node stopped (SIGTERM) while a bulk it coordinates retries its shard group on a newer cluster state (the
 * primary's node was killed, decision 0013's ReroutePhase retry) stops within seconds, and the bulk's client is
 * answered rather than left waiting. On real node processes and a real etcd.
 *
 * Before 031eb31 a closed cluster-state wait resolved at once as timed out: the retry loop (runShardGroupOnPrimary)
 * then spun on resolved promises until the bulk's timeout, starving the event loop, so the node never got on with
 * its stop (3 of 3 runs of the failover bench with --stop-under-writes). The unit test is
 * test/unit/cluster/cluster-service-close.test.ts; this one runs the whole path. With that fix reverted the node
 * does not exit within the bound here (2 of 2 runs; it exits once the bulk's 90 s timeout has passed).
 *
 * The retry is held deterministically: the master is paused (SIGSTOP), so after the primary's node is killed no
 * newer state can come and the coordinating node keeps retrying, waiting a second at a time, until its timeout.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterProcesses } from '../helpers/cluster-processes.js';
import type { HttpResult, NodeProcess } from '../helpers/node-process.js';

const INDEX = 'retrying';
/** The bulk's own timeout: how long the old code's stop waited (it spun until then). */
const BULK_TIMEOUT_SECONDS = 90;
/** A stop on a loaded two-core host takes 1-3 s; the old code's took the bulk's timeout. */
const STOP_BOUND_MILLIS = 20_000;

describe('a node stopped while a bulk into it retries on a newer cluster state', () => {
  let cluster: ClusterProcesses;
  let master: NodeProcess | undefined;

  before(async () => {
    cluster = await ClusterProcesses.start(3);
    for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 3, 60_000);
  });

  after(async () => {
    master?.child.kill('SIGCONT');
    await cluster?.stop();
  });

  test('exits within seconds and the client is answered, not left hanging', { timeout: 180_000 }, async () => {
    const state = await cluster.waitFor(cluster.nodes[0]!, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string', 60_000);
    master = cluster.nodes.find((node) => node.nodeId === state.body.master_node)!;
    const [coordinating, holder] = cluster.nodes.filter((node) => node !== master) as [NodeProcess, NodeProcess];
    // One copy only, on `holder`: with it gone no promotion can end the retry either.
    const created = await master.request('PUT', `/${INDEX}`, { body: { settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.include._id': holder.nodeId } } });
    assert.equal(created.status, 200, created.text);
    const green = await coordinating.request('GET', `/_cluster/health/${INDEX}?wait_for_status=green&timeout=60s`);
    assert.equal(green.body.status, 'green', green.text);

    master.child.kill('SIGSTOP');
    await holder.kill9();
    const bulk = Array.from({ length: 20 }, (_, i) => `{"index":{"_index":"${INDEX}","_id":"d${i}"}}\n{"n":${i}}\n`).join('');
    const answer: Promise<HttpResult | Error> = coordinating
      .request('POST', `/_bulk?timeout=${BULK_TIMEOUT_SECONDS}s`, { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } })
      .catch((err: Error) => err);
    // The bulk is under way on the coordinating node (its shard group failed to reach the dead node and waits for a
    // newer state, a second at a time) well past its first try.
    await cluster.waitFor(coordinating, `/_tasks?nodes=${coordinating.nodeId}&actions=indices:data/write/bulk`, (r) => {
      const tasks = Object.values(r.body?.nodes?.[coordinating.nodeId]?.tasks ?? {}) as Array<{ running_time_in_nanos: number }>;
      return tasks.some((task) => task.running_time_in_nanos > 2e9);
    }, 30_000);

    const stopping = Date.now();
    coordinating.child.kill('SIGTERM');
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), STOP_BOUND_MILLIS).unref());
    const exit = await Promise.race([coordinating.exitPromise.then((code) => ({ code })), timer]);
    const client = await Promise.race([answer, timer]);
    master.child.kill('SIGCONT');
    assert.notEqual(exit, 'timeout', `the node did not exit within ${STOP_BOUND_MILLIS} ms of SIGTERM; its last lines:\n${coordinating.logs.slice(-20).join('\n')}`);
    assert.deepEqual(exit, { code: 0 }, 'a clean exit');
    console.log(`SIGTERM to exit: ${Date.now() - stopping} ms`);
    assert.notEqual(client, 'timeout', 'the bulk\'s client was left waiting');
    console.log(`the client got: ${client instanceof Error ? client.message : `${(client as HttpResult).status} ${(client as HttpResult).text.slice(0, 300)}`}`);
    if (client instanceof Error) {
      // What it gets today: the HTTP layer stops first and closes every connection, in-flight requests' too, as ES's
      // does under its default `http.shutdown_grace_period` of 0 (AbstractHttpServerTransport.doStop). The client
      // learns at once that nothing was acknowledged; only the old hang (no answer until the bulk's timeout) fails.
      assert.match(client.message, /socket hang up|ECONNRESET|EPIPE/, client.message);
    } else {
      // Answered before the connection closed: an ES error, never an acknowledgement.
      const result = client as HttpResult;
      const failed = result.status >= 500 || (result.body?.items ?? []).every((item: any) => item.index?.error !== undefined);
      assert.ok(failed, result.text);
      assert.match(result.text, /"type"\s*:\s*"[a-z_]+_exception"/, result.text);
    }
  });
});
