/**
 * kill -9 against the translog (reliability goal D1/D4 on one shard): a child process appends operations with
 * `request` durability and prints each acknowledged seqNo; the parent SIGKILLs it at random moments (also
 * during startup, i.e. during recovery's own roll), reopens the translog and checks that every
 * acknowledged operation is there and intact, that every operation recovered is byte-for-byte what was
 * written (nothing corrupt, no duplicates), and that the translog keeps working across crashes.
 * SIGKILL keeps the OS page cache, so this catches acknowledging before writing, not a missing fsync; the
 * power-loss unit test (test/unit/engine/translog/power-loss.test.ts) covers that.
 * The seed is printed; rerun one with GANNET_CRASH_SEED=<seed>.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Translog } from '../../src/engine/translog/index.js';
import { expectedOperation } from './translog-crash-ops.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'translog-crash-child.js');
const CYCLES = 22;

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
 * Runs the child and SIGKILLs it `delayMs` after it reported ready (it is writing by then), or, with
 * `duringStartup`, `delayMs` after spawning it (it may still be opening, i.e. recovering, the translog).
 * Returns the seqNos it acknowledged.
 */
function runAndKill(dir: string, firstSeqNo: number, delayMs: number, duringStartup: boolean): Promise<{ acked: number[]; sawReady: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dir, String(firstSeqNo)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    const kill = (): boolean => child.kill('SIGKILL');
    if (duringStartup) timer = setTimeout(kill, delayMs);
    // A loaded machine can take seconds to start node; never let the test hang on it.
    const watchdog = setTimeout(kill, 20_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!duringStartup && timer === undefined && (stdout + chunk).includes('ready\n')) timer = setTimeout(kill, delayMs);
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(watchdog);
      if (signal !== 'SIGKILL') {
        reject(new Error(`child exited on its own (code ${code}, signal ${signal}): ${stderr}`));
        return;
      }
      const lines = stdout.split('\n');
      lines.pop(); // a partial last line (if any) was never a complete acknowledgement
      const acked = lines.filter((line) => line.startsWith('ack ')).map((line) => Number(line.slice(4)));
      resolve({ acked, sawReady: lines.includes('ready') });
    });
  });
}

test(`translog survives ${CYCLES} kill -9 cycles with every acknowledged operation intact`, { timeout: 120_000 }, async (t) => {
  const seed = Number(process.env['GANNET_CRASH_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
  t.diagnostic(`seed ${seed} (rerun with GANNET_CRASH_SEED=${seed})`);
  const random = mulberry32(seed);
  const dir = mkdtempSync(join(tmpdir(), 'gannet-translog-crash-'));
  const acknowledged = new Set<number>();
  let nextSeqNo = 0;
  let killedDuringStartup = 0;
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      // Mostly while writing; sometimes so early that the child is still opening (recovering) the translog.
      const duringStartup = random() < 0.2;
      const killAfterMs = duringStartup ? 10 + random() * 150 : random() * 300;
      const { acked, sawReady } = await runAndKill(dir, nextSeqNo, killAfterMs, duringStartup);
      if (!sawReady) killedDuringStartup++;
      for (const seqNo of acked) acknowledged.add(seqNo);

      let translog: Translog;
      try {
        translog = await Translog.open(dir, { createIfMissing: true });
      } catch (err) {
        assert.fail(`cycle ${cycle} (seed ${seed}, killed after ${killAfterMs.toFixed(0)} ms): recovery failed: ${(err as Error).message}`);
      }
      const seen = new Set<number>();
      for await (const op of translog.snapshot()) {
        assert.ok(!seen.has(op.seqNo), `cycle ${cycle} (seed ${seed}): seqNo ${op.seqNo} recovered twice`);
        seen.add(op.seqNo);
        assert.deepStrictEqual(op, expectedOperation(op.seqNo), `cycle ${cycle} (seed ${seed}): seqNo ${op.seqNo} came back different`);
        nextSeqNo = Math.max(nextSeqNo, op.seqNo + 1);
      }
      await translog.close();
      const lost = [...acknowledged].filter((seqNo) => !seen.has(seqNo));
      assert.deepStrictEqual(lost, [], `cycle ${cycle} (seed ${seed}): acknowledged operations lost`);
      for (const seqNo of acknowledged) nextSeqNo = Math.max(nextSeqNo, seqNo + 1);
    }
    t.diagnostic(`${acknowledged.size} acknowledged operations over ${CYCLES} kills (${killedDuringStartup} during startup), all recovered`);
    // A floor, not a rate: one fsync-bound writer acknowledges ~100 ops/s here and fewer on a loaded CI
    // machine, and kills land 0-300 ms after ready. This only catches a child that acknowledges nothing.
    assert.ok(acknowledged.size >= CYCLES, `only ${acknowledged.size} operations were acknowledged: the test did not exercise much`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
