/**
 * An indexing buffer that lives in an indexing worker: this side validates each document (so failures
 * are reported before a seqNo is taken, as on the main-thread buffer), encodes it into the current batch
 * and sends the batch once a turn of the event loop added nothing to it, or once it is large enough: a bulk
 * request adds documents turn after turn, and each message costs the request thread a fixed price, so its
 * documents travel in a few larger batches rather than one per turn. The worker
 * inverts them into its IndexingBuffer and later writes that buffer as a segment, so neither the
 * analysis nor the segment encoding run on the request thread.
 */
import { BatchEncoder, type BufferInputDocument, type DocumentBatch } from './document-batch.js';
import { prevalidate, type AnalyzerLookup, type BufferSink } from './indexing-buffer.js';

/** Cut a batch at this size even within one turn, so a huge bulk does not build one giant message. */
const MAX_BATCH_BYTES = 2 * 1024 * 1024;
/** While documents keep coming, a batch waits for this many bytes before it is sent. */
const MIN_BATCH_BYTES = 256 * 1024;
/** RAM an inverted document takes, per byte of its source, until the worker reports the real figure. */
const ESTIMATED_RAM_PER_SOURCE_BYTE = 5;

export interface BatchChannel {
  sendBatch(bufferId: number, batch: DocumentBatch, transfer: ArrayBuffer[]): void;
}

export class RemoteBuffer implements BufferSink {
  numDocs = 0;
  readonly deletedDocs = new Set<number>();
  private encoder = new BatchEncoder();
  private batchStart = 0;
  private sendScheduled = false;
  /** numDocs when the scheduled send last looked: more since then means documents are still coming. */
  private docsAtLastCheck = 0;
  /** The worker's last figure and how many documents it covered; documents beyond are estimated. */
  private reportedBytes = 0;
  private reportedDocs = 0;
  /** Estimated bytes of the documents added before the first report, by their source size. */
  private estimatedBytes = 0;
  private closed = false;

  constructor(
    readonly bufferId: number,
    private readonly channel: BatchChannel,
    private readonly analyzers: AnalyzerLookup,
  ) {}

  get isEmpty(): boolean {
    return this.numDocs === 0;
  }

  addDocument(id: string, document: BufferInputDocument): number {
    if (this.closed) throw new Error('the buffer has been sent to be written');
    prevalidate(document, this.analyzers);
    // Cut before adding, never after: setMeta for this document must still find it in the open batch. A
    // document encoded where it was parsed (a very large one) starts a batch of its own, which takes its
    // arrays over instead of copying them.
    if (this.encoder.bytes > MAX_BATCH_BYTES || (document.encodedFields !== undefined && !this.encoder.isEmpty)) this.send();
    this.encoder.add(id, document);
    this.estimatedBytes += 256 + ESTIMATED_RAM_PER_SOURCE_BYTE * (document.storedSource?.length ?? 256);
    this.scheduleSend();
    return this.numDocs++;
  }

  setMeta(doc: number, seqNo: number, primaryTerm: number, version: number): void {
    if (doc < this.batchStart) throw new Error(`doc ${doc} was already sent; metadata must follow addDocument at once`);
    this.encoder.setMeta(doc - this.batchStart, seqNo, primaryTerm, version);
  }

  markDeleted(doc: number): void {
    this.deletedDocs.add(doc);
    this.encoder.markDeleted(doc);
    this.scheduleSend();
  }

  ramBytesUsed(): number {
    // Documents the worker has not reported yet count at the reported average (or the source estimate).
    const pending = this.numDocs - this.reportedDocs;
    if (this.reportedDocs > 0) return this.reportedBytes + (pending * this.reportedBytes) / this.reportedDocs;
    return this.estimatedBytes;
  }

  /** The worker's figure once it applied the batches covering its first `docs` documents. */
  onRamReport(bytes: number, docs: number): void {
    this.reportedBytes = bytes;
    this.reportedDocs = docs;
  }

  private scheduleSend(): void {
    if (this.sendScheduled) return;
    this.sendScheduled = true;
    setImmediate(this.sendWhenQuiet);
  }

  private readonly sendWhenQuiet = (): void => {
    this.sendScheduled = false;
    const stillComing = this.numDocs !== this.docsAtLastCheck;
    this.docsAtLastCheck = this.numDocs;
    if (stillComing && !this.closed && this.encoder.bytes < MIN_BATCH_BYTES) {
      this.sendScheduled = true;
      setImmediate(this.sendWhenQuiet);
      return;
    }
    this.send();
  };

  /** Sends the open batch (if any). */
  send(): void {
    if (this.encoder.isEmpty) return;
    const { batch, transfer } = this.encoder.finish();
    this.channel.sendBatch(this.bufferId, batch, transfer);
    this.batchStart = this.numDocs;
    this.encoder = new BatchEncoder();
  }

  /** Sends what is left; no document may be added afterwards. */
  seal(): void {
    this.send();
    this.closed = true;
  }
}
