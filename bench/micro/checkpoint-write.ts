/**
 * What a translog sync round's checkpoint costs (decision 0035): the atomic replace (temp file, fdatasync, rename,
 * directory fsync: writeCheckpointFile) against the in-place write + fdatasync a sync round does now, CPU of the
 * whole process (libuv's threads included) and wall time per checkpoint, alternated.
 *
 * Usage: node dist/bench/micro/checkpoint-write.js [--writes 300] [--dir /tmp]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { encodeCheckpoint, emptyCheckpoint } from '../../src/engine/translog/checkpoint.js';
import { writeCheckpointFile } from '../../src/engine/translog/checkpoint-file.js';
import { nodeTranslogFs } from '../../src/engine/translog/translog-fs.js';

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}

const writes = Number(arg('writes', '300'));
const dir = mkdtempSync(join(arg('dir', tmpdir()), 'gannet-checkpoint-bench-'));
try {
  const checkpoint = (i: number) => ({ ...emptyCheckpoint(100 + i, 1, i, 1) });
  await writeCheckpointFile(nodeTranslogFs, dir, 'translog.ckp', checkpoint(0));
  const handle = await nodeTranslogFs.open(join(dir, 'translog.ckp'), 'overwrite');
  const ways: Record<string, (i: number) => Promise<void>> = {
    'atomic replace': (i) => writeCheckpointFile(nodeTranslogFs, dir, 'other.ckp', checkpoint(i)),
    'in place': async (i) => {
      await handle.write(encodeCheckpoint(checkpoint(i)), 0);
      await handle.datasync();
    },
  };
  for (let pass = 0; pass < 2; pass++) {
    for (const [name, write] of Object.entries(ways)) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < writes; i++) await write(i);
      const used = process.cpuUsage(cpu);
      const wall = performance.now() - started;
      console.log(`${name.padEnd(15)} CPU ${((used.user + used.system) / 1000 / writes).toFixed(3)} ms per checkpoint (user ${(used.user / 1000 / writes).toFixed(3)}, system ${(used.system / 1000 / writes).toFixed(3)}), wall ${(wall / writes).toFixed(2)} ms`);
    }
  }
  await handle.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
