/**
 * The durability promise end to end (reliability goal D1 on one node): while clients send `_bulk` requests
 * continuously, the node is SIGKILLed at a random moment, restarted on the same data path, and every document
 * whose write was acknowledged must be there with (at least) its acknowledged version — exactly it when no later
 * write touched the id. Overwrites of earlier ids are mixed in so versions matter, and some cycles kill the node
 * while it is still recovering from the previous kill. The seed is printed; rerun one with
 * GANNET_CRASH_SEED=<seed>. SIGKILL keeps the page cache, so this checks acknowledging-before-writing and
 * recovery; fsync ordering is the translog's power-loss unit test's business.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeProcess, rawRequest } from '../helpers/node-process.js';

const CYCLES = 20;
const WORKERS = 3;
const BATCH = 40;
const LONG_BATCH = 300;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What the clients know about one id. Concurrent requests may apply in either order, so the check is on counts:
 * every write to an id adds one to its version, so when every write sent was answered the version must equal
 * the highest acknowledged one; writes whose answer was lost to the kill may or may not have happened.
 */
interface IdHistory {
  sent: number;
  /** Writes with a definite answer (acknowledged, or refused). */
  answered: number;
  maxAckedVersion: number;
}

test(`kill -9 during continuous _bulk, ${CYCLES} cycles: every acknowledged document survives`, { timeout: 300_000 }, async () => {
  const seed = Number(process.env['GANNET_CRASH_SEED'] ?? Date.now() % 1_000_000);
  console.log(`bulk crash seed ${seed}`);
  const random = mulberry32(seed);
  const dataPath = mkdtempSync(join(tmpdir(), 'gannet-bulk-crash-'));
  const history = new Map<string, IdHistory>();
  const sentIds: string[] = [];
  let node: NodeProcess | undefined;
  let totalAcked = 0;
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      node = await NodeProcess.start({ dataPath, keepData: true, settings: { 'node.name': 'crash-node' } });
      if (cycle === 0) {
        const created = await node.request('PUT', '/crash', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
        assert.equal(created.status, 200, created.text);
      }
      const health = await node.request('GET', '/_cluster/health/crash?wait_for_status=green&timeout=30s');
      assert.equal(health.body.status, 'green', `cycle ${cycle}: ${health.text}`);
      await verify(node, history, cycle);

      // Every few cycles the kill lands while the next start is still recovering, without new writes.
      if (cycle % 5 === 4) {
        await node.kill9();
        node = await NodeProcess.start({ dataPath, keepData: true, settings: { 'node.name': 'crash-node' } });
        setTimeout(() => void node?.kill9(), Math.floor(random() * 50));
        await node.exitPromise;
        continue;
      }

      let stop = false;
      const port = node.port;
      const workers = Array.from({ length: WORKERS }, async (_, worker) => {
        for (let batch = 0; !stop; batch++) {
          const ids: string[] = [];
          const lines: string[] = [];
          // Some requests are longer than the bulk executor's run (128 items), so runs applied without waiting
          // for the translog (durability 'defer') are killed mid-request too.
          const size = random() < 0.3 ? LONG_BATCH : BATCH;
          for (let i = 0; i < size; i++) {
            // One in four items rewrites an id of an earlier cycle, so versions above 1 are checked too.
            const reuse = sentIds.length > 0 && random() < 0.25;
            const id = reuse ? sentIds[Math.floor(random() * sentIds.length)]! : `c${cycle}-w${worker}-b${batch}-${i}`;
            ids.push(id);
            let entry = history.get(id);
            if (entry === undefined) {
              history.set(id, (entry = { sent: 0, answered: 0, maxAckedVersion: 0 }));
              sentIds.push(id);
            }
            entry.sent++;
            lines.push(JSON.stringify({ index: { _index: 'crash', _id: id } }), JSON.stringify({ cycle, worker, batch, i, pad: 'x'.repeat(Math.floor(random() * 200)) }));
          }
          let res;
          try {
            res = await rawRequest(port, 'POST', '/_bulk', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
          } catch {
            return; // the node died under this request: nothing in it counts as acknowledged
          }
          if (res.status !== 200 || res.body === undefined) return;
          res.body.items.forEach((item: { index: { status: number; _version: number } }, position: number) => {
            const entry = history.get(ids[position]!)!;
            entry.answered++;
            if (item.index.status === 200 || item.index.status === 201) {
              entry.maxAckedVersion = Math.max(entry.maxAckedVersion, item.index._version);
              totalAcked++;
            }
          });
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(random() * 1200)));
      await node.kill9();
      stop = true;
      await Promise.all(workers);
    }
    node = await NodeProcess.start({ dataPath, keepData: true, settings: { 'node.name': 'crash-node' } });
    const health = await node.request('GET', '/_cluster/health/crash?wait_for_status=green&timeout=30s');
    assert.equal(health.body.status, 'green');
    await verify(node, history, CYCLES);
    assert.ok(totalAcked > CYCLES * 10, `too few acknowledged writes to mean anything (${totalAcked})`);
    await node.request('POST', '/crash/_refresh');
    const ackedIds = [...history.values()].filter((entry) => entry.maxAckedVersion > 0).length;
    const count = await node.request('GET', '/_cat/count/crash?format=json');
    assert.ok(Number(count.body[0].count) >= ackedIds, `count ${count.body[0].count} < ${ackedIds} acknowledged ids`);
    console.log(`bulk crash: ${totalAcked} acknowledged writes of ${ackedIds} ids verified after ${CYCLES} kills`);
  } finally {
    await node?.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});

async function verify(node: NodeProcess, history: Map<string, IdHistory>, cycle: number): Promise<void> {
  const ids = [...history.keys()].filter((id) => history.get(id)!.maxAckedVersion > 0);
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    const res = await node.request('POST', '/crash/_mget?_source=false', { body: { ids: chunk } });
    assert.equal(res.status, 200, res.text);
    res.body.docs.forEach((doc: { _id: string; found: boolean; _version: number }, position: number) => {
      const entry = history.get(chunk[position]!)!;
      assert.equal(doc.found, true, `cycle ${cycle}: acknowledged document ${doc._id} is missing`);
      assert.ok(doc._version >= entry.maxAckedVersion, `cycle ${cycle}: ${doc._id} went back to version ${doc._version} < acknowledged ${entry.maxAckedVersion}`);
      assert.ok(doc._version <= entry.sent, `cycle ${cycle}: ${doc._id} has version ${doc._version} but only ${entry.sent} writes were sent`);
      if (entry.answered === entry.sent) {
        assert.equal(doc._version, entry.maxAckedVersion, `cycle ${cycle}: ${doc._id} has version ${doc._version}, acknowledged ${entry.maxAckedVersion}`);
      }
    });
  }
}
