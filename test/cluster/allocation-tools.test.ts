/**
 * The allocation tools and rules on a real cluster (issue 14 #5-6, issue 12's rebalancing), nodes in this process
 * over real sockets and a real etcd, one cluster shared by every step:
 * - explain names the deciders that keep a replica off each node (filter, same_shard) and `enable`;
 * - reroute moves a shard, cancels a replica, places a replica on the node asked while allocation is disabled;
 * - a primary forced onto a node without its data fails `index.allocation.max_retries` times, then waits
 *   (max_retry), and `allocate_empty_primary` with `accept_data_loss` brings the index back, empty;
 * - a node that joins gets its share by relocation, health green all along, `relocating_shards` counting it;
 * - disk: a node past the high watermark sends its copies to nodes under low; the flood stage block of an index
 *   spread over several nodes is released once they are all below high; the nodes report their copies' sizes and
 *   a replica too big for the only node it may go to stays unassigned until it fits (needs root for a tmpfs).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessCluster, type InProcessNode } from '../helpers/in-process-cluster.js';

const TEST_TIMEOUT = 240_000;
const MB = 1024 * 1024;

type Copy = { state: string; primary: boolean; node: string | null; relocating_node: string | null };

async function copiesOf(node: InProcessNode, index: string, shard = 0): Promise<Copy[]> {
  const res = await node.request('GET', `/_cluster/state/routing_table/${index}`);
  assert.equal(res.status, 200, res.text);
  return res.body.routing_table.indices[index].shards[String(shard)];
}

describe('allocation tools on a cluster', { timeout: TEST_TIMEOUT }, () => {
  let cluster: InProcessCluster;
  let a: InProcessNode;
  const green = (index: string) => cluster.waitFor(a, `/_cluster/health/${index}`, (r) => r.body?.status === 'green' && r.body?.relocating_shards === 0, 60_000);
  const explain = (body: unknown, query = '') => a.request('POST', `/_cluster/allocation/explain${query}`, { body });
  const reroute = (commands: unknown[], query = '') => a.request('POST', `/_cluster/reroute?metric=none${query}`, { body: { commands } });
  const idOf = (name: string) => cluster.nodes.find((node) => node.name === name)!.nodeId;
  /** Asks explain until `check` accepts its answer (the master learns disk figures from the nodes' reports). */
  const explainUntil = async (body: unknown, query: string, check: (r: Awaited<ReturnType<typeof explain>>) => boolean) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await explain(body, query);
      if (check(answer)) return answer;
      if (Date.now() > deadline) assert.fail(`explain never matched: ${answer.text}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  before(async () => {
    cluster = await InProcessCluster.start(3, { 'cluster.info.update.interval': '10s' });
    a = cluster.nodes[0]!;
  });
  after(async () => {
    await cluster?.stop();
  });

  test('explain: the filter keeps the replica off the other nodes, same_shard off the primary\'s; removing the filter places it', async () => {
    const created = await a.request('PUT', '/filtered', { body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.require._name': 'node-0' } } });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/filtered', (r) => r.body?.active_primary_shards === 1);
    const res = await explain({ index: 'filtered', shard: 0, primary: false });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.can_allocate, 'no');
    const decisions = res.body.node_allocation_decisions as Array<{ node_name: string; node_decision: string; weight_ranking: number; deciders: Array<{ decider: string; decision: string; explanation: string }> }>;
    assert.deepEqual(decisions.map((d) => d.node_name).sort(), ['node-0', 'node-1', 'node-2']);
    assert.deepEqual(decisions.map((d) => d.weight_ranking).sort(), [1, 2, 3]);
    for (const d of decisions) {
      assert.equal(d.node_decision, 'no');
      if (d.node_name === 'node-0') {
        assert.deepEqual(d.deciders.map((x) => x.decider), ['same_shard']);
      } else {
        assert.deepEqual(d.deciders, [{ decider: 'filter', decision: 'NO', explanation: 'node does not match index setting [index.routing.allocation.require] filters [_name:"node-0"]' }]);
      }
    }
    assert.equal((await a.request('PUT', '/filtered/_settings', { body: { 'index.routing.allocation.require._name': null } })).status, 200);
    await green('filtered');
  });

  test('reroute: move a started shard, refuse a move onto a copy, cancel a replica (it is placed again)', async () => {
    assert.equal((await a.request('PUT', '/moved', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } })).status, 200);
    await green('moved');
    const [primary] = await copiesOf(a, 'moved');
    const from = cluster.nodes.find((node) => node.nodeId === primary!.node)!;
    const to = cluster.nodes.find((node) => node !== from)!;
    const moved = await reroute([{ move: { index: 'moved', shard: 0, from_node: from.name, to_node: to.name } }], '&explain=true');
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.explanations[0].command, 'move');
    assert.deepEqual(moved.body.explanations[0].parameters, { index: 'moved', shard: 0, from_node: from.name, to_node: to.name });
    await cluster.waitFor(a, '/_cluster/state/routing_table/moved', (r) => {
      const copy = r.body?.routing_table?.indices?.moved?.shards?.['0']?.[0];
      return copy?.node === to.nodeId && copy?.state === 'STARTED';
    }, 60_000);
    assert.equal((await a.request('PUT', '/moved/_settings', { body: { number_of_replicas: 1 } })).status, 200);
    await green('moved');
    const copies = await copiesOf(a, 'moved');
    const replica = copies.find((copy) => !copy.primary)!;
    const replicaNode = cluster.nodes.find((node) => node.nodeId === replica.node)!;
    const onto = await reroute([{ move: { index: 'moved', shard: 0, from_node: to.name, to_node: replicaNode.name } }]);
    assert.equal(onto.status, 400, onto.text);
    assert.match(onto.body.error.reason, /^\[move_allocation\] can't move 0, from \{.*, to \{.*, since its not allowed, reason: .*\[NO\(a copy of this shard is already allocated to this node /);
    const cancelled = await reroute([{ cancel: { index: 'moved', shard: 0, node: replicaNode.name } }], '&explain=true');
    assert.equal(cancelled.status, 200, cancelled.text);
    const [decision] = cancelled.body.explanations[0].decisions;
    assert.equal(decision.decider, 'cancel_allocation_command');
    assert.equal(decision.decision, 'YES');
    assert.match(decision.explanation, /^shard 0 on node \{.+\} can be cancelled$/);
    await green('moved');
  });

  test('reroute: cancel a started primary with allow_primary fails it; its in-sync replica is the primary under a new term and nothing is lost', async () => {
    // ES's CancelAllocationCommand fails the copy (RoutingNodes.failShard): an active in-sync replica is promoted
    // in the same step. Before, the command's allocation round put the cancelled primary back on its own store.
    await green('moved');
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) lines.push(JSON.stringify({ index: { _index: 'moved', _id: `c${i}` } }), JSON.stringify({ i }));
    const bulk = await a.request('POST', '/_bulk?refresh=true', { raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.body.errors, false, bulk.text);
    const before = await copiesOf(a, 'moved');
    const primary = before.find((copy) => copy.primary)!;
    const replica = before.find((copy) => !copy.primary)!;
    const termOf = async (): Promise<number> => (await a.request('GET', '/_cluster/state/metadata/moved')).body.metadata.indices.moved.primary_terms['0'];
    const termBefore = await termOf();
    const primaryName = cluster.nodes.find((node) => node.nodeId === primary.node)!.name;
    const cancelled = await reroute([{ cancel: { index: 'moved', shard: 0, node: primaryName, allow_primary: true } }], '&explain=true');
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.explanations[0].decisions[0].decision, 'YES', cancelled.text);
    await green('moved');
    const after = await copiesOf(a, 'moved');
    assert.equal(after.find((copy) => copy.primary)?.node, replica.node, JSON.stringify(after));
    assert.equal(await termOf(), termBefore + 1);
    for (const copy of after) {
      const node = cluster.nodes.find((candidate) => candidate.nodeId === copy.node)!;
      const count = await node.request('GET', `/moved/_count?preference=_only_nodes:${node.nodeId}`);
      assert.equal(count.body.count, 20, `${copy.primary ? 'primary' : 'replica'} on ${node.name}: ${count.text}`);
    }
    const written = await a.request('PUT', '/moved/_doc/after-cancel?timeout=20s', { body: { x: 1 } });
    assert.equal(written.status, 201, written.text);
    assert.deepEqual(written.body._shards, { total: 2, successful: 2, failed: 0 });
  });

  test('allocation.enable primaries: explain names enable; allocate_replica puts the replica on the node asked', async () => {
    assert.equal((await a.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.allocation.enable': 'primaries' } } })).status, 200);
    try {
      assert.equal((await a.request('PUT', '/chosen', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } })).status, 200);
      await cluster.waitFor(a, '/_cluster/health/chosen', (r) => r.body?.active_primary_shards === 1);
      const res = await explain({ index: 'chosen', shard: 0, primary: false });
      const deciders = (res.body.node_allocation_decisions as Array<{ deciders: Array<{ decider: string; explanation: string }> }>).flatMap((d) => d.deciders);
      assert.ok(
        deciders.some((d) => d.decider === 'enable' && d.explanation === 'replica allocations are forbidden due to cluster setting [cluster.routing.allocation.enable=primaries]'),
        res.text,
      );
      const [primary] = await copiesOf(a, 'chosen');
      const target = cluster.nodes.find((node) => node.nodeId !== primary!.node)!;
      const placed = await reroute([{ allocate_replica: { index: 'chosen', shard: 0, node: target.name } }]);
      assert.equal(placed.status, 200, placed.text);
      await green('chosen');
      assert.equal((await copiesOf(a, 'chosen')).find((copy) => !copy.primary)?.node, target.nodeId);
    } finally {
      await a.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.allocation.enable': null } } });
    }
  });

  test('a primary forced onto a node without its data fails max_retries times and waits; an empty primary brings the index back', async () => {
    const settings = { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'node-2', 'index.allocation.max_retries': 2 };
    assert.equal((await a.request('PUT', '/lost', { body: { settings } })).status, 200);
    await green('lost');
    // Every other copy leaves node-2 first (canRemain NO under the filter): its primaries would wait for it.
    assert.equal((await a.request('PUT', '/filtered,moved,chosen/_settings', { body: { 'index.routing.allocation.exclude._name': 'node-2' } })).status, 200);
    await cluster.waitFor(a, '/_cat/shards?format=json&h=index,node,state', (r) =>
      Array.isArray(r.body) && (r.body as Array<{ index: string; node: string; state: string }>).every((row) => row.index === 'lost' || (row.node !== 'node-2' && row.state === 'STARTED')),
    60_000);
    await cluster.nodes.find((node) => node.name === 'node-2')!.stop();
    cluster.nodes.splice(cluster.nodes.findIndex((node) => node.name === 'node-2'), 1);
    await cluster.waitFor(a, '/_cluster/health', (r) => r.body?.number_of_nodes === 2, 30_000);
    const gone = await explain({ index: 'lost', shard: 0, primary: true });
    assert.equal(gone.body.can_allocate, 'no_valid_shard_copy', gone.text);
    assert.equal(gone.body.unassigned_info.reason, 'NODE_LEFT');
    assert.deepEqual(gone.body.node_allocation_decisions.map((d: { store: unknown }) => d.store), [{ found: false }, { found: false }]);
    const unconfirmed = await reroute([{ allocate_stale_primary: { index: 'lost', shard: 0, node: 'node-1' } }]);
    assert.equal(unconfirmed.status, 400);
    assert.equal(unconfirmed.body.error.reason, '[allocate_stale_primary] allocating an empty primary for [lost][0] can result in data loss. Please confirm by setting the accept_data_loss parameter to true');
    const forced = await reroute([{ allocate_stale_primary: { index: 'lost', shard: 0, node: 'node-1', accept_data_loss: true } }]);
    assert.equal(forced.status, 200, forced.text);
    // node-1 has no data for it: the store recovery fails, the master tries again, twice in all, then stops.
    const stuck = await cluster.waitFor(a, '/_cluster/allocation/explain', (r) => r.body?.unassigned_info?.failed_allocation_attempts === 2 && r.body?.can_allocate === 'no', 60_000);
    assert.equal(stuck.body.index, 'lost');
    const maxRetry = stuck.body.node_allocation_decisions.flatMap((d: { deciders?: Array<{ decider: string; explanation: string }> }) => d.deciders ?? []).find((d: { decider: string }) => d.decider === 'max_retry');
    assert.match(maxRetry.explanation, /^shard has exceeded the maximum number of retries \[2\] on failed allocation attempts - manually call \[\/_cluster\/reroute\?retry_failed=true\] to retry, \[unassigned_info\[\[reason=ALLOCATION_FAILED\], at\[/);
    // retry_failed: the count starts over and the master tries again at once.
    const retried = await a.request('POST', '/_cluster/reroute?retry_failed=true&filter_path=state.routing_table.indices.lost');
    assert.equal(retried.status, 200, retried.text);
    assert.notEqual(retried.body.state.routing_table.indices.lost.shards['0'][0].state, 'UNASSIGNED', retried.text);
    await cluster.waitFor(a, '/_cluster/allocation/explain', (r) => r.body?.unassigned_info?.failed_allocation_attempts === 2, 60_000);
    const empty = await reroute([{ allocate_empty_primary: { index: 'lost', shard: 0, node: 'node-1', accept_data_loss: true } }]);
    assert.equal(empty.status, 200, empty.text);
    await cluster.waitFor(a, '/_cluster/health/lost', (r) => r.body?.status === 'green', 60_000);
    const info = await a.request('GET', '/_cluster/state/routing_table/lost');
    assert.equal(info.body.routing_table.indices.lost.shards['0'][0].node, idOf('node-1'));
    assert.equal((await a.request('DELETE', '/lost')).status, 200);
  });

  test('a node that joins gets its share by relocation: health green throughout, relocating_shards counts the moves', async () => {
    assert.equal((await a.request('PUT', '/spread', { body: { settings: { number_of_shards: 4, number_of_replicas: 1 } } })).status, 200);
    await green('spread');
    const joined = await cluster.addNode();
    assert.equal((await a.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.rebalance.enable': 'all' } } })).status, 200);
    let sawRelocation = false;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const health = await a.request('GET', '/_cluster/health');
      assert.equal(health.body.status, 'green', health.text);
      assert.ok(health.body.relocating_shards <= 2, `at most cluster_concurrent_rebalance (2) moves at once: ${health.text}`);
      if (health.body.relocating_shards > 0) sawRelocation = true;
      const rows = (await a.request('GET', '/_cat/allocation?format=json&h=node,shards')).body as Array<{ node: string; shards: string }>;
      const counts = rows.filter((row) => row.node !== 'UNASSIGNED').map((row) => Number(row.shards));
      const joinedRow = rows.find((row) => row.node === joined.name);
      if (health.body.relocating_shards === 0 && joinedRow !== undefined && Number(joinedRow.shards) >= 3 && Math.max(...counts) - Math.min(...counts) <= 2) break;
      assert.ok(Date.now() < deadline, `not balanced in time: ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(sawRelocation, 'the joining node filled up by relocation');
    await a.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.rebalance.enable': null } } });
  });

  test('disk: past high, copies leave for nodes under low; the flood stage block of an index spread over nodes is released below high', async (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root to mount a tmpfs');
    const mount = mkdtempSync(join(tmpdir(), 'gannet-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mount], { stdio: 'pipe' });
    } catch (err) {
      rmSync(mount, { recursive: true, force: true });
      return t.skip(`cannot mount a tmpfs here: ${(err as Error).message.split('\n')[0]}`);
    }
    const filler = join(mount, 'filler');
    try {
      const small = await cluster.addNode({ 'path.data': join(mount, 'data') });
      // Bytes that must stay free: the big disks stay far below low, the tmpfs crosses them as it is filled.
      const watermarks = { low: '60mb', high: '50mb', flood_stage: '30mb' };
      const settings = Object.fromEntries(Object.entries(watermarks).map(([key, value]) => [`cluster.routing.allocation.disk.watermark.${key}`, value]));
      assert.equal((await a.request('PUT', '/_cluster/settings', { body: { persistent: settings } })).status, 200);
      assert.equal((await a.request('PUT', '/full', { body: { settings: { number_of_shards: 3, number_of_replicas: 0, 'index.routing.allocation.require._name': small.name } } })).status, 200);
      await green('full');
      assert.equal((await a.request('PUT', '/full/_settings', { body: { 'index.routing.allocation.require._name': null, 'index.routing.allocation.include._name': `${small.name},node-0,node-1` } })).status, 200);
      // Leave 20 MB free: past the flood stage (the block) and past high (the copies move away).
      const stats = statfsSync(mount);
      writeFileSync(filler, Buffer.alloc(Math.max(0, stats.bavail * stats.bsize - 20 * MB)));
      await cluster.waitFor(a, '/full/_settings', (r) => r.body?.full?.settings?.index?.blocks?.read_only_allow_delete === 'true', 60_000);
      await cluster.waitFor(a, '/_cluster/state/routing_table/full', (r) => {
        const shards = Object.values(r.body?.routing_table?.indices?.full?.shards ?? {}) as Copy[][];
        const homes = new Set(shards.flatMap((copies) => copies.map((copy) => copy.node)));
        return shards.length === 3 && shards.every((copies) => copies.every((copy) => copy.state === 'STARTED' && copy.node !== small.nodeId)) && homes.size === 2;
      }, 90_000);
      const blocked = await explain({ index: 'full', shard: 0, primary: true }, '?include_disk_info=true');
      assert.ok(blocked.body.cluster_info.nodes[small.nodeId].least_available.free_bytes < 50 * MB, blocked.text);
      // Room again: no node holds every copy (so no node's own monitor may lift the block): the master releases it.
      rmSync(filler, { force: true });
      await cluster.waitFor(a, '/full/_settings', (r) => r.body?.full?.settings?.index?.blocks?.read_only_allow_delete === undefined, 60_000);
      await a.request('DELETE', '/full');
      await a.request('PUT', '/_cluster/settings', { body: { persistent: Object.fromEntries(Object.keys(settings).map((key) => [key, null])) } });
      await small.stop();
      cluster.nodes.splice(cluster.nodes.indexOf(small), 1);
    } finally {
      rmSync(filler, { force: true });
      try {
        execFileSync('umount', ['-l', mount], { stdio: 'pipe' });
      } catch {
        // already unmounted
      }
      rmSync(mount, { recursive: true, force: true });
    }
  });
  test('disk: the nodes report their copies\' sizes; a replica whose size would take its only possible node past high stays unassigned until it fits', async (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root to mount a tmpfs');
    const mount = mkdtempSync(join(tmpdir(), 'gannet-sized-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mount], { stdio: 'pipe' });
    } catch (err) {
      rmSync(mount, { recursive: true, force: true });
      return t.skip(`cannot mount a tmpfs here: ${(err as Error).message.split('\n')[0]}`);
    }
    const watermarkKeys = ['low', 'high', 'flood_stage'].map((key) => `cluster.routing.allocation.disk.watermark.${key}`);
    const setWatermarks = async (lowFree: number, highFree: number, floodFree: number) => {
      const values = [lowFree, highFree, floodFree].map((bytes) => `${Math.floor(bytes)}b`);
      const put = await a.request('PUT', '/_cluster/settings', { body: { persistent: Object.fromEntries(watermarkKeys.map((key, i) => [key, values[i]])) } });
      assert.equal(put.status, 200, put.text);
    };
    try {
      const small = await cluster.addNode({ 'path.data': join(mount, 'data') });
      // About 6 MB of stored bytes in one primary on node-0 (a binary field: stored, not indexed, cheap to load).
      const created = await a.request('PUT', '/sized', {
        body: { settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'node-0' }, mappings: { properties: { blob: { type: 'binary' } } } },
      });
      assert.equal(created.status, 200, created.text);
      await green('sized');
      const blob = () => randomBytes(6 * 1024).toString('base64');
      for (let batch = 0; batch < 8; batch++) {
        const lines = Array.from({ length: 100 }, (_, i) => `{"index":{"_index":"sized"}}\n${JSON.stringify({ blob: blob(), n: batch * 100 + i })}\n`).join('');
        const loaded = await a.request('POST', '/_bulk', { raw: lines, headers: { 'content-type': 'application/x-ndjson' } });
        assert.equal(loaded.body.errors, false);
      }
      assert.equal((await a.request('POST', '/sized/_flush')).status, 200);
      const stats = await a.request('GET', '/sized/_stats/store');
      const size: number = stats.body._all.primaries.store.size_in_bytes;
      assert.ok(size > 2 * MB, `store size ${size}`);
      // The replica may only go to the tmpfs node; its free space is known here and changes little.
      const fs = statfsSync(mount);
      const free = fs.bavail * fs.bsize;
      assert.ok(free > size * 2, `tmpfs free ${free}`);
      // Under low now (free >= free - size/4), but the copy would leave free - size < free - size/2 (high).
      await setWatermarks(free - size / 4, free - size / 2, free - size);
      // A watermark change makes every node report at once: the master learns the primary's size.
      const info = await explainUntil({ index: 'sized', shard: 0, primary: true }, '?include_disk_info=true', (r) => (r.body?.cluster_info?.shard_sizes?.['[sized][0][p]_bytes'] ?? 0) >= size * 0.9);
      assert.ok(info.body.cluster_info.nodes[small.nodeId] !== undefined, info.text);
      assert.equal((await a.request('PUT', '/sized/_settings', { body: { 'index.routing.allocation.require._name': null, 'index.routing.allocation.include._name': `node-0,${small.name}`, number_of_replicas: 1 } })).status, 200);
      const refused = await explainUntil({ index: 'sized', shard: 0, primary: false }, '', (r) => r.body?.can_allocate === 'no');
      const onSmall = (refused.body.node_allocation_decisions as Array<{ node_id: string; deciders: Array<{ decider: string; decision: string; explanation: string }> }>).find((d) => d.node_id === small.nodeId)!;
      assert.deepEqual(onSmall.deciders.map((d) => [d.decider, d.decision]), [['disk_threshold', 'NO']], refused.text);
      assert.match(onSmall.deciders[0]!.explanation, /^allocating the shard to this node will bring the node above the high watermark cluster setting \[cluster\.routing\.allocation\.disk\.watermark\.high=\d+b\] and cause it to have less than the minimum required \[[^\]]+\] of free space \(free: \[[^\]]+\], used: \[[^\]]+\], estimated shard size: \[[1-9][^\]]*\]\)$/);
      const health = await a.request('GET', '/_cluster/health/sized');
      assert.equal(health.body.unassigned_shards, 1, health.text);
      // Room for it (free - 2 x size must stay free): the replica is placed on the tmpfs node.
      await setWatermarks(free - 2 * size, free - 2.5 * size, free - 3 * size);
      await green('sized');
      assert.ok((await copiesOf(a, 'sized')).some((copy) => !copy.primary && copy.node === small.nodeId));
      await a.request('DELETE', '/sized');
      await a.request('PUT', '/_cluster/settings', { body: { persistent: Object.fromEntries(watermarkKeys.map((key) => [key, null])) } });
      await small.stop();
      cluster.nodes.splice(cluster.nodes.indexOf(small), 1);
    } finally {
      try {
        execFileSync('umount', ['-l', mount], { stdio: 'pipe' });
      } catch {
        // already unmounted
      }
      rmSync(mount, { recursive: true, force: true });
    }
  });
});
