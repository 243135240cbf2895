/**
 * The operations the translog crash test writes, derived from the seqNo alone, so the parent can check every
 * recovered operation byte for byte without being told what the child wrote.
 */
import type { TranslogOperation } from '../../src/engine/translog/index.js';

/** A cheap deterministic hash (xorshift-multiply) of the seqNo. */
function mix(seqNo: number): number {
  let x = (seqNo ^ 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

export function expectedOperation(seqNo: number): TranslogOperation {
  const h = mix(seqNo);
  const kind = h % 10;
  if (kind === 0) return { type: 'delete', id: `doc-${seqNo - 1}`, seqNo, primaryTerm: 1, version: 2 };
  if (kind === 1) return { type: 'noop', seqNo, primaryTerm: 1, reason: `gap ${seqNo}` };
  // Sources from a few bytes to ~6 KB, so some records straddle write and read chunk boundaries.
  const length = 8 + (h % 6000);
  const source = Buffer.alloc(length);
  for (let i = 0; i < length; i++) source[i] = 0x61 + ((seqNo + i * 7) % 26);
  const base = { type: 'index' as const, id: `doc-${seqNo}-é-🦆`, seqNo, primaryTerm: 1, version: 1, source };
  return kind === 2 ? { ...base, routing: `user-${h % 17}` } : base;
}
