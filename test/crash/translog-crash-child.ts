/**
 * The process the translog crash test kills: appends operations with `request` durability from several
 * concurrent writers, and prints `ack <seqNo>` only after `sync` resolved for it, exactly as a shard would
 * acknowledge a write. Rolls a generation now and then so kills also land in the middle of rolls.
 * Usage: node translog-crash-child.js <dir> <firstSeqNo> (it runs until killed)
 */
import { Translog } from '../../src/engine/translog/index.js';
import { expectedOperation } from './translog-crash-ops.js';

const [dir, firstSeqNo] = process.argv.slice(2);
if (!dir || firstSeqNo === undefined) throw new Error('usage: translog-crash-child.js <dir> <firstSeqNo>');

const translog = await Translog.open(dir, { createIfMissing: true, durability: 'request' });
process.stdout.write('ready\n');
let next = Number(firstSeqNo);

async function writer(): Promise<never> {
  for (;;) {
    const seqNo = next++;
    const location = translog.add(expectedOperation(seqNo));
    await translog.syncBeforeAck(location);
    // A write to a pipe is synchronous on Linux: once this returns, the parent will read the line.
    process.stdout.write(`ack ${seqNo}\n`);
    if (seqNo % 151 === 150) await translog.rollGeneration();
  }
}

await Promise.all(Array.from({ length: 8 }, writer));
