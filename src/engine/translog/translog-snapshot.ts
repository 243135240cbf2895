/**
 * A point-in-time view of the translog's operations, read from the files in generation order. The files are
 * opened when the snapshot is taken, so a later trim that deletes them does not disturb it (POSIX keeps an
 * unlinked file readable through an open descriptor). Iterate it to the end or call close() to release them.
 */
import { readOperations, type GenerationRange } from './generation-reader.js';
import { UNASSIGNED_SEQ_NO, type TranslogOperation } from './operation.js';

export interface SnapshotSource extends GenerationRange {
  /** Operations above this seqNo were trimmed away (ES's trimOperations); UNASSIGNED_SEQ_NO for none. */
  readonly trimmedAboveSeqNo: number;
}

async function closeAll(sources: readonly SnapshotSource[]): Promise<void> {
  await Promise.all(sources.map((source) => source.handle.close().catch(() => undefined)));
}

export class TranslogSnapshot implements AsyncIterableIterator<TranslogOperation> {
  private started = false;
  private readonly operations: AsyncGenerator<TranslogOperation, undefined, undefined>;

  constructor(
    private readonly sources: Promise<SnapshotSource[]>,
    private readonly fromSeqNo: number,
  ) {
    // A snapshot that is dropped unread must not surface as an unhandled rejection.
    sources.catch(() => undefined);
    this.operations = this.iterate();
  }

  private async *iterate(): AsyncGenerator<TranslogOperation, undefined, undefined> {
    const sources = await this.sources;
    try {
      for (const source of sources) {
        for await (const { operation } of readOperations(source)) {
          if (operation.seqNo < this.fromSeqNo) continue;
          if (source.trimmedAboveSeqNo !== UNASSIGNED_SEQ_NO && operation.seqNo > source.trimmedAboveSeqNo) continue;
          yield operation;
        }
      }
    } finally {
      await closeAll(sources);
    }
    return undefined;
  }

  next(): Promise<IteratorResult<TranslogOperation, undefined>> {
    this.started = true;
    return this.operations.next();
  }

  return(): Promise<IteratorResult<TranslogOperation, undefined>> {
    return this.close().then(() => ({ done: true, value: undefined }));
  }

  /** Releases the open files; safe to call at any point, and more than once. */
  async close(): Promise<void> {
    if (!this.started) {
      // An unstarted generator never runs its finally block, so release the files here.
      this.started = true;
      await this.operations.return(undefined);
      await closeAll(await this.sources.catch(() => []));
      return;
    }
    await this.operations.return(undefined);
  }

  /** Every remaining operation, in order (for tests and small translogs). */
  async toArray(): Promise<TranslogOperation[]> {
    const out: TranslogOperation[] = [];
    for await (const operation of this) out.push(operation);
    return out;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
