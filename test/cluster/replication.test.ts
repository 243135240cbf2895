/**
 * Replication with sequence numbers and primary terms (issue 13), on nodes in this process over real sockets
 * and a real etcd: every acknowledged write is on every in-sync copy (same ids, versions, seq_nos and
 * `_source` on each copy after concurrent bulk, updates and deletes), `_shards` counts every copy as ES does,
 * a replica refuses an operation of an older primary term, a replica that fails a write leaves the in-sync set
 * before the write is acknowledged, `wait_for_active_shards` waits then times out with ES's error, and a new
 * replica recovers by copying files while bulk requests keep coming, then equals its primary.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { InProcessCluster, type InProcessNode } from '../helpers/in-process-cluster.js';
import { REPLICA_ACTION, type ReplicaRequest } from '../../src/indices/index.js';
import { transportNode } from '../../src/cluster/transport-nodes.js';
import { FINALIZE_ACTION, START_RECOVERY_ACTION, type FinalizeRequest, type StartRecoveryRequest } from '../../src/indices/recovery/recovery-messages.js';
import { EsError } from '../../src/common/errors.js';
import type { ClusterState, ShardRouting } from '../../src/cluster/cluster-state.js';

const NDJSON = { 'content-type': 'application/x-ndjson' };
/** Generous: the host may be loaded; a hang fails the test instead of the run. */
const TEST_TIMEOUT = 240_000;

/** Every document of `index` as one node's own copy holds it, by _id. */
async function copyOn(node: InProcessNode, index: string): Promise<Map<string, unknown>> {
  const answer = await node.request('POST', `/${index}/_search?preference=_only_nodes:${node.nodeId}`, {
    body: { size: 10_000, seq_no_primary_term: true, version: true, query: { match_all: {} } },
  });
  assert.equal(answer.status, 200, answer.text);
  const hits = [...answer.body.hits.hits].sort((x: any, y: any) => (x._id < y._id ? -1 : x._id > y._id ? 1 : 0));
  const out = new Map<string, unknown>();
  for (const hit of hits) out.set(hit._id, { seqNo: hit._seq_no, term: hit._primary_term, version: hit._version, source: hit._source });
  return out;
}

async function assertCopiesEqual(nodes: readonly InProcessNode[], index: string): Promise<number> {
  for (const node of nodes) assert.equal((await node.request('POST', `/${index}/_refresh`)).status, 200);
  const [first, ...rest] = await Promise.all(nodes.map((node) => copyOn(node, index)));
  for (const other of rest) assert.deepEqual(other, first);
  return first!.size;
}

/**
 * What a failed equality check cannot show: per copy (node, primary or replica) the documents only the other
 * copies have, each with a real-time get from that copy (absent, or present but not searchable), and the
 * seq_no figures of every copy. Attached to the failure so a rare divergence leaves its evidence.
 */
async function divergenceReport(nodes: readonly InProcessNode[], index: string, roles: ReadonlyArray<{ node: string; primary: boolean }>): Promise<string> {
  const copies = await Promise.all(nodes.map((node) => copyOn(node, index)));
  const union = new Map<string, unknown>();
  for (const copy of copies) for (const [id, doc] of copy) if (!union.has(id)) union.set(id, doc);
  const lines: string[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const role = roles.find((copy) => copy.node === node.nodeId)?.primary ? 'primary' : 'replica';
    const missing = [...union.keys()].filter((id) => !copies[i]!.has(id));
    const differing = [...copies[i]!].filter(([id, doc]) => copies.some((other) => other.has(id) && JSON.stringify(other.get(id)) !== JSON.stringify(doc))).map(([id]) => id);
    lines.push(`${role} on ${node.nodeId}: ${copies[i]!.size} docs; missing ${missing.length} [${missing.join(',')}]; differing [${differing.join(',')}]`);
    for (const id of missing.slice(0, 5)) {
      const got = await node.request('GET', `/${index}/_doc/${id}?preference=_only_nodes:${node.nodeId}`);
      lines.push(`  ${id}: elsewhere ${JSON.stringify(union.get(id))}; real-time get here ${got.status} ${got.text}`);
    }
  }
  const stats = await nodes[0]!.request('GET', `/${index}/_stats?level=shards`);
  lines.push(`_stats: ${JSON.stringify(stats.body?.indices?.[index]?.shards?.['0']?.map((copy: any) => ({ routing: copy.routing, seq_no: copy.seq_no, docs: copy.docs })))}`);
  const recovery = await nodes[0]!.request('GET', `/${index}/_recovery?detailed=true`);
  lines.push(`_recovery: ${recovery.text}`);
  return lines.join('\n');
}

/** The shard's seq_no figures per copy as `_stats?level=shards` reports them. */
async function seqNoStats(node: InProcessNode, index: string): Promise<Array<{ primary: boolean; seq_no: { max_seq_no: number; local_checkpoint: number; global_checkpoint: number } }>> {
  const stats = await node.request('GET', `/${index}/_stats?level=shards`);
  assert.equal(stats.status, 200, stats.text);
  return stats.body.indices[index].shards['0'].map((copy: any) => ({ primary: copy.routing.primary, seq_no: copy.seq_no }));
}

/**
 * Holds the answer to a start_recovery of `index` on its source node until released. For a replica's recovery
 * (`primaryRelocation` false) the copy is then tracked and in sync (it takes every write) but INITIALIZING in the
 * cluster state, its recovery's refresh behind it. For a primary relocation the hold comes right after the
 * handoff (the target is in primary mode, the source forwards writes to it): the target has not reported itself
 * started and no node has applied another state for it yet.
 */
function holdStartRecoveryAnswer(source: InProcessNode, index: string, primaryRelocation: boolean): { reached: Promise<void>; release: () => void; restore: () => void } {
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const restore = source.node.nodeServices.transport!.wrapHandlerForTest(START_RECOVERY_ACTION, (handler) => async (body, context) => {
    const answer = await handler(body, context);
    const request = body as StartRecoveryRequest;
    if (request.index === index && (!primaryRelocation || request.primaryRelocation)) {
      reached();
      await gate;
    }
    return answer;
  });
  return { reached: reachedPromise, release, restore };
}

/** Where shard 0 of a one-shard, one-replica `index` is in `state`: its replica's routing entry and both nodes. */
function placementOf(nodes: readonly InProcessNode[], state: ClusterState, index: string): { replica: ShardRouting; replicaNode: InProcessNode; primaryNode: InProcessNode } {
  const replica = state.routing.get(index)![0]!.find((copy) => !copy.primary)!;
  const replicaNode = nodes.find((node) => node.nodeId === replica.nodeId)!;
  const primaryNode = nodes.find((node) => node.nodeId !== replica.nodeId)!;
  return { replica, replicaNode, primaryNode };
}

function bulkOf(lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

describe('replication to in-sync copies', () => {
  let cluster: InProcessCluster;
  before(async () => {
    cluster = await InProcessCluster.start(2);
  });
  after(async () => {
    // GANNET_TEST_DUMP_LOGS=<file> keeps the nodes' logs of a run for a look afterwards.
    const dump = process.env['GANNET_TEST_DUMP_LOGS'];
    if (dump !== undefined && cluster !== undefined) writeFileSync(dump, cluster.nodes.flatMap((node) => node.logs).join('\n'));
    await cluster?.stop();
  });

  test('copies are equal after concurrent bulk, updates and deletes; _shards counts both copies', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    const created = await a.request('PUT', '/rep', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/rep?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');

    const single = await b.request('PUT', '/rep/_doc/one', { body: { n: 1 } });
    assert.equal(single.status, 201, single.text);
    assert.deepEqual(single.body._shards, { total: 2, successful: 2, failed: 0 });

    // Four clients at once through both nodes: index, then update and delete some of what they wrote.
    await Promise.all(
      [0, 1, 2, 3].map(async (client) => {
        const node = client % 2 === 0 ? a : b;
        for (let round = 0; round < 5; round++) {
          const lines: string[] = [];
          for (let i = 0; i < 40; i++) lines.push(JSON.stringify({ index: { _index: 'rep', _id: `c${client}-${(round * 40 + i) % 120}` } }), JSON.stringify({ client, round, i, text: `doc ${i}` }));
          const bulk = await node.request('POST', '/_bulk', { raw: bulkOf(lines), headers: NDJSON });
          assert.equal(bulk.body.errors, false, bulk.text);
          for (const item of bulk.body.items) assert.deepEqual(item.index._shards, { total: 2, successful: 2, failed: 0 });
          const changes = [
            JSON.stringify({ update: { _index: 'rep', _id: `c${client}-${round}` } }),
            JSON.stringify({ script: { source: 'ctx._source.bumped = ctx._source.round + 1' } }),
            JSON.stringify({ delete: { _index: 'rep', _id: `c${client}-${round + 50}` } }),
            JSON.stringify({ update: { _index: 'rep', _id: `c${client}-new-${round}` } }),
            JSON.stringify({ doc: { upserted: true }, doc_as_upsert: true }),
          ];
          const changed = await node.request('POST', '/_bulk', { raw: bulkOf(changes), headers: NDJSON });
          assert.equal(changed.body.errors, false, changed.text);
        }
      }),
    );
    const deleted = await a.request('DELETE', '/rep/_doc/one');
    assert.deepEqual(deleted.body._shards, { total: 2, successful: 2, failed: 0 });
    const count = await assertCopiesEqual([a, b], 'rep');
    assert.ok(count > 400, `documents on each copy: ${count}`);

    // Both copies report the same sequence numbers, and the global checkpoint reached them.
    await cluster.waitFor(a, '/rep/_stats?level=shards', (r) => {
      const copies = r.body?.indices?.rep?.shards?.['0'] ?? [];
      return copies.length === 2 && copies.every((copy: any) => copy.seq_no.global_checkpoint === copy.seq_no.max_seq_no);
    });
    const stats = await seqNoStats(a, 'rep');
    assert.equal(stats.length, 2);
    assert.deepEqual(stats[0]!.seq_no, stats[1]!.seq_no);
    assert.equal(stats[0]!.seq_no.local_checkpoint, stats[0]!.seq_no.max_seq_no);
    // _cat/shards shows the same per copy: documents and the three seq_no figures.
    const cat = await b.request('GET', '/_cat/shards/rep?format=json&h=prirep,docs,seq_no.max,seq_no.local_checkpoint,seq_no.global_checkpoint');
    assert.equal(cat.status, 200, cat.text);
    assert.equal(cat.body.length, 2, cat.text);
    const [catPrimary, catReplica] = [...cat.body].sort((x: any, y: any) => (x.prirep < y.prirep ? -1 : 1));
    assert.equal(catPrimary.prirep, 'p');
    assert.deepEqual({ ...catReplica, prirep: 'p' }, catPrimary);
    assert.equal(catPrimary['seq_no.max'], String(stats[0]!.seq_no.max_seq_no));
    assert.equal(catPrimary['seq_no.global_checkpoint'], String(stats[0]!.seq_no.global_checkpoint));
    assert.equal(catPrimary.docs, String(count));
    // Retention leases as ES's RetentionLeaseStats: the primary's, and on the replica those it synced there.
    const shardStats = (await a.request('GET', '/rep/_stats?level=shards')).body.indices.rep.shards['0'];
    const primaryCopy = shardStats.find((copy: any) => copy.routing.primary);
    const replicaCopy = shardStats.find((copy: any) => !copy.routing.primary);
    assert.deepEqual(Object.keys(primaryCopy).slice(-5), ['seq_no', 'retention_leases', 'shard_path', 'search_idle', 'search_idle_time']);
    const leases = primaryCopy.retention_leases;
    assert.deepEqual(Object.keys(leases), ['primary_term', 'version', 'leases']);
    assert.equal(leases.primary_term, 1);
    assert.ok(leases.version > 0, JSON.stringify(leases));
    const replicaLease = leases.leases.find((lease: any) => lease.id === `peer_recovery/${replicaCopy.routing.node}`);
    assert.ok(replicaLease !== undefined, JSON.stringify(leases));
    assert.deepEqual(Object.keys(replicaLease), ['id', 'retaining_seq_no', 'timestamp', 'source']);
    assert.equal(replicaLease.source, 'peer recovery');
    assert.ok(replicaLease.retaining_seq_no >= 0 && replicaLease.retaining_seq_no <= primaryCopy.seq_no.max_seq_no + 1, JSON.stringify(replicaLease));
    assert.ok(Math.abs(replicaLease.timestamp - Date.now()) < 12 * 3600_000, JSON.stringify(replicaLease));
    assert.deepEqual(
      replicaCopy.retention_leases.leases.map((lease: any) => lease.id),
      leases.leases.map((lease: any) => lease.id),
      JSON.stringify(replicaCopy.retention_leases),
    );

    // A realtime get through either node finds what the other wrote, on its own copy.
    const written = await b.request('PUT', '/rep/_doc/rt', { body: { v: 'fresh' } });
    assert.equal(written.status, 201);
    for (const node of [a, b]) {
      const got = await node.request('GET', `/rep/_doc/rt?preference=_local`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body._source, { v: 'fresh' });
    }
  });

  test('updates reaching the primary through the other node keep their numbers: script params, partial docs, upserts, the get block', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    await a.request('PUT', '/upd', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } });
    await cluster.waitFor(a, '/_cluster/health/upd?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const primaryId = (await a.request('GET', '/_cluster/state/routing_table/upd')).body.routing_table.indices.upd.shards['0'].find((copy: any) => copy.primary).node;
    // Sent through the node without the primary: the shard bulk request crosses the transport.
    const via = [a, b].find((node) => node.nodeId !== primaryId)!;
    assert.equal((await via.request('PUT', '/upd/_doc/1', { body: { text: 'doc 0', i: 0 } })).status, 201);
    const lines = [
      JSON.stringify({ update: { _index: 'upd', _id: '1' } }),
      JSON.stringify({ script: { source: 'ctx._source.bumped = params.n', params: { n: 5 } } }),
      JSON.stringify({ update: { _index: 'upd', _id: '1' } }),
      JSON.stringify({ doc: { partial: 2.5 } }),
      JSON.stringify({ update: { _index: 'upd', _id: '2' } }),
      JSON.stringify({ script: { source: 'ctx._source.bumped = params.n', params: { n: 1 } }, upsert: { fresh: 7 } }),
      JSON.stringify({ update: { _index: 'upd', _id: '3', _source: true } }),
      JSON.stringify({ doc: { d: 9 }, doc_as_upsert: true }),
    ];
    const bulk = await via.request('POST', '/_bulk', { raw: bulkOf(lines), headers: NDJSON });
    assert.equal(bulk.body.errors, false, bulk.text);
    assert.deepEqual(bulk.body.items[3].update.get._source, { d: 9 });
    const single = await via.request('POST', '/upd/_update/1?_source=true', { body: { script: { source: 'ctx._source.bumped += params.n', params: { n: 10 } } } });
    assert.equal(single.status, 200, single.text);
    assert.deepEqual(single.body.get._source, { text: 'doc 0', i: 0, bumped: 15, partial: 2.5 });
    // A stored script that does not exist fails the item with ES's error, also from the other node.
    const missing = await via.request('POST', '/upd/_update/1', { body: { script: { id: 'no-such-script' } } });
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.body.error.reason, 'failed to execute script');
    assert.equal(missing.body.error.caused_by.type, 'resource_not_found_exception');
    assert.equal(missing.body.error.caused_by.reason, 'unable to find script [no-such-script] in cluster state');
    for (const node of [a, b]) {
      for (const [id, expected] of [['1', { text: 'doc 0', i: 0, bumped: 15, partial: 2.5 }], ['2', { fresh: 7 }], ['3', { d: 9 }]] as const) {
        const got = await node.request('GET', `/upd/_doc/${id}`);
        assert.deepEqual(got.body._source, expected, `${id} through ${node.name}`);
      }
    }
    const mapping = await a.request('GET', '/upd/_mapping');
    assert.equal(mapping.body.upd.mappings.properties.bumped.type, 'long');
  });

  test('preference: a custom string keeps to one copy per shard from any node; _only_local, _only_nodes and _prefer_nodes; realtime get from the replica', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    await a.request('PUT', '/pref', { body: { settings: { number_of_shards: 2, number_of_replicas: 1, refresh_interval: -1 } } });
    await cluster.waitFor(a, '/_cluster/health/pref?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) lines.push(JSON.stringify({ index: { _index: 'pref', _id: String(i) } }), JSON.stringify({ i }));
    assert.equal((await a.request('POST', '/_bulk?refresh=true', { raw: bulkOf(lines), headers: NDJSON })).body.errors, false);
    /** The node whose copy answered, per shard (explain puts `_shard` and `_node` on each hit). */
    const answeredBy = async (node: InProcessNode, preference: string): Promise<Record<string, string>> => {
      const answer = await node.request('POST', `/pref/_search?preference=${encodeURIComponent(preference)}`, { body: { size: 20, explain: true, query: { match_all: {} } } });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.hits.total.value, 20);
      const byShard: Record<string, string> = {};
      for (const hit of answer.body.hits.hits) byShard[hit._shard] = hit._node;
      return byShard;
    };
    const used = new Set<string>();
    for (let user = 0; user < 12; user++) {
      const first = await answeredBy(a, `user-${user}`);
      // The same string picks the same copies whichever node coordinates, every time.
      assert.deepEqual(await answeredBy(b, `user-${user}`), first, `user-${user}`);
      assert.deepEqual(await answeredBy(a, `user-${user}`), first, `user-${user}`);
      for (const [shard, node] of Object.entries(first)) used.add(`${shard}@${node}`);
    }
    // Different strings spread over the copies: all four (2 shards x 2 nodes) answered for some string.
    assert.equal(used.size, 4, [...used].join(' '));
    // Without a preference each node searches its own copies; _prefer_nodes and _only_nodes pick the other node.
    for (const [node, other] of [[a, b], [b, a]] as const) {
      assert.deepEqual(new Set(Object.values(await answeredBy(node, '_local'))), new Set([node.nodeId]));
      assert.deepEqual(new Set(Object.values(await answeredBy(node, `_prefer_nodes:${other.nodeId}`))), new Set([other.nodeId]));
      assert.deepEqual(new Set(Object.values(await answeredBy(node, `_only_nodes:${other.nodeId}`))), new Set([other.nodeId]));
    }
    const unknown = await a.request('GET', '/pref/_search?preference=_primary');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.reason, 'no Preference for [_primary]');

    // A realtime get reads a replica's unrefreshed write: the copy on the node without the primary has it
    // (no refresh comes: refresh_interval is -1), while a search of that copy does not see it yet.
    assert.equal((await a.request('PUT', '/pref/_doc/fresh?routing=r1', { body: { v: 1 } })).status, 201);
    for (const node of [a, b]) {
      const got = await a.request('GET', `/pref/_doc/fresh?routing=r1&preference=_only_nodes:${node.nodeId}`);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body._source, { v: 1 });
      const searched = await a.request('POST', `/pref/_search?routing=r1&preference=_only_nodes:${node.nodeId}`, { body: { query: { ids: { values: ['fresh'] } } } });
      assert.equal(searched.body.hits.total.value, 0, `not refreshed on ${node.name}`);
    }
    // The same custom string picks one copy for a get, from either node.
    for (const node of [a, b]) assert.equal((await node.request('GET', '/pref/_doc/fresh?routing=r1&preference=my-session')).body._source.v, 1);
    // _only_local on a node without a copy of the shard: ES's no_shard_available_action_exception.
    await a.request('PUT', '/pinned', { body: { settings: { number_of_shards: 1, number_of_replicas: 0, 'routing.allocation.require._id': a.nodeId } } });
    await cluster.waitFor(a, '/_cluster/health/pinned?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    assert.equal((await a.request('PUT', '/pinned/_doc/1', { body: { x: 1 } })).status, 201);
    assert.equal((await b.request('GET', '/pinned/_doc/1')).status, 200);
    const nowhere = await b.request('GET', '/pinned/_doc/1?preference=_only_local');
    assert.equal(nowhere.status, 503, nowhere.text);
    assert.equal(nowhere.body.error.type, 'no_shard_available_action_exception');
    assert.equal(nowhere.body.error.reason, 'No shard available for [get [pinned][1]: routing [null]]');
  });

  test('_update_by_query, _delete_by_query and _reindex write through the same replication: copies stay equal', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    for (const index of ['byq', 'byq-copy']) {
      await a.request('PUT', `/${index}`, { body: { settings: { number_of_shards: 2, number_of_replicas: 1 } } });
      await cluster.waitFor(a, `/_cluster/health/${index}?wait_for_status=green&timeout=30s`, (r) => r.body?.status === 'green');
    }
    const lines: string[] = [];
    for (let i = 0; i < 60; i++) lines.push(JSON.stringify({ index: { _index: 'byq', _id: String(i) } }), JSON.stringify({ n: i }));
    assert.equal((await a.request('POST', '/_bulk?refresh=true', { raw: bulkOf(lines), headers: NDJSON })).body.errors, false);
    const updated = await b.request('POST', '/byq/_update_by_query?refresh=true', {
      body: { query: { range: { n: { gte: 20 } } }, script: { source: 'ctx._source.bumped = params.by', params: { by: 3 } } },
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.updated, 40);
    const deleted = await a.request('POST', '/byq/_delete_by_query?refresh=true', { body: { query: { range: { n: { lt: 10 } } } } });
    assert.equal(deleted.body.deleted, 10, deleted.text);
    const copied = await b.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'byq' }, dest: { index: 'byq-copy' } } });
    assert.equal(copied.body.created, 50, copied.text);
    assert.equal(await assertCopiesEqual([a, b], 'byq'), 50);
    assert.equal(await assertCopiesEqual([a, b], 'byq-copy'), 50);
    const doc = await a.request('GET', '/byq/_doc/30?preference=_only_nodes:' + b.nodeId);
    assert.deepEqual(doc.body._source, { n: 30, bumped: 3 });
    assert.equal(doc.body._version, 2);
  });

  test('refresh=true and refresh=wait_for make the write visible on every copy', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    await a.request('PUT', '/vis', { body: { settings: { number_of_shards: 1, number_of_replicas: 1, refresh_interval: '1h' } } });
    await cluster.waitFor(a, '/_cluster/health/vis?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const visibleOn = async (node: InProcessNode): Promise<number> => (await node.request('GET', `/vis/_search?preference=_only_nodes:${node.nodeId}`)).body.hits.total.value;
    // No scheduled refresh comes within the test: only refresh=true can make the document visible on both copies.
    assert.equal((await a.request('PUT', '/vis/_doc/1?refresh=true', { body: { x: 1 } })).status, 201);
    for (const node of [a, b]) assert.equal(await visibleOn(node), 1, node.name);
    // wait_for returns once a refresh made the write visible, on each copy.
    assert.equal((await a.request('PUT', '/vis/_settings', { body: { index: { refresh_interval: '1s' } } })).status, 200);
    assert.equal((await b.request('PUT', '/vis/_doc/2?refresh=wait_for', { body: { x: 2 } })).status, 201);
    for (const node of [a, b]) assert.equal(await visibleOn(node), 2, node.name);
  });

  test('a search-idle replica skips scheduled refreshes as its primary does; a search on either copy refreshes that copy first', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    // ES applies search idleness to every copy (IndexShard.scheduledRefresh knows no roles); 1s stands in for 30s.
    await a.request('PUT', '/idlerep', { body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'search.idle.after': '1s' } } });
    await cluster.waitFor(a, '/_cluster/health/idlerep?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const copies = async (): Promise<Array<{ primary: boolean; node: string; idle: boolean; external: number; docs: number }>> => {
      const stats = await a.request('GET', '/idlerep/_stats/refresh,docs?level=shards');
      assert.equal(stats.status, 200, stats.text);
      return stats.body.indices.idlerep.shards['0']
        .map((copy: any) => ({ primary: copy.routing.primary, node: copy.routing.node, idle: copy.search_idle, external: copy.refresh.external_total, docs: copy.docs.count }))
        .sort((x: any, y: any) => Number(y.primary) - Number(x.primary));
    };
    await cluster.waitFor(a, '/_cat/shards/idlerep?h=rsi&format=json', (r) => r.body?.length === 2 && r.body.every((row: any) => row.rsi === 'true'));
    const before = await copies();
    const lines = ['1', '2', '3'].flatMap((id) => [JSON.stringify({ index: { _index: 'idlerep', _id: id } }), JSON.stringify({ n: Number(id) })]);
    const written = await a.request('POST', '/_bulk', { raw: `${lines.join('\n')}\n`, headers: NDJSON });
    assert.equal(written.body.errors, false, written.text);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // Two scheduled refreshes later, neither copy refreshed: the writes are on both, searchable on neither yet.
    assert.deepEqual(await copies(), before);
    const [primary, replica] = before as [(typeof before)[0], (typeof before)[0]];
    const replicaNode = [a, b].find((node) => node.nodeId === replica.node)!;
    const search = await replicaNode.request('GET', `/idlerep/_search?preference=_only_nodes:${replica.node}`);
    assert.equal(search.body.hits.total.value, 3, search.text);
    // Only the searched copy refreshed and left idleness; the primary still waits for its first search.
    const after = await copies();
    assert.deepEqual(after[0], primary);
    assert.deepEqual({ idle: after[1]!.idle, docs: after[1]!.docs }, { idle: false, docs: 3 });
    assert.ok(after[1]!.external > replica.external, JSON.stringify(after));
    const onPrimary = await a.request('GET', `/idlerep/_search?preference=_only_nodes:${primary.node}`);
    assert.equal(onPrimary.body.hits.total.value, 3, onPrimary.text);
  });

  test('refresh reaches a recovering copy that takes writes: refresh=true of _delete_by_query and _reindex, and _refresh, while the replica is not started yet', { timeout: TEST_TIMEOUT }, async () => {
    // The cluster-mode reindex-script failure (100 documents counted where 99 were left): the refresh went only to
    // started copies, so a replica that had finalized its recovery (its last refresh) but was not started yet took
    // the writes and missed the refresh; started a moment later, it served searches from before the writes.
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    const created = await a.request('PUT', '/recovering-refresh', { body: { settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' } } });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/recovering-refresh?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) lines.push(JSON.stringify({ index: { _index: 'recovering-refresh', _id: String(i) } }), JSON.stringify({ n: i }));
    assert.equal((await a.request('POST', '/_bulk?refresh=true', { raw: bulkOf(lines), headers: NDJSON })).body.errors, false);
    // The ids the reindex below deletes (ctx.op = 'delete' deletes the destination's document of the same id).
    const drops: string[] = [];
    for (let i = 15; i < 20; i++) drops.push(JSON.stringify({ index: { _index: 'recovering-refresh-drops', _id: String(i) } }), JSON.stringify({ n: i }));
    assert.equal((await a.request('POST', '/_bulk?refresh=true', { raw: bulkOf(drops), headers: NDJSON })).body.errors, false);
    const primaryNodeId = (await a.request('GET', '/_cluster/state/routing_table/recovering-refresh')).body.routing_table.indices['recovering-refresh'].shards['0'][0].node;
    const [source, target] = primaryNodeId === a.nodeId ? [a, b] : [b, a];

    // The primary answers the replica's start_recovery only when released: until then the replica is tracked and
    // in sync (it takes every write) but INITIALIZING in the cluster state, its finalize refresh behind it.
    let reached!: () => void;
    let release!: () => void;
    let refreshed: { status: number; body: any; text: string } | undefined;
    const recovered = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const restore = source.node.nodeServices.transport!.wrapHandlerForTest(START_RECOVERY_ACTION, (handler) => async (body, context) => {
      const answer = await handler(body, context);
      if ((body as StartRecoveryRequest).index === 'recovering-refresh') {
        reached();
        await gate;
      }
      return answer;
    });
    try {
      assert.equal((await a.request('PUT', '/recovering-refresh/_settings', { body: { index: { number_of_replicas: 1 } } })).status, 200);
      await recovered;
      const deleted = await b.request('POST', '/recovering-refresh/_delete_by_query?refresh=true', { body: { query: { range: { n: { lt: 5 } } } } });
      assert.equal(deleted.body.deleted, 5, deleted.text);
      const copied = await a.request('POST', '/_reindex?refresh=true', {
        body: { source: { index: 'recovering-refresh-drops' }, dest: { index: 'recovering-refresh' }, script: { source: "ctx.op = 'delete'" } },
      });
      assert.equal(copied.body.deleted, 5, copied.text);
      const more: string[] = [];
      for (let i = 100; i < 103; i++) more.push(JSON.stringify({ index: { _index: 'recovering-refresh', _id: String(i) } }), JSON.stringify({ n: i }));
      assert.equal((await b.request('POST', '/_bulk', { raw: bulkOf(more), headers: NDJSON })).body.errors, false);
      refreshed = await b.request('POST', '/recovering-refresh/_refresh');
      assert.equal(refreshed.status, 200, refreshed.text);
    } finally {
      release();
      restore();
    }
    await cluster.waitFor(a, '/_cluster/health/recovering-refresh?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    await cluster.waitFor(target, '/_cluster/health/recovering-refresh?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    // No scheduled refresh (refresh_interval -1): what each copy shows is what the refreshes made visible.
    for (const node of [source, target]) {
      const visible = await node.request('POST', `/recovering-refresh/_search?preference=_only_nodes:${node.nodeId}`, { body: { size: 100, query: { match_all: {} } } });
      assert.equal(visible.status, 200, visible.text);
      const ids = visible.body.hits.hits.map((hit: any) => Number(hit._id)).sort((x: number, y: number) => x - y);
      assert.deepEqual(ids, [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 100, 101, 102], `${node === source ? 'primary' : 'replica'} on ${node.nodeId}`);
    }
    // ES's broadcast replication counts: every copy in total, the primary and each tracked copy it refreshed.
    assert.deepEqual(refreshed?.body._shards, { total: 2, successful: 2, failed: 0 }, refreshed?.text);
  });

  test('flush reaches a recovering copy that takes writes (indices:admin/flush[s] on the primary, [s][r] on each copy it writes to)', { timeout: TEST_TIMEOUT }, async () => {
    // ES's TransportShardFlushAction is a replication action: a copy the primary tracks is flushed while it is still
    // INITIALIZING. The broadcast to started copies flushed the primary only (`successful: 1`) and left the writes
    // the recovering copy took in its translog.
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    const created = await a.request('PUT', '/recovering-flush', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/recovering-flush?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const docs = (from: number, to: number) => {
      const lines: string[] = [];
      for (let i = from; i < to; i++) lines.push(JSON.stringify({ index: { _index: 'recovering-flush', _id: String(i) } }), JSON.stringify({ n: i }));
      return bulkOf(lines);
    };
    assert.equal((await a.request('POST', '/_bulk', { raw: docs(0, 10), headers: NDJSON })).body.errors, false);
    const primaryNodeId = (await a.request('GET', '/_cluster/state/routing_table/recovering-flush')).body.routing_table.indices['recovering-flush'].shards['0'][0].node;
    const [source, target] = primaryNodeId === a.nodeId ? [a, b] : [b, a];
    const hold = holdStartRecoveryAnswer(source, 'recovering-flush', false);
    let flushed: { status: number; body: any; text: string };
    let uncommittedOnCopy: number;
    try {
      assert.equal((await a.request('PUT', '/recovering-flush/_settings', { body: { index: { number_of_replicas: 1 } } })).status, 200);
      await hold.reached;
      assert.equal((await b.request('POST', '/_bulk', { raw: docs(10, 15), headers: NDJSON })).body.errors, false);
      const copy = target.node.nodeServices.indices!.service.shard('recovering-flush', 0)!;
      assert.ok(copy.stats().engine.translog.uncommittedOperations > 0, 'the recovering copy took the writes');
      flushed = await target.request('POST', '/recovering-flush/_flush');
      uncommittedOnCopy = copy.stats().engine.translog.uncommittedOperations;
      const routing = (await a.request('GET', '/_cluster/state/routing_table/recovering-flush')).body.routing_table.indices['recovering-flush'].shards['0'];
      assert.equal(routing.find((entry: any) => !entry.primary).state, 'INITIALIZING', 'the copy was still recovering');
    } finally {
      hold.release();
      hold.restore();
    }
    assert.equal(flushed.status, 200, flushed.text);
    assert.deepEqual(flushed.body._shards, { total: 2, successful: 2, failed: 0 }, flushed.text);
    assert.equal(uncommittedOnCopy, 0, 'the recovering copy committed what it held');
    await cluster.waitFor(a, '/_cluster/health/recovering-flush?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
  });

  test('a copy that fails a refresh or a flush is listed in _shards.failures as ES lists it and stays in sync (ES fails a copy for a failed write only)', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    await a.request('PUT', '/failing-flush', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } });
    await cluster.waitFor(a, '/_cluster/health/failing-flush?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const state = a.node.nodeServices.clusterService.state();
    const { replicaNode } = placementOf([a, b], state, 'failing-flush');
    assert.equal((await a.request('PUT', '/failing-flush/_doc/1', { body: { x: 1 } })).status, 201);
    const restores = ['indices:admin/refresh[s][r]', 'indices:admin/flush[s][r]'].map((action) =>
      replicaNode.node.nodeServices.transport!.wrapHandlerForTest(action, () => async () => {
        throw new EsError('illegal_state_exception', `the disk under [failing-flush][0] is gone (${action})`);
      }),
    );
    try {
      for (const [path, action] of [
        ['/failing-flush/_refresh', 'indices:admin/refresh[s][r]'],
        ['/failing-flush/_flush?force=true', 'indices:admin/flush[s][r]'],
      ] as const) {
        const answer = await a.request('POST', path);
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(answer.body, {
          _shards: {
            total: 2,
            successful: 1,
            failed: 1,
            failures: [
              { shard: 0, index: 'failing-flush', status: 'INTERNAL_SERVER_ERROR', reason: { type: 'illegal_state_exception', reason: `the disk under [failing-flush][0] is gone (${action})` } },
            ],
          },
        });
      }
    } finally {
      for (const restore of restores) restore();
    }
    // Neither the master nor the primary took the copy out: it is started and in sync, as ES leaves it.
    const after = (await a.request('GET', '/_cluster/state/metadata,routing_table/failing-flush')).body;
    assert.equal(after.metadata.indices['failing-flush'].in_sync_allocations['0'].length, 2, JSON.stringify(after.metadata.indices['failing-flush'].in_sync_allocations));
    assert.deepEqual(after.routing_table.indices['failing-flush'].shards['0'].map((copy: any) => copy.state), ['STARTED', 'STARTED']);
  });

  test("a copy whose node the primary cannot reach: refresh and flush retry it, list it in _shards.failures after indices.replication.retry_timeout, count it in total only once it leaves the group (ES's ReplicationOperation)", { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    const index = 'unreachable-copy';
    await a.request('PUT', `/${index}`, { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } });
    await cluster.waitFor(a, `/_cluster/health/${index}?wait_for_status=green&timeout=30s`, (r) => r.body?.status === 'green');
    const { replicaNode, primaryNode } = placementOf([a, b], a.node.nodeServices.clusterService.state(), index);
    assert.equal((await a.request('PUT', `/${index}/_doc/1`, { body: { x: 1 } })).status, 201);
    const setRetryTimeout = async (value: string | null) =>
      assert.equal((await a.request('PUT', '/_cluster/settings', { body: { transient: { 'indices.replication.retry_timeout': value } } })).status, 200);
    await setRetryTimeout('1s');
    // The replica's node stays in the cluster (the master and the etcd lease see it); only the primary's refresh and
    // flush requests cannot reach it (ES's fail-to-send-no-connect rule).
    const reachAgain = primaryNode.node.nodeServices.transport!.failSendsToNodeForTest(replicaNode.nodeId, ['indices:admin/refresh[s][r]', 'indices:admin/flush[s][r]']);
    try {
      for (const path of [`/${index}/_refresh`, `/${index}/_flush`]) {
        const started = Date.now();
        const answer = await b.request('POST', path);
        assert.equal(answer.status, 200, answer.text);
        assert.ok(Date.now() - started >= 900, `${path} retried the copy for the retry timeout (${Date.now() - started} ms)`);
        const { failures, ...counts } = answer.body._shards;
        assert.deepEqual(counts, { total: 2, successful: 1, failed: 1 }, answer.text);
        assert.equal(failures.length, 1, answer.text);
        assert.deepEqual({ ...failures[0], reason: { ...failures[0].reason, reason: undefined } }, {
          shard: 0,
          index,
          status: 'INTERNAL_SERVER_ERROR',
          reason: { type: 'node_not_connected_exception', reason: undefined },
        });
        assert.match(failures[0].reason.reason, new RegExp(`^\\[${replicaNode.name}\\]\\[[^\\]]+\\] Node not connected$`), answer.text);
      }
      // Left in place, as ES leaves a copy that missed a refresh or flush: started and in sync.
      const kept = (await a.request('GET', `/_cluster/state/metadata,routing_table/${index}`)).body;
      assert.equal(kept.metadata.indices[index].in_sync_allocations['0'].length, 2, JSON.stringify(kept.metadata.indices[index]));
      assert.deepEqual(kept.routing_table.indices[index].shards['0'].map((copy: { state: string }) => copy.state), ['STARTED', 'STARTED']);

      // With a long retry timeout the refresh waits on the copy until the copy leaves the group, then counts it in
      // total only (ES cancels the retry with a shard-not-available exception): no failure, no wait for the timeout.
      await setRetryTimeout('2m');
      const started = Date.now();
      const refreshing = b.request('POST', `/${index}/_refresh`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await a.request('PUT', `/${index}/_settings`, { body: { index: { number_of_replicas: 0 } } })).status, 200);
      const refreshed = await refreshing;
      assert.equal(refreshed.status, 200, refreshed.text);
      assert.equal(refreshed.body._shards.successful, 1, refreshed.text);
      assert.equal(refreshed.body._shards.failed, 0, refreshed.text);
      assert.ok(Date.now() - started < 60_000, `the refresh ended when the copy left (${Date.now() - started} ms)`);
    } finally {
      reachAgain();
      await setRetryTimeout(null);
      await a.request('DELETE', `/${index}`);
    }
  });

  test('a recovering copy runs no scheduled refresh before its finalize; from its finalize on it refreshes on schedule', { timeout: TEST_TIMEOUT }, async () => {
    // ES's scheduledRefresh refreshes only a copy that allows reads (POST_RECOVERY, STARTED). A recovering copy
    // that wrote its buffer on schedule made the finalize wait behind that write (a 4.2 s finalize in the bench).
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    const index = 'recovering-schedule';
    const created = await a.request('PUT', `/${index}`, { body: { settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '100ms' } } });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, `/_cluster/health/${index}?wait_for_status=green&timeout=30s`, (r) => r.body?.status === 'green');
    const docs = (from: number, to: number): string => {
      const lines: string[] = [];
      for (let i = from; i < to; i++) lines.push(JSON.stringify({ index: { _index: index, _id: String(i) } }), JSON.stringify({ n: i }));
      return bulkOf(lines);
    };
    assert.equal((await a.request('POST', '/_bulk?refresh=true', { raw: docs(0, 20), headers: NDJSON })).body.errors, false);
    const primaryNodeId = (await a.request('GET', `/_cluster/state/routing_table/${index}`)).body.routing_table.indices[index].shards['0'][0].node;
    const target = primaryNodeId === a.nodeId ? b : a;

    // The copy's finalize waits until released: it has replayed the history and takes live writes meanwhile.
    let reached!: () => void;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const restore = target.node.nodeServices.transport!.wrapHandlerForTest(FINALIZE_ACTION, (handler) => async (body, context) => {
      reached();
      await gate;
      return handler(body as FinalizeRequest, context);
    });
    try {
      assert.equal((await a.request('PUT', `/${index}/_settings`, { body: { index: { number_of_replicas: 1 } } })).status, 200);
      await held;
      const copy = target.node.nodeServices.indices!.service.shard(index, 0)!;
      assert.equal(copy.state, 'recovering');
      const refreshesBefore = copy.stats().engine.refresh.total;
      assert.equal((await a.request('POST', '/_bulk', { raw: docs(20, 30), headers: NDJSON })).body.errors, false);
      // Ten refresh intervals with unrefreshed writes on the copy.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(copy.stats().engine.refresh.total, refreshesBefore, 'a recovering copy refreshed on schedule');
      // A refresh=wait_for write does not wait for the held finalize: the copy answers it at once, as ES's does
      // before POST_RECOVERY (its finalize refresh makes it visible before the copy serves a search).
      const waited = await Promise.race([
        a.request('POST', '/_bulk?refresh=wait_for', { raw: docs(30, 35), headers: NDJSON }),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 20_000)),
      ]);
      assert.equal(waited?.body.errors, false, 'refresh=wait_for waited for the recovering copy');
    } finally {
      release();
      restore();
    }
    await cluster.waitFor(a, `/_cluster/health/${index}?wait_for_status=green&timeout=30s`, (r) => r.body?.status === 'green');
    // Started, the copy shows what it took while recovering and refreshes on schedule again: later writes become
    // visible on it without a refresh request.
    assert.equal((await target.request('GET', `/${index}/_count?preference=_only_nodes:${target.nodeId}`)).body.count >= 35, true);
    assert.equal((await a.request('POST', '/_bulk', { raw: docs(35, 45), headers: NDJSON })).body.errors, false);
    await cluster.waitFor(target, `/${index}/_count?preference=_only_nodes:${target.nodeId}`, (r) => r.body?.count === 45);
  });

  test('a replica parses a large document in a parse worker, as its primary does, and holds it as the primary does', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    await a.request('PUT', '/large', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 }, mappings: { properties: { text: { type: 'text' } } } } });
    await cluster.waitFor(a, '/_cluster/health/large?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const { replicaNode, primaryNode } = placementOf([a, b], a.node.nodeServices.clusterService.state(), 'large');
    // What the replica's event loop parses itself: every source handed to the synchronous parse.
    const service = replicaNode.node.nodeServices.indices!.service.indexService('large')!;
    const parsedOnLoop: number[] = [];
    const parseOnLoop = service.parseDocument.bind(service);
    service.parseDocument = (source, id, routing) => {
      parsedOnLoop.push(source.length);
      return parseOnLoop(source, id, routing);
    };
    try {
      // 200 KB of words (the parse worker takes documents from 128 KiB), and a small one that stays on the loop.
      const words = Array.from({ length: 25_000 }, (_, i) => `w${i % 5000}`).join(' ');
      const big = await primaryNode.request('PUT', '/large/_doc/big', { body: { text: `${words} needle` } });
      assert.equal(big.status, 201, big.text);
      assert.deepEqual(big.body._shards, { total: 2, successful: 2, failed: 0 });
      assert.equal((await primaryNode.request('PUT', '/large/_doc/small', { body: { text: 'small needle' } })).status, 201);
      assert.deepEqual(parsedOnLoop.filter((length) => length >= 128 * 1024), [], 'no large source parsed on the replica\'s loop');
      assert.equal(parsedOnLoop.length, 1, 'the small document is parsed on the loop');
    } finally {
      service.parseDocument = parseOnLoop;
    }
    // The replica indexed it: found by its words on the replica's own copy, equal to the primary's.
    await assertCopiesEqual([a, b], 'large');
    const found = await replicaNode.request('POST', `/large/_search?preference=_only_nodes:${replicaNode.nodeId}`, { body: { query: { match: { text: 'w4999' } }, _source: false } });
    assert.deepEqual(found.body.hits.hits.map((hit: any) => hit._id), ['big']);
  });

  test('a replica refuses an operation of an older primary term', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    await a.request('PUT', '/terms', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } });
    await cluster.waitFor(a, '/_cluster/health/terms?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const state = a.node.nodeServices.clusterService.state();
    const { replica, replicaNode, primaryNode } = placementOf([a, b], state, 'terms');
    const metadata = state.indices.get('terms')!;
    const request = (primaryTerm: number): ReplicaRequest => ({
      index: 'terms',
      indexUuid: metadata.uuid,
      shard: 0,
      targetAllocationId: replica.allocationId!,
      primaryTerm,
      globalCheckpoint: -1,
      operations: [{ type: 'delete', id: 'x', seqNo: 1000, primaryTerm, version: 5 }],
      refresh: 'none',
    });
    const current = metadata.primaryTerms[0]!;
    const target = transportNode(state.nodes.get(replicaNode.nodeId)!);
    await assert.rejects(primaryNode.node.nodeServices.transport!.sendRequest(target, REPLICA_ACTION, request(current - 1)), (err: any) => {
      assert.equal(err.type, 'illegal_state_exception');
      assert.equal(err.reason, `[terms][0] operation primary term [${current - 1}] is too old (current [${current}])`);
      return true;
    });
    // Nothing of that operation reached the copy.
    const stats = await seqNoStats(replicaNode, 'terms');
    for (const copy of stats) assert.equal(copy.seq_no.max_seq_no, -1);
    // A request meant for another allocation of the shard is not applied either.
    await assert.rejects(
      primaryNode.node.nodeServices.transport!.sendRequest(target, REPLICA_ACTION, { ...request(current), targetAllocationId: 'not-this-copy' }),
      (err: any) => err.type === 'shard_not_found_exception',
    );
  });

  test('a replica that fails a write leaves the in-sync set before the write is acknowledged', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    await a.request('PUT', '/failing', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } });
    await cluster.waitFor(a, '/_cluster/health/failing?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const before = a.node.nodeServices.clusterService.state();
    const { replica, replicaNode, primaryNode } = placementOf([a, b], before, 'failing');
    assert.equal(before.indices.get('failing')!.inSyncAllocationIds[0]!.length, 2);
    // The replica's engine breaks underneath (as a disk failure would): its next write fails.
    const replicaShard = replicaNode.node.nodeServices.indices!.service.shard('failing', 0)!;
    await replicaShard.replicationEngine.close({ flush: false });

    const written = await primaryNode.request('PUT', '/failing/_doc/1', { body: { after: 'failure' } });
    assert.equal(written.status, 201, written.text);
    assert.equal(written.body._shards.total, 2);
    assert.equal(written.body._shards.successful, 1);
    assert.equal(written.body._shards.failed, 1);
    const failure = written.body._shards.failures[0];
    assert.equal(failure._index, 'failing');
    assert.equal(failure._shard, 0);
    assert.equal(failure._node, replicaNode.nodeId);
    assert.equal(failure.primary, false);
    assert.equal(typeof failure.reason.type, 'string');
    // When the write was acknowledged, the master had already taken the copy out of the in-sync set.
    const masterState = await primaryNode.request('GET', '/_cluster/state/metadata/failing');
    const inSync: string[] = masterState.body.metadata.indices.failing.in_sync_allocations['0'];
    assert.ok(!inSync.includes(replica.allocationId!), `in sync after the ack: ${inSync.join(', ')}`);
    assert.equal(inSync.length, 1);

    // The failed copy is allocated again, recovers from the primary and is equal to it.
    await cluster.waitFor(a, '/_cluster/health/failing?wait_for_status=green&timeout=60s', (r) => r.body?.status === 'green', 90_000);
    await assertCopiesEqual([a, b], 'failing');
  });

  test('wait_for_active_shards=2 with one active copy waits, then times out as ES', { timeout: TEST_TIMEOUT }, async () => {
    const [a] = cluster.nodes as [InProcessNode, InProcessNode];
    // Two replicas on two nodes: one stays unassigned, so at most two copies are active; ask for all three.
    await a.request('PUT', '/wfas', { body: { settings: { number_of_shards: 1, number_of_replicas: 2 } } });
    await cluster.waitFor(a, '/_cluster/health/wfas?wait_for_active_shards=2&timeout=30s', (r) => r.body?.active_shards === 2);
    const started = Date.now();
    const refused = await a.request('PUT', '/wfas/_doc/1?wait_for_active_shards=3&timeout=1s', { body: { x: 1 } });
    assert.ok(Date.now() - started >= 900, 'it waited for the timeout');
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error.type, 'unavailable_shards_exception');
    assert.equal(
      refused.body.error.reason,
      '[wfas][0] Not enough active copies to meet shard count of [3] (have 2, needed 3). Timeout: [1s], request: [BulkShardRequest [[wfas][0]] containing [index {[wfas][1], source[{"x":1}]}]]',
    );
    const all = await a.request('PUT', '/wfas/_doc/1?wait_for_active_shards=all&timeout=200ms', { body: { x: 1 } });
    assert.equal(all.status, 503, all.text);
    assert.match(all.body.error.reason, /^\[wfas\]\[0\] Not enough active copies to meet shard count of \[ALL\] \(have 2, needed 3\)\. Timeout: \[200ms\]/);
    const allowed = await a.request('PUT', '/wfas/_doc/1?wait_for_active_shards=2', { body: { x: 1 } });
    assert.equal(allowed.status, 201, allowed.text);
    // The unassigned replica counts in total, not as a failure.
    assert.deepEqual(allowed.body._shards, { total: 3, successful: 2, failed: 0 });
  });

  test('a new replica recovers by copying files while bulk requests keep coming, then equals its primary', { timeout: TEST_TIMEOUT }, async () => {
    const [a, b] = cluster.nodes as [InProcessNode, InProcessNode];
    await a.request('PUT', '/grow', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
    await cluster.waitFor(a, '/_cluster/health/grow?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    let next = 0;
    const batch = (): string => {
      const lines: string[] = [];
      for (let i = 0; i < 50; i++, next++) lines.push(JSON.stringify({ index: { _index: 'grow', _id: String(next % 700) } }), JSON.stringify({ n: next, pad: 'x'.repeat(200) }));
      return bulkOf(lines);
    };
    for (let i = 0; i < 10; i++) assert.equal((await a.request('POST', '/_bulk', { raw: batch(), headers: NDJSON })).body.errors, false);
    assert.equal((await a.request('POST', '/grow/_flush')).status, 200);

    let writing = true;
    let acknowledged = 0;
    const writer = (async () => {
      while (writing) {
        const bulk = await b.request('POST', '/_bulk', { raw: batch(), headers: NDJSON });
        assert.equal(bulk.body.errors, false, bulk.text);
        acknowledged += bulk.body.items.length;
      }
    })();
    const raised = await a.request('PUT', '/grow/_settings', { body: { index: { number_of_replicas: 1 } } });
    assert.equal(raised.status, 200, raised.text);
    await cluster.waitFor(a, '/_cluster/health/grow?wait_for_status=green&timeout=60s', (r) => r.body?.status === 'green', 90_000);
    // Let a few more bulk requests run against the recovered copy, then stop.
    const at = acknowledged;
    await cluster.waitFor(a, '/_cluster/health', () => acknowledged >= at + 150, 60_000);
    writing = false;
    await writer;
    await assertCopiesEqual([a, b], 'grow');

    const recovery = await a.request('GET', '/grow/_recovery');
    assert.equal(recovery.status, 200, recovery.text);
    const peer = recovery.body.grow.shards.find((shard: any) => shard.type === 'PEER');
    assert.ok(peer !== undefined, recovery.text);
    assert.equal(peer.stage, 'DONE');
    assert.equal(peer.primary, false);
    assert.ok(peer.index.files.recovered > 0, `files copied: ${JSON.stringify(peer.index)}`);
    assert.ok(peer.index.size.recovered_in_bytes > 0);
    assert.equal(peer.index.files.reused, 0);
    // ES's RecoveryState.toXContent, key for key (times in millis without ?human).
    assert.deepEqual(Object.keys(peer), ['id', 'type', 'stage', 'primary', 'start_time_in_millis', 'stop_time_in_millis', 'total_time_in_millis', 'source', 'target', 'index', 'translog', 'verify_index']);
    for (const node of [peer.source, peer.target]) assert.deepEqual(Object.keys(node), ['id', 'host', 'transport_address', 'ip', 'name']);
    assert.equal(peer.source.id, a.nodeId === peer.target.id ? b.nodeId : a.nodeId);
    assert.deepEqual(Object.keys(peer.index), ['size', 'files', 'total_time_in_millis', 'source_throttle_time_in_millis', 'target_throttle_time_in_millis']);
    assert.deepEqual(Object.keys(peer.index.size), ['total_in_bytes', 'reused_in_bytes', 'recovered_in_bytes', 'recovered_from_snapshot_in_bytes', 'percent']);
    assert.deepEqual(Object.keys(peer.index.files), ['total', 'reused', 'recovered', 'percent']);
    assert.equal(peer.index.files.percent, '100.0%');
    assert.deepEqual(Object.keys(peer.translog), ['recovered', 'total', 'percent', 'total_on_start', 'total_time_in_millis']);
    assert.deepEqual(Object.keys(peer.verify_index), ['check_index_time_in_millis', 'total_time_in_millis']);
    assert.ok(peer.total_time_in_millis >= peer.index.total_time_in_millis && peer.stop_time_in_millis >= peer.start_time_in_millis, JSON.stringify(peer));
    const cat = await a.request('GET', '/_cat/recovery/grow?h=type,stage,source_node,target_node,files_recovered&v');
    assert.match(cat.text, /peer\s+done/, cat.text);
    const catDefault = await a.request('GET', '/_cat/recovery/grow?v');
    assert.deepEqual(catDefault.text.split('\n')[0]!.trim().split(/\s+/), [
      'index', 'shard', 'time', 'type', 'stage', 'source_host', 'source_node', 'target_host', 'target_node', 'repository', 'snapshot',
      'files', 'files_recovered', 'files_percent', 'files_total', 'bytes', 'bytes_recovered', 'bytes_percent', 'bytes_total',
      'translog_ops', 'translog_ops_recovered', 'translog_ops_percent',
    ]);
    const peerRow = catDefault.text.split('\n').find((line) => /\speer\s/.test(line))!;
    assert.match(peerRow, /^grow\s+0\s+\S+\s+peer\s+done\s/, catDefault.text);
  });

  test('a primary relocates under bulk (allocation filters exclude its node) without losing or duplicating an acknowledged write', { timeout: TEST_TIMEOUT }, async () => {
    const third = await cluster.addNode();
    const nodes = cluster.nodes;
    const [a] = nodes as [InProcessNode];
    await cluster.waitFor(a, '/_cluster/health', (r) => r.body?.number_of_nodes === 3);
    await a.request('PUT', '/moving', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } });
    await cluster.waitFor(a, '/_cluster/health/moving?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const copiesOf = async (): Promise<Array<{ primary: boolean; node: string; state: string }>> =>
      (await a.request('GET', '/_cluster/state/routing_table/moving')).body.routing_table.indices.moving.shards['0'];
    const before = await copiesOf();
    const primaryNodeId = before.find((copy) => copy.primary)!.node;
    const writerNode = nodes.find((node) => node.nodeId !== primaryNodeId)!;

    // Unique ids written with op_type create: an acknowledged write applied twice would show as a conflict or a
    // version above 1; one lost would be missing.
    let writing = true;
    let next = 0;
    const acknowledged = new Set<string>();
    const notAcknowledged: string[] = [];
    const writer = (async () => {
      while (writing) {
        const lines: string[] = [];
        for (let i = 0; i < 25; i++, next++) lines.push(JSON.stringify({ create: { _index: 'moving', _id: `w${next}` } }), JSON.stringify({ n: next }));
        const bulk = await writerNode.request('POST', '/_bulk', { raw: bulkOf(lines), headers: NDJSON });
        assert.equal(bulk.status, 200, bulk.text);
        for (const item of bulk.body.items) {
          if (item.create.status === 201) acknowledged.add(item.create._id);
          else notAcknowledged.push(`${item.create._id} ${item.create.status} ${item.create.error?.type}: ${item.create.error?.reason}`);
        }
      }
    })();
    await cluster.waitFor(a, '/_cluster/health', () => acknowledged.size >= 200, 60_000);
    const excluded = await a.request('PUT', '/moving/_settings', { body: { index: { 'routing.allocation.exclude._id': primaryNodeId } } });
    assert.equal(excluded.status, 200, excluded.text);
    // The primary leaves the excluded node; the index is green again with no relocation left.
    await cluster.waitFor(
      a,
      '/_cluster/state/routing_table/moving',
      (r) => {
        const copies = r.body?.routing_table?.indices?.moving?.shards?.['0'] ?? [];
        return copies.length === 2 && copies.every((copy: any) => copy.state === 'STARTED' && copy.node !== primaryNodeId);
      },
      120_000,
    );
    const at = acknowledged.size;
    try {
      await cluster.waitFor(a, '/_cluster/health', () => acknowledged.size >= at + 100, 60_000);
    } catch (err) {
      // Acknowledged writes stopped growing after the relocation in 3 of 40 runs (no bulk hung: its items failed):
      // name the failures, the write tasks still running on each node and the routing.
      const tasks = await Promise.all(nodes.map(async (node) => `${node.nodeId}: ${(await node.request('GET', '/_tasks?detailed=true&actions=*write*')).text}`));
      const routing = (await a.request('GET', '/_cluster/state/routing_table/moving')).text;
      assert.fail(`${(err as Error).message}\nold primary node ${primaryNodeId}, writer ${writerNode.nodeId}, ${acknowledged.size} acknowledged (${at} at the relocation)\nrouting: ${routing}\ntasks:\n${tasks.join('\n')}\nlast items not acknowledged (of ${notAcknowledged.length}): ${notAcknowledged.slice(-5).join('; ')}`);
    }
    writing = false;
    await writer;
    const after = await copiesOf();
    assert.ok(after.some((copy) => copy.primary && copy.node === third.nodeId) || after.some((copy) => copy.primary && copy.node !== primaryNodeId), JSON.stringify(after));
    const holders = nodes.filter((node) => after.some((copy) => copy.node === node.nodeId));
    let count: number;
    try {
      count = await assertCopiesEqual(holders, 'moving');
    } catch (err) {
      // This check failed once in eight runs with its details lost: say which copy lacks what.
      assert.fail(`${(err as Error).message}\n${await divergenceReport(holders, 'moving', after)}\nnot acknowledged: ${notAcknowledged.join('; ')}`);
    }
    const docs = await copyOn(holders[0]!, 'moving');
    for (const id of acknowledged) assert.ok(docs.has(id), `acknowledged ${id} is on the copies`);
    for (const [id, doc] of docs) assert.equal((doc as { version: number }).version, 1, `${id} written once`);
    assert.ok(count >= acknowledged.size);
    // The new primary came by a peer recovery from the old one (a relocation, not a new empty copy).
    const recovery = await a.request('GET', '/moving/_recovery');
    const moved = recovery.body.moving.shards.find((shard: any) => shard.primary);
    assert.equal(moved.type, 'PEER', recovery.text);
    assert.equal(moved.stage, 'DONE');
    assert.equal(moved.source.id, primaryNodeId);
  });

  test('a write the relocated primary forwards to its target before the target applies another state reaches every copy', { timeout: TEST_TIMEOUT }, async () => {
    // The relocation-under-bulk test's divergence (1 in ~72 runs: one bulk request, w700-w724, on one copy only):
    // the target took over primary mode before any state reached it after it opened, so it knew no replication
    // group and acknowledged the forwarded bulk having sent it to no other copy.
    while (cluster.nodes.length < 3) await cluster.addNode();
    const [a] = cluster.nodes as [InProcessNode];
    const [p, r, t] = cluster.nodes.slice(-3) as [InProcessNode, InProcessNode, InProcessNode];
    const created = await a.request('PUT', '/handoff', {
      body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${p.nodeId},${r.nodeId}` } },
    });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/handoff?wait_for_status=green&timeout=30s', (res) => res.body?.status === 'green');
    const routing = (await a.request('GET', '/_cluster/state/routing_table/handoff')).body.routing_table.indices.handoff.shards['0'] as Array<{ primary: boolean; node: string }>;
    const [source, replica] = routing.find((copy) => copy.primary)!.node === p.nodeId ? [p, r] : [r, p];
    assert.equal((await a.request('PUT', '/handoff/_doc/before', { body: { n: -1 } })).status, 201);

    const hold = holdStartRecoveryAnswer(source, 'handoff', true);
    try {
      const moved = await a.request('PUT', '/handoff/_settings', { body: { index: { 'routing.allocation.include._id': `${t.nodeId},${replica.nodeId}` } } });
      assert.equal(moved.status, 200, moved.text);
      await hold.reached;
      // Through the source's node: its state still names it the (relocating) primary, so it forwards to the target.
      const lines: string[] = [];
      for (let i = 0; i < 25; i++) lines.push(JSON.stringify({ create: { _index: 'handoff', _id: `h${i}` } }), JSON.stringify({ n: i }));
      const bulk = await source.request('POST', '/_bulk', { raw: bulkOf(lines), headers: NDJSON });
      assert.equal(bulk.status, 200, bulk.text);
      assert.equal(bulk.body.errors, false, bulk.text);
      // Every copy the target knows of took the operations: it, the replica and the relocated source.
      assert.deepEqual(bulk.body.items[0].create._shards, { total: 3, successful: 3, failed: 0 }, bulk.text);
    } finally {
      hold.release();
      hold.restore();
    }
    await cluster.waitFor(
      a,
      '/_cluster/state/routing_table/handoff',
      (res) => {
        const copies = res.body?.routing_table?.indices?.handoff?.shards?.['0'] ?? [];
        return copies.length === 2 && copies.every((copy: any) => copy.state === 'STARTED' && copy.node !== source.nodeId);
      },
      60_000,
    );
    const count = await assertCopiesEqual([t, replica], 'handoff').catch(async (err: Error) => {
      const after = (await a.request('GET', '/_cluster/state/routing_table/handoff')).body.routing_table.indices.handoff.shards['0'];
      assert.fail(`${err.message}\n${await divergenceReport([t, replica], 'handoff', after)}`);
    });
    assert.equal(count, 26);
  });

  test('a relocation target that dies after the handoff: the source fails, an in-sync replica is promoted, nothing acknowledged is lost and writes go on', { timeout: TEST_TIMEOUT }, async () => {
    // ES's IndexShardRelocatedException: the source cannot take primary mode back (the target may still run as a
    // primary), so it fails and the master promotes an in-sync replica under a new term. Before, the source went
    // back to STARTED but stayed relocated, and every write to the shard failed.
    while (cluster.nodes.length < 3) await cluster.addNode();
    const [a] = cluster.nodes as [InProcessNode];
    const [p, r] = cluster.nodes.slice(-2) as [InProcessNode, InProcessNode];
    const target = await cluster.addNode();
    const created = await a.request('PUT', '/orphan', {
      body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${p.nodeId},${r.nodeId}` } },
    });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/orphan?wait_for_status=green&timeout=30s', (res) => res.body?.status === 'green');
    const copies = async (): Promise<Array<{ primary: boolean; node: string; state: string }>> =>
      (await a.request('GET', '/_cluster/state/routing_table/orphan')).body.routing_table.indices.orphan.shards['0'];
    const [source, replica] = (await copies()).find((copy) => copy.primary)!.node === p.nodeId ? [p, r] : [r, p];
    const termBefore = (await a.request('GET', '/_cluster/state/metadata/orphan')).body.metadata.indices.orphan.primary_terms['0'] as number;
    assert.equal((await a.request('PUT', '/orphan/_doc/before', { body: { n: -1 } })).status, 201);

    const hold = holdStartRecoveryAnswer(source, 'orphan', true);
    try {
      const moved = await a.request('PUT', '/orphan/_settings', { body: { index: { 'routing.allocation.include._id': `${target.nodeId},${replica.nodeId}` } } });
      assert.equal(moved.status, 200, moved.text);
      await hold.reached;
      // Acknowledged by the target (the primary now), which replicated it to the replica and the source.
      const lines: string[] = [];
      for (let i = 0; i < 10; i++) lines.push(JSON.stringify({ create: { _index: 'orphan', _id: `o${i}` } }), JSON.stringify({ n: i }));
      const bulk = await source.request('POST', '/_bulk', { raw: bulkOf(lines), headers: NDJSON });
      assert.equal(bulk.body.errors, false, bulk.text);
      // The target's node goes away before it could report itself started (its connections close, its lease ends).
      await target.stop();
      cluster.nodes.splice(cluster.nodes.indexOf(target), 1);
    } finally {
      hold.release();
      hold.restore();
    }
    // The relocation is cancelled, the source fails, and the replica is the primary under a newer term.
    await cluster.waitFor(
      a,
      '/_cluster/state/routing_table,metadata/orphan',
      (res) => {
        const shard = res.body?.routing_table?.indices?.orphan?.shards?.['0'] ?? [];
        const term = res.body?.metadata?.indices?.orphan?.primary_terms?.['0'];
        return shard.some((copy: any) => copy.primary && copy.state === 'STARTED' && copy.node === replica.nodeId) && term > termBefore;
      },
      60_000,
    );
    const after = await source.request('PUT', '/orphan/_doc/after?timeout=20s', { body: { n: 99 } });
    assert.equal(after.status, 201, after.text);
    // Every acknowledged write is on the promoted primary: the ten the dead target acknowledged, the two others.
    await replica.request('POST', '/orphan/_refresh');
    const held = await copyOn(replica, 'orphan');
    for (const id of ['before', 'after', ...Array.from({ length: 10 }, (_, i) => `o${i}`)]) assert.ok(held.has(id), `${id} is on the new primary`);
    assert.equal(held.size, 12);
    // The source's node takes a copy again (recovered from the new primary), and both copies hold every write.
    const back = await a.request('PUT', '/orphan/_settings', { body: { index: { 'routing.allocation.include._id': `${source.nodeId},${replica.nodeId}` } } });
    assert.equal(back.status, 200, back.text);
    await cluster.waitFor(a, '/_cluster/health/orphan?wait_for_status=green&timeout=30s', (res) => res.body?.status === 'green', 60_000).catch(async (err: Error) => {
      const st = (await a.request('GET', '/_cluster/state/routing_table,nodes/orphan')).body;
      const ex = (await a.request('GET', '/_cluster/allocation/explain', { body: { index: 'orphan', shard: 0, primary: false } })).text;
      assert.fail(`${err.message}\nrouting ${JSON.stringify(st.routing_table)}\nnodes ${JSON.stringify(Object.keys(st.nodes ?? {}))}, source ${source.nodeId}\nexplain ${ex}`);
    });
    assert.equal(await assertCopiesEqual([source, replica], 'orphan'), 12);
  });

  test('a node on its way out never registers again when the others revoke its lease before it stopped', { timeout: TEST_TIMEOUT }, async () => {
    // The shutdown closes the transport before the coordinator; meanwhile the others find the port closed and
    // revoke the node's lease. It registered again, came back as a member nothing could reach, was given shards
    // and left again: a replica given to it then waited out index.unassigned.node_left.delayed_timeout (1m) for a
    // node gone for good (seen as a 60 s yellow in the relocation test above).
    while (cluster.nodes.length < 3) await cluster.addNode();
    const [a] = cluster.nodes as [InProcessNode];
    const leaving = await cluster.addNode();
    await cluster.waitFor(a, '/_cluster/health', (res) => res.body?.number_of_nodes === cluster.nodes.length);
    let left = false;
    let cameBack = 0;
    const unsubscribe = a.node.nodeServices.clusterService.onChange((state) => {
      if (!state.nodes.has(leaving.nodeId)) left = true;
      else if (left) cameBack++;
    });
    // Hold its shutdown where a slow close of its shards would: the transport is closed, the coordinator not yet.
    const coordinator = (leaving.node as unknown as { coordinator: { stop: () => Promise<void> } }).coordinator;
    const stopCoordinator = coordinator.stop.bind(coordinator);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    coordinator.stop = async () => {
      await held;
      return stopCoordinator();
    };
    cluster.nodes.splice(cluster.nodes.indexOf(leaving), 1);
    const stopping = leaving.stop();
    try {
      await cluster.waitFor(a, '/_cluster/health', (res) => res.body?.number_of_nodes === cluster.nodes.length, 30_000);
      // Its etcd client learns of the revoked lease at its next keepalive (a third of the 3 s lease).
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      assert.equal(cameBack, 0, `the stopping node was in ${cameBack} states published after it had left`);
    } finally {
      release();
      await stopping;
      unsubscribe();
    }
  });

  test('a node deletes the files of a copy it no longer holds once the shard is active elsewhere: replicas reduced, relocated away', { timeout: TEST_TIMEOUT }, async () => {
    // ES's IndicesStore. Before, a removed replica's or a relocated copy's directory stayed on disk for good.
    while (cluster.nodes.length < 3) await cluster.addNode();
    const [a] = cluster.nodes as [InProcessNode];
    const [p, r, t] = cluster.nodes.slice(-3) as [InProcessNode, InProcessNode, InProcessNode];
    const created = await a.request('PUT', '/leftover', {
      body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${p.nodeId},${r.nodeId}` } },
    });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/leftover?wait_for_status=green&timeout=30s', (res) => res.body?.status === 'green');
    assert.equal((await a.request('PUT', '/leftover/_doc/1?refresh=true', { body: { n: 1 } })).status, 201);
    const uuid = (await a.request('GET', '/leftover/_settings')).body.leftover.settings.index.uuid as string;
    const shardPathOn = (node: InProcessNode): string => node.node.nodeServices.indices!.service.shardPath(uuid, 0);
    const routing = (await a.request('GET', '/_cluster/state/routing_table/leftover')).body.routing_table.indices.leftover.shards['0'] as Array<{ primary: boolean; node: string }>;
    const [primaryNode, replicaNode] = routing.find((copy) => copy.primary)!.node === p.nodeId ? [p, r] : [r, p];
    const gone = async (path: string, what: string): Promise<void> => {
      const deadline = Date.now() + 30_000;
      while (existsSync(path)) {
        if (Date.now() > deadline) assert.fail(`${what}: ${path} is still on disk`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    assert.ok(existsSync(shardPathOn(replicaNode)));

    assert.equal((await a.request('PUT', '/leftover/_settings', { body: { index: { number_of_replicas: 0 } } })).status, 200);
    await gone(shardPathOn(replicaNode), 'the removed replica');
    assert.ok(existsSync(shardPathOn(primaryNode)), 'the primary keeps its files');

    assert.equal((await a.request('PUT', '/leftover/_settings', { body: { index: { 'routing.allocation.include._id': t.nodeId } } })).status, 200);
    await cluster.waitFor(a, '/_cluster/state/routing_table/leftover', (res) => {
      const copies = res.body?.routing_table?.indices?.leftover?.shards?.['0'] ?? [];
      return copies.length === 1 && copies[0].state === 'STARTED' && copies[0].node === t.nodeId;
    }, 60_000);
    await gone(shardPathOn(primaryNode), 'the relocated copy\'s source');
    assert.ok(existsSync(shardPathOn(t)));
    const got = await a.request('GET', '/leftover/_doc/1');
    assert.equal(got.status, 200, got.text);
  });

  test('a promoted replica keeps a lease for its former primary\'s node, whose copy comes back by operations when the node returns', { timeout: TEST_TIMEOUT }, async () => {
    while (cluster.nodes.length < 3) await cluster.addNode();
    const master = (await cluster.nodes[0]!.request('GET', '/_cat/master?h=id')).text.trim();
    const [one, two] = cluster.nodes.filter((node) => node.nodeId !== master) as [InProcessNode, InProcessNode];
    const observer = cluster.nodes.find((node) => node.nodeId === master)!;
    const created = await observer.request('PUT', '/former-primary', {
      body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${one.nodeId},${two.nodeId}` } },
    });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(observer, '/_cluster/health/former-primary?wait_for_status=green&timeout=30s', (res) => res.body?.status === 'green');
    const docs = (from: number, count: number) => bulkOf(Array.from({ length: count }, (_, i) => `{"index":{"_id":"${from + i}"}}\n{"n":${from + i}}`));
    assert.equal((await observer.request('POST', '/former-primary/_bulk', { raw: docs(0, 20), headers: { 'content-type': 'application/x-ndjson' } })).body.errors, false);
    const { primaryNode, replicaNode } = placementOf([one, two], observer.node.nodeServices.clusterService.state(), 'former-primary');
    const { dataPath, nodeId } = primaryNode;
    await primaryNode.stop({ keepData: true });
    cluster.nodes.splice(cluster.nodes.indexOf(primaryNode), 1);
    await cluster.waitFor(observer, '/_cluster/health/former-primary', (res) => res.body?.active_primary_shards === 1 && res.body?.number_of_nodes === 2);
    const promotedCopy = (res: { body?: any }) => (res.body?.indices?.['former-primary']?.shards['0'] ?? []).find((copy: any) => copy.routing.node === replicaNode.nodeId && copy.routing.primary);
    const promoted = await cluster.waitFor(replicaNode, '/former-primary/_stats?level=shards', (res) => promotedCopy(res)?.retention_leases.primary_term > 1);
    const leases = (promotedCopy(promoted).retention_leases.leases as Array<{ id: string }>).map((lease) => lease.id);
    assert.ok(leases.includes(`peer_recovery/${nodeId}`), `the promoted primary keeps a lease for the former primary's node: ${JSON.stringify(leases)}`);
    assert.equal((await observer.request('POST', '/former-primary/_bulk', { raw: docs(20, 10), headers: { 'content-type': 'application/x-ndjson' } })).body.errors, false);

    const back = await cluster.addNode({}, { dataPath });
    assert.equal(back.nodeId, nodeId);
    await cluster.waitFor(observer, '/_cluster/health/former-primary?wait_for_status=green&timeout=30s', (res) => res.body?.status === 'green');
    const recoveries = (await observer.request('GET', '/former-primary/_recovery')).body['former-primary'].shards as Array<{ type: string; target: { id: string }; index: { files: { recovered: number } }; translog: { recovered: number } }>;
    const returned = recoveries.find((entry) => entry.target.id === nodeId);
    assert.equal(returned?.type, 'PEER', JSON.stringify(recoveries));
    assert.equal(returned?.index.files.recovered, 0, `no file copied: ${JSON.stringify(returned)}`);
    assert.ok(returned!.translog.recovered >= 10, `the 10 writes it missed were replayed: ${JSON.stringify(returned)}`);
    await assertCopiesEqual([replicaNode, back], 'former-primary');
  });

  test('a node that was away when an index was deleted deletes its files when it comes back (the index graveyard)', { timeout: TEST_TIMEOUT }, async () => {
    while (cluster.nodes.length < 3) await cluster.addNode();
    const [a] = cluster.nodes as [InProcessNode];
    const [p, away] = cluster.nodes.slice(-2) as [InProcessNode, InProcessNode];
    const created = await a.request('PUT', '/deleted-away', {
      body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${p.nodeId},${away.nodeId}` } },
    });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/deleted-away?wait_for_status=green&timeout=30s', (res) => res.body?.status === 'green');
    const uuid = (await a.request('GET', '/deleted-away/_settings')).body['deleted-away'].settings.index.uuid as string;
    const indexPath = join(away.node.nodeServices.indices!.service.indicesPath, uuid);
    assert.ok(existsSync(indexPath));
    const { dataPath, nodeId } = away;
    await away.stop({ keepData: true });
    cluster.nodes.splice(cluster.nodes.indexOf(away), 1);
    assert.equal((await a.request('DELETE', '/deleted-away')).status, 200);
    assert.ok(existsSync(indexPath), 'the stopped node kept its files');
    const back = await cluster.addNode({}, { dataPath });
    assert.equal(back.nodeId, nodeId);
    const deadline = Date.now() + 30_000;
    while (existsSync(indexPath)) {
      if (Date.now() > deadline) assert.fail(`${indexPath} is still on disk after the node came back`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  test('file-based recovery keeps to indices.recovery.max_bytes_per_sec', { timeout: TEST_TIMEOUT }, async () => {
    const [a] = cluster.nodes as [InProcessNode];
    await a.request('PUT', '/throttled', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
    await cluster.waitFor(a, '/_cluster/health/throttled?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    // About 2 MB of random (incompressible) text, committed.
    for (let round = 0; round < 4; round++) {
      const lines: string[] = [];
      for (let i = 0; i < 500; i++) lines.push(JSON.stringify({ index: { _index: 'throttled', _id: `${round}-${i}` } }), JSON.stringify({ blob: randomBytes(768).toString('base64') }));
      assert.equal((await a.request('POST', '/_bulk', { raw: bulkOf(lines), headers: NDJSON })).body.errors, false);
    }
    assert.equal((await a.request('POST', '/throttled/_flush')).status, 200);
    const limited = await a.request('PUT', '/_cluster/settings', { body: { transient: { 'indices.recovery.max_bytes_per_sec': '512kb' } } });
    assert.equal(limited.status, 200, limited.text);
    try {
      await a.request('PUT', '/throttled/_settings', { body: { index: { number_of_replicas: 1 } } });
      await cluster.waitFor(a, '/_cluster/health/throttled?wait_for_status=green&timeout=60s', (r) => r.body?.status === 'green', 120_000);
      const recovery = await a.request('GET', '/throttled/_recovery');
      const peer = recovery.body.throttled.shards.find((shard: any) => shard.type === 'PEER');
      const bytes: number = peer.index.size.recovered_in_bytes;
      assert.ok(bytes > 1_000_000, `copied ${bytes} bytes`);
      // At 512kb/s the copy cannot take less than bytes / 512 KiB seconds (less the first chunk, sent at once).
      const floorMillis = ((bytes - 512 * 1024) / (512 * 1024)) * 1000;
      assert.ok(peer.index.total_time_in_millis >= floorMillis * 0.9, `index stage ${peer.index.total_time_in_millis} ms for ${bytes} bytes`);
      assert.ok(peer.index.source_throttle_time_in_millis > 0, JSON.stringify(peer.index));
    } finally {
      await a.request('PUT', '/_cluster/settings', { body: { transient: { 'indices.recovery.max_bytes_per_sec': null } } });
    }
  });

  test('index.auto_expand_replicas follows data nodes joining and leaving; new copies recover and equal the primary', { timeout: TEST_TIMEOUT }, async () => {
    const [a] = cluster.nodes as [InProcessNode];
    const nodesBefore = cluster.nodes.length;
    await a.request('PUT', '/expand', { body: { settings: { number_of_shards: 1, auto_expand_replicas: '0-all' } } });
    await cluster.waitFor(a, '/_cluster/health/expand?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green', 60_000);
    const lines: string[] = [];
    for (let i = 0; i < 100; i++) lines.push(JSON.stringify({ index: { _index: 'expand', _id: String(i) } }), JSON.stringify({ i }));
    assert.equal((await a.request('POST', '/_bulk', { raw: bulkOf(lines), headers: NDJSON })).body.errors, false);
    const replicas = async (): Promise<string> => (await a.request('GET', '/expand/_settings')).body.expand.settings.index.number_of_replicas;
    assert.equal(await replicas(), String(nodesBefore - 1));

    const joined = await cluster.addNode();
    await cluster.waitFor(a, '/_cluster/health/expand', (r) => r.body?.status === 'green' && r.body?.active_shards === nodesBefore + 1, 90_000);
    assert.equal(await replicas(), String(nodesBefore));
    await assertCopiesEqual(cluster.nodes, 'expand');

    await joined.stop();
    cluster.nodes.splice(cluster.nodes.indexOf(joined), 1);
    await cluster.waitFor(a, '/_cluster/health/expand', (r) => r.body?.status === 'green' && r.body?.active_shards === nodesBefore, 90_000);
    assert.equal(await replicas(), String(nodesBefore - 1));
    // A write after the copy left is acknowledged by the copies that remain.
    const written = await a.request('PUT', '/expand/_doc/after', { body: { x: 1 } });
    assert.deepEqual(written.body._shards, { total: nodesBefore, successful: nodesBefore, failed: 0 });
  });
});
