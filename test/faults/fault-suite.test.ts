/**
 * The fault suite (issue 14): real node processes on etcd, writers recording every acknowledged `_bulk` item,
 * faults at seeded random moments, then the checkers (checkers.ts): every acknowledged write on every in-sync
 * copy with its acknowledged version, no (shard, seq_no) acknowledged twice, no diverged copy, one publisher per
 * master term. The seed is printed; `GANNET_FAULT_SEED=<seed>` repeats a run.
 *
 * `npm test` runs the short profile (10 kill -9 cycles of a primary's node, a master kill, a pause of a
 * primary's node past its lease, an etcd kill -9, a partition); `npm run test:faults` the full one
 * (GANNET_FAULTS=full: more cycles and each fault several times).
 *
 * With one replica per shard (the default), a killed node's primaries are replaced by their promoted in-sync
 * replicas (decision 0013) while the node is down; the node started again gets its copies back as replicas,
 * recovered from the new primaries. The checkers then prove that nothing acknowledged was lost, that every
 * in-sync copy holds every acknowledged version, and that no copy diverged (a copy's operations above the global
 * checkpoint that the new primary lacked were rolled back).
 */
import { after, describe, test } from 'node:test';
import { FaultRun } from './fault-run.js';
import { NetnsLab } from './netns-lab.js';

const full = process.env['GANNET_FAULTS'] === 'full';
const KILL_CYCLES = full ? 25 : 10;
const REPEATS = full ? 3 : 1;
// One replica per shard: every copy is read on its own node and compared (GANNET_FAULT_REPLICAS overrides). A kill
// cycle promotes the lost primaries' replicas; the returning node's copies recover from the new primaries.
const REPLICAS = Number(process.env['GANNET_FAULT_REPLICAS'] ?? '1');

describe('fault suite on one loopback cluster', { timeout: (full ? 60 : 20) * 60_000 }, () => {
  let run: FaultRun | undefined;
  after(async () => {
    if (run !== undefined) console.log(`fault suite (loopback): ${run.summary()}`);
    await run?.stop();
  });

  test('kill -9 of primaries\' nodes, master kills, pauses past the lease and etcd kills lose no acknowledged write', async () => {
    run = await FaultRun.start({ nodes: 3, shards: 3, replicas: REPLICAS });
    try {
      for (let cycle = 1; cycle <= KILL_CYCLES; cycle++) await run.killPrimaryNode(cycle);
      for (let i = 0; i < REPEATS; i++) {
        await run.killMaster();
        await run.pausePrimaryNode();
        await run.killEtcd();
      }
      await run.check();
    } catch (err) {
      if (!String((err as Error).message).includes('=== fault history')) (err as Error).message += `\n\n${run.history()}`;
      throw err;
    }
  });
});

describe('fault suite with a network partition', { timeout: (full ? 30 : 10) * 60_000 }, () => {
  const unavailable = NetnsLab.unavailableReason();
  let lab: NetnsLab | undefined;
  let run: FaultRun | undefined;
  after(async () => {
    if (run !== undefined) console.log(`fault suite (partition): ${run.summary()}`);
    await run?.stop();
    lab?.destroy();
  });

  test('a node cut off past its lease (ip netns, veth, bridge) and healed loses no acknowledged write', { skip: unavailable }, async () => {
    lab = NetnsLab.create(3);
    run = await FaultRun.start({ nodes: 3, shards: 3, replicas: REPLICAS, lab });
    try {
      for (let i = 0; i < REPEATS; i++) await run.partitionNode();
      await run.check();
    } catch (err) {
      if (!String((err as Error).message).includes('=== fault history')) (err as Error).message += `\n\n${run.history()}`;
      throw err;
    }
  });
});
