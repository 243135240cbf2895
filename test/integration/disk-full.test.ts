/**
 * A full disk is survivable (issue 18 #5), on a real small disk: a 32 MB tmpfs mounted as the node's path.data.
 * A filler file takes the disk past the flood stage watermark: the node puts ES's read-only-allow-delete block on
 * its indices (writes 429, reads and index deletes still work), and releases it once the filler is gone and use
 * falls below the high watermark, with every acknowledged document still there. Needs root and `mount`; skipped
 * with the reason elsewhere.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeProcess } from '../helpers/node-process.js';

const INDEX = 'docs';
let mountPoint: string | undefined;
let skipReason: string | undefined;
let node: NodeProcess | undefined;

function mountTmpfs(): string | undefined {
  if (process.getuid?.() !== 0) {
    skipReason = 'needs root to mount a tmpfs';
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'gannet-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (err) {
    skipReason = `cannot mount a tmpfs here: ${(err as Error).message.split('\n')[0]}`;
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

/** Writes a file that leaves `leaveFreeBytes` available on the mount. */
function fillDisk(path: string, leaveFreeBytes: number): void {
  const stats = statfsSync(mountPoint!);
  let remaining = stats.bavail * stats.bsize - leaveFreeBytes;
  const chunk = Buffer.alloc(1 << 20, 7);
  const fd = openSync(path, 'a');
  try {
    while (remaining > 0) {
      const length = Math.min(chunk.length, remaining);
      try {
        writeSync(fd, chunk, 0, length);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return;
        throw err;
      }
      remaining -= length;
    }
  } finally {
    closeSync(fd);
  }
}

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMillis = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(250);
  }
  assert.fail(`timed out waiting for ${what}`);
}

async function blockSetting(): Promise<string | undefined> {
  const settings = await node!.request('GET', `/${INDEX}/_settings?flat_settings=true`);
  return settings.body?.[INDEX]?.settings?.['index.blocks.read_only_allow_delete'];
}

before(async () => {
  mountPoint = mountTmpfs();
  if (mountPoint === undefined) return;
  node = await NodeProcess.start({
    oneNode: 'fills the small file system its one data path is on',
    dataPath: mountPoint,
    keepData: true,
    // ES's smallest interval, so a test sees each watermark crossed within seconds.
    settings: { 'node.name': 'disk-node', 'cluster.info.update.interval': '10s' },
  });
});

after(async () => {
  await node?.stop();
  if (mountPoint !== undefined) {
    execFileSync('umount', [mountPoint], { stdio: 'pipe' });
    rmSync(mountPoint, { recursive: true, force: true });
  }
});

test('past the flood stage writes are blocked before the disk is full, reads and deletes work, the block goes below high', { timeout: 300_000 }, async (t) => {
  if (node === undefined) return t.skip(skipReason);
  assert.equal((await node.request('PUT', `/${INDEX}`, { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } })).status, 200);
  assert.equal((await node.request('PUT', '/other')).status, 200);
  const lines: string[] = [];
  for (let i = 0; i < 200; i++) lines.push(JSON.stringify({ index: { _id: `d${i}` } }), JSON.stringify({ n: i, text: `document number ${i}` }));
  const bulk = await node.request('POST', `/${INDEX}/_bulk?refresh=true`, { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false, bulk.text.slice(0, 300));

  const filler = join(mountPoint!, 'filler');
  const total = statfsSync(mountPoint!).blocks * statfsSync(mountPoint!).bsize;
  // 97% used: past the flood stage (95%), with room left for what the node writes meanwhile.
  fillDisk(filler, Math.floor(total * 0.03));
  await waitFor('the flood stage block', async () => (await blockSetting()) === 'true');

  const refused = await node.request('PUT', `/${INDEX}/_doc/late`, { body: { n: -1 } });
  assert.equal(refused.status, 429, refused.text);
  assert.equal(refused.body.error.type, 'cluster_block_exception');
  assert.equal(
    refused.body.error.reason,
    `index [${INDEX}] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];`,
  );
  const search = await node.request('POST', `/${INDEX}/_search`, { body: { query: { match: { text: 'document' } }, track_total_hits: true } });
  assert.equal(search.status, 200, search.text);
  assert.equal(search.body.hits.total.value, 200);
  assert.equal((await node.request('GET', `/${INDEX}/_doc/d7`)).body.found, true);
  assert.equal((await node.request('GET', '/_cluster/health')).status, 200);
  // read_only_allow_delete: deleting an index is what frees space, so it is allowed.
  const deleted = await node.request('DELETE', '/other');
  assert.equal(deleted.status, 200, deleted.text);

  rmSync(filler);
  await waitFor('the block released below the high watermark', async () => (await blockSetting()) === undefined);
  const accepted = await node.request('PUT', `/${INDEX}/_doc/late?refresh=true`, { body: { n: -1 } });
  assert.equal(accepted.status, 201, accepted.text);
  const count = await node.request('GET', `/${INDEX}/_count`);
  assert.equal(count.body.count, 201, 'every acknowledged document is there');
});

test('the watermarks are validated together as ES validates them', async (t) => {
  if (node === undefined) return t.skip(skipReason);
  const bad = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.allocation.disk.watermark.low': '92%' } } });
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.error.type, 'illegal_argument_exception');
  assert.equal(bad.body.error.reason, "illegal value can't update [cluster.routing.allocation.disk.watermark.low] from [85%] to [92%]");
  assert.equal(bad.body.error.caused_by.reason, 'low disk watermark [92%] more than high disk watermark [90%]');
  const mixed = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.allocation.disk.watermark.flood_stage': '1gb' } } });
  assert.equal(mixed.status, 400, mixed.text);
  assert.match(mixed.body.error.caused_by.reason, /^unable to consistently parse \[cluster\.routing\.allocation\.disk\.watermark\.low=85%\], /);
  const interval = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.info.update.interval': '1s' } } });
  assert.equal(interval.status, 400, interval.text);
  assert.equal(interval.body.error.reason, 'failed to parse value [1s] for setting [cluster.info.update.interval], must be >= [10s]');
  const good = await node.request('PUT', '/_cluster/settings', {
    body: { persistent: { 'cluster.routing.allocation.disk.watermark.low': '500mb', 'cluster.routing.allocation.disk.watermark.high': '400mb', 'cluster.routing.allocation.disk.watermark.flood_stage': '300mb' } },
  });
  assert.equal(good.status, 200, good.text);
  const reset = await node.request('PUT', '/_cluster/settings', {
    body: { persistent: { 'cluster.routing.allocation.disk.watermark.*': null } },
  });
  assert.equal(reset.status, 200, reset.text);
});

test('a really full disk: writes fail with ES errors, acknowledged writes survive, the shard recovers from its store, deletes work at 100%', { timeout: 300_000 }, async (t) => {
  if (node === undefined) return t.skip(skipReason);
  // No flood stage block this time: the writes run into the full disk itself.
  const disable = await node.request('PUT', '/_cluster/settings', { body: { transient: { 'cluster.routing.allocation.disk.threshold_enabled': false } } });
  assert.equal(disable.status, 200, disable.text);
  assert.equal((await node.request('PUT', '/full', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } })).status, 200);
  assert.equal((await node.request('PUT', '/spare/_doc/1?refresh=true', { body: { kept: true } })).status, 201);

  const filler = join(mountPoint!, 'filler');
  fillDisk(filler, 512 * 1024);
  const acknowledged: string[] = [];
  let failure: any;
  const padding = 'x'.repeat(2000);
  for (let round = 0; round < 400 && failure === undefined; round++) {
    const lines: string[] = [];
    for (let i = 0; i < 50; i++) lines.push(JSON.stringify({ index: { _id: `r${round}-${i}` } }), JSON.stringify({ round, i, padding }));
    const bulk = await node.request('POST', '/full/_bulk', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
    if (bulk.status !== 200) {
      failure = bulk.body;
      break;
    }
    for (const item of bulk.body.items) {
      if (item.index.status === 201) acknowledged.push(item.index._id);
      else failure ??= item.index;
    }
  }
  assert.ok(failure !== undefined, 'the disk filled up');
  // An ES error, not a dropped connection or a crash: a type and a reason.
  const error = failure.error;
  assert.equal(typeof error?.type, 'string', JSON.stringify(failure).slice(0, 500));
  assert.equal(typeof error?.reason, 'string');
  assert.ok(acknowledged.length > 0, 'some writes were acknowledged before the disk was full');

  // The node keeps serving: health, the other index's reads, and the failed shard shows why.
  assert.equal((await node.request('GET', '/_cluster/health')).status, 200);
  const read = await node.request('GET', '/spare/_doc/1');
  assert.equal(read.status, 200, read.text);
  const shards = await node.request('GET', '/_cat/shards/full?format=json&h=index,state,unassigned.reason,unassigned.details');
  assert.equal(shards.status, 200, shards.text);
  const copy = shards.body[0];
  if (copy.state === 'UNASSIGNED') {
    assert.equal(copy['unassigned.reason'], 'ALLOCATION_FAILED');
    assert.match(copy['unassigned.details'], /ENOSPC/);
    assert.equal((await node.request('GET', '/_cluster/health')).body.status, 'red');
  }
  // Deleting an index is how an operator frees space, and it works with the disk at 100%.
  fillDisk(join(mountPoint!, 'filler-rest'), 0);
  const deleted = await node.request('DELETE', '/spare');
  assert.equal(deleted.status, 200, deleted.text);

  rmSync(filler);
  rmSync(join(mountPoint!, 'filler-rest'));
  const enable = await node.request('PUT', '/_cluster/settings', { body: { transient: { 'cluster.routing.allocation.disk.threshold_enabled': null } } });
  assert.equal(enable.status, 200, enable.text);
  await waitFor('the failed shard recovered from its store', async () => {
    const state = await node!.request('GET', '/_cat/shards/full?format=json&h=state');
    return state.body?.[0]?.state === 'STARTED';
  });
  assert.equal((await node.request('POST', '/full/_refresh')).status, 200);
  const found = await node.request('POST', '/full/_mget', { body: { ids: acknowledged } });
  const missing = found.body.docs.filter((doc: any) => doc.found !== true).map((doc: any) => doc._id);
  assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged documents lost`);
});
