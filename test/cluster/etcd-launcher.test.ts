/**
 * The etcd a test or `gannet cluster start` runs (cli/etcd-launcher.ts) starts even when a port picked free was
 * taken before etcd bound it: once, a CI run lost a whole cluster suite to "etcd exited before it was healthy",
 * with nothing saying why. Such an etcd is started again on other ports; an etcd that cannot start says why in its
 * own words. Two short-lived etcd processes, about a second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EtcdExitedEarly, EtcdProcess, freePort } from '../../src/cli/etcd-launcher.js';

async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address !== null ? address.port : 0, server };
}

test('an etcd whose port picked free was taken meanwhile starts again on other ports; ports given are kept and the failure says why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gannet-etcd-launcher-'));
  const taken = await occupiedPort();
  try {
    let picks = 0;
    const etcd = await EtcdProcess.start({
      dataDir: join(dir, 'retried'),
      // The first pick is the port another process holds, as a neighbour that bound it after freePort let it go.
      pickPort: async () => (picks++ === 0 ? taken.port : freePort()),
    });
    try {
      assert.notEqual(etcd.clientPort, taken.port, 'started on other ports');
      assert.ok(picks >= 3, `a second attempt picked new ports (${picks} picks)`);
      const health = (await (await fetch(`${etcd.endpoint}/health`)).json()) as { health: string };
      assert.equal(health.health, 'true');
    } finally {
      await etcd.stop();
    }

    await assert.rejects(
      EtcdProcess.start({ dataDir: join(dir, 'given'), clientPort: taken.port, peerPort: await freePort() }),
      (err: Error) => {
        assert.ok(err instanceof EtcdExitedEarly, err.message);
        assert.match(err.message, /address already in use/, 'etcd\'s own reason is in the message');
        return true;
      },
    );
  } finally {
    taken.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
