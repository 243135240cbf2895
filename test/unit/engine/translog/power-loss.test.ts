/**
 * Simulated power loss (reliability goal D3 without root or FUSE): the translog runs on PowerLossFs, the
 * power goes at a random file-system call, and the directory is rewritten to what a disk could hold
 * afterwards (unsynced data gone, torn or zero-filled; unsynced renames and deletions undone). Recovery must
 * succeed and return every acknowledged operation, intact. This is the test that proves the fsync ordering:
 * acknowledging before the data fsync, writing the checkpoint before it, or skipping the directory fsync
 * after the rename each make it fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Translog, type TranslogOperation } from '../../../../src/engine/translog/index.js';
import { fastFs, tempDir } from './helpers.js';
import { PowerLossFs } from './power-loss-fs.js';

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

function expectedOperation(seqNo: number): TranslogOperation {
  if (seqNo % 7 === 3) return { type: 'delete', id: `doc-${seqNo}`, seqNo, primaryTerm: 1, version: 2 };
  return { type: 'index', id: `doc-${seqNo}`, seqNo, primaryTerm: 1, version: 1, source: Buffer.alloc(20 + ((seqNo * 37) % 300), 0x41 + (seqNo % 26)) };
}

const OPS_PER_RUN = 48;

test('after a power loss at any file-system call, recovery succeeds with every acknowledged operation intact', async (t) => {
  let runs = 0;
  let crashedMidRun = 0;
  let ackedTotal = 0;
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 260 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.boolean(), async (crashAtCall, seed, crashAgainDuringRecovery) => {
      const random = mulberry32(seed);
      const { dir, cleanup } = tempDir('gannet-translog-power-', true);
      const acknowledged = new Set<number>();
      /** Operations in generations handed to a trim: gone or not, both are right. */
      const trimmable = new Set<number>();
      try {
        const fs = new PowerLossFs(dir, crashAtCall, random);
        let translog: Translog | undefined;
        try {
          translog = await Translog.open(dir, { createIfMissing: true, fs });
        } catch (err) {
          assert.ok(fs.crashed, `open failed without a crash: ${String(err)}`);
        }
        if (translog) {
          const live = translog;
          const generationOf = new Map<number, number>();
          let next = 0;
          const writer = async (): Promise<void> => {
            while (next < OPS_PER_RUN && !fs.crashed) {
              const seqNo = next++;
              const location = live.add(expectedOperation(seqNo));
              generationOf.set(seqNo, location.generation);
              await live.sync(location);
              acknowledged.add(seqNo);
              if (seqNo % 11 === 10) await live.rollGeneration();
              if (seqNo % 23 === 22) {
                const keepFrom = live.currentGeneration;
                for (const [s, generation] of generationOf) if (generation < keepFrom) trimmable.add(s);
                await live.trimUnreferencedGenerations(keepFrom);
              }
            }
          };
          await Promise.allSettled([writer(), writer(), writer(), writer()]);
          if (fs.crashed) crashedMidRun++;
          // After a crash this fails (the files are gone from under it) but releases the handles.
          await live.close().catch(() => undefined);
        }
        fs.crash(); // the power goes now if it has not yet

        if (crashAgainDuringRecovery) {
          // Lose power again while recovering (open rolls a generation) or right after.
          const again = new PowerLossFs(dir, 1 + Math.floor(random() * 14), random);
          try {
            const recovering = await Translog.open(dir, { createIfMissing: true, fs: again });
            const location = recovering.add(expectedOperation(1000));
            await recovering.sync(location);
            acknowledged.add(1000);
            await recovering.close();
          } catch (err) {
            assert.ok(again.crashed, `recovery failed without a crash: ${String(err)}`);
          }
          again.crash();
        }

        const recovered = await Translog.open(dir, { createIfMissing: true, fs: fastFs() });
        const seen = new Set<number>();
        for await (const op of recovered.snapshot()) {
          assert.ok(!seen.has(op.seqNo), `seqNo ${op.seqNo} recovered twice`);
          seen.add(op.seqNo);
          assert.deepStrictEqual(op, expectedOperation(op.seqNo));
        }
        await recovered.close();
        const lost = [...acknowledged].filter((seqNo) => !seen.has(seqNo) && !trimmable.has(seqNo));
        assert.deepStrictEqual(lost, [], `crash at call ${crashAtCall}, seed ${seed}: acknowledged operations lost`);
        runs++;
        ackedTotal += acknowledged.size;
      } finally {
        cleanup();
      }
    }),
    { numRuns: 150 },
  );
  t.diagnostic(`${runs} power losses (${crashedMidRun} while writing), ${ackedTotal} acknowledged operations checked`);
  assert.ok(crashedMidRun > runs / 3, 'most power losses should hit a running workload');
});
