/**
 * The process the engine crash test kills: opens a shard engine (recovering whatever the previous, killed
 * process left), then runs concurrent writers with `request` durability while refreshes, buffer-full
 * segment writes, flushes and merges happen underneath. Before each operation it prints `s <op> <id> <kind>
 * <value>`, and once the operation is acknowledged `a <op> <seqNo> <version> <result>` — exactly what a shard
 * would acknowledge to a client. Usage: node engine-crash-child.js <dir> <seed> (it runs until killed)
 */
import { openEngine } from '../../src/engine/index.js';
import { crashEngineConfig, CRASH_IDS } from './engine-crash-setup.js';

const [dir, seedText] = process.argv.slice(2);
if (dir === undefined || seedText === undefined) throw new Error('usage: engine-crash-child.js <dir> <seed>');
let seed = Number(seedText) >>> 0;
const random = (): number => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const { config, factory } = crashEngineConfig(dir);
const engine = await openEngine(config);
process.stdout.write('ready\n');
let nextOp = 0;

async function writer(): Promise<never> {
  for (;;) {
    const op = nextOp++;
    const id = CRASH_IDS[Math.floor(random() * CRASH_IDS.length)]!;
    const isDelete = random() < 0.25;
    const value = `${id}-${process.pid}-${op}`;
    // A write to a pipe is synchronous: the parent sees this line before the operation can be acknowledged.
    process.stdout.write(`s ${op} ${id} ${isDelete ? 'delete' : 'index'} ${value}\n`);
    const result = isDelete
      ? await engine.delete({ id, versionType: 'internal', origin: 'primary', primaryTerm: 1 })
      : await engine.index({
          id,
          document: factory.parse({ value, n: op, body: `${value} ${'filler words for the buffer '.repeat(1 + (op % 5))}` }, id),
          opType: 'index',
          versionType: 'internal',
          origin: 'primary',
          primaryTerm: 1,
        });
    process.stdout.write(`a ${op} ${result.seqNo} ${result.version} ${result.result}\n`);
  }
}

async function maintenance(): Promise<never> {
  for (let round = 0; ; round++) {
    await new Promise((resolve) => setTimeout(resolve, 40 + random() * 80));
    if (round % 3 === 0) await engine.flush();
    if (round % 7 === 6) await engine.forceMerge({ maxNumSegments: 2, flush: random() < 0.5 });
  }
}

await Promise.all([...Array.from({ length: 6 }, writer), maintenance()]);
