/**
 * Sequence numbers of one shard copy (ES's LocalCheckpointTracker): the primary hands out the next seqNo;
 * every copy marks seqNos processed (applied to the indexing buffer) and persisted (fsynced in the
 * translog). A checkpoint is the highest seqNo below which every seqNo is marked; gaps (possible on a
 * replica, which receives operations out of order) hold it back until they are filled.
 */
export const NO_OPS_PERFORMED = -1;

class Checkpoint {
  value: number;
  /** Marked seqNos above value + 1, waiting for the gap below them to close. */
  private readonly pending = new Set<number>();

  constructor(initial: number) {
    this.value = initial;
  }

  mark(seqNo: number): void {
    if (seqNo <= this.value) return;
    if (seqNo !== this.value + 1) {
      this.pending.add(seqNo);
      return;
    }
    this.value = seqNo;
    while (this.pending.size > 0 && this.pending.delete(this.value + 1)) this.value++;
  }

  has(seqNo: number): boolean {
    return seqNo <= this.value || this.pending.has(seqNo);
  }
}

export class LocalCheckpointTracker {
  private nextSeqNo: number;
  private readonly processed: Checkpoint;
  private readonly persisted: Checkpoint;

  constructor(maxSeqNo: number, localCheckpoint: number) {
    this.nextSeqNo = maxSeqNo + 1;
    this.processed = new Checkpoint(localCheckpoint);
    this.persisted = new Checkpoint(localCheckpoint);
  }

  generateSeqNo(): number {
    return this.nextSeqNo++;
  }

  /** Records a seqNo assigned elsewhere (replica, recovery), so the next generated one is above it. */
  advanceMaxSeqNo(seqNo: number): void {
    if (seqNo >= this.nextSeqNo) this.nextSeqNo = seqNo + 1;
  }

  markProcessed(seqNo: number): void {
    this.advanceMaxSeqNo(seqNo);
    this.processed.mark(seqNo);
  }

  markPersisted(seqNo: number): void {
    this.advanceMaxSeqNo(seqNo);
    this.persisted.mark(seqNo);
  }

  get maxSeqNo(): number {
    return this.nextSeqNo - 1;
  }

  get processedCheckpoint(): number {
    return this.processed.value;
  }

  get persistedCheckpoint(): number {
    return this.persisted.value;
  }

  hasProcessed(seqNo: number): boolean {
    return this.processed.has(seqNo);
  }
}
