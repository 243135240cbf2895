/**
 * The fault suite's client: writers that send `_bulk` index operations with explicit ids to whichever node is
 * reachable, and record every item's outcome. Each writer owns its ids and sends one bulk at a time, so the
 * attempts on one id are ordered: an attempt acknowledged before the next was sent happened before it. Items are
 * `ok` (acknowledged: status 200/201 with version, seq_no and primary term), `fail` (an item error: it may or may
 * not have been applied, as with ES) or `unknown` (the request failed or timed out: no answer at all).
 */
import type { FaultCluster } from './fault-cluster.js';
import type { Random } from './random.js';

export type Outcome = 'ok' | 'fail' | 'unknown';

export interface WriteRecord {
  readonly id: string;
  readonly attempt: number;
  readonly outcome: Outcome;
  readonly version?: number;
  readonly seqNo?: number;
  readonly term?: number;
  readonly error?: string;
  readonly via: string;
  readonly sentAt: number;
  readonly doneAt: number;
}

export interface WriterOptions {
  readonly index: string;
  readonly writers: number;
  readonly idsPerWriter: number;
  readonly itemsPerBulk: number;
  /** How long one bulk may go unanswered before its items count as unknown. */
  readonly requestTimeoutMillis: number;
}

export class BulkWriter {
  readonly records: WriteRecord[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly attempts = new Map<string, number>();

  constructor(
    private readonly cluster: FaultCluster,
    private readonly random: Random,
    private readonly options: WriterOptions,
  ) {}

  start(): void {
    this.running = true;
    for (let writer = 0; writer < this.options.writers; writer++) this.loops.push(this.loop(writer));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.loops = [];
  }

  count(outcome: Outcome): number {
    return this.records.filter((record) => record.outcome === outcome).length;
  }

  /** Resolves once `n` more items were acknowledged (or rejects after the timeout): proof that writes go on. */
  async waitForAcks(n: number, timeoutMillis: number): Promise<void> {
    const target = this.count('ok') + n;
    const deadline = Date.now() + timeoutMillis;
    while (this.count('ok') < target) {
      if (Date.now() > deadline) throw new Error(`writes did not resume: ${this.count('ok')} of ${target} acknowledged after ${timeoutMillis} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async loop(writer: number): Promise<void> {
    const { index, idsPerWriter, itemsPerBulk, requestTimeoutMillis } = this.options;
    while (this.running) {
      const targets = this.cluster.reachable();
      if (targets.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const node = this.random.pick(targets);
      const ids = new Set<string>();
      while (ids.size < itemsPerBulk) ids.add(`w${writer}-${this.random.int(idsPerWriter)}`);
      const items = [...ids].map((id) => ({ id, attempt: this.nextAttempt(id) }));
      const body = items.map(({ id, attempt }) => `{"index":{"_index":"${index}","_id":"${id}"}}\n{"id":"${id}","attempt":${attempt},"writer":${writer}}\n`).join('');
      const sentAt = Date.now();
      try {
        const response = await node.process!.request('POST', '/_bulk', { raw: body, headers: { 'content-type': 'application/x-ndjson' }, timeoutMillis: requestTimeoutMillis });
        const doneAt = Date.now();
        const answered = response.status === 200 ? (response.body?.items as Array<Record<string, { status: number; _version?: number; _seq_no?: number; _primary_term?: number; error?: { type: string } }>> | undefined) : undefined;
        items.forEach(({ id, attempt }, i) => {
          const item = answered?.[i]?.index;
          if (item === undefined) {
            this.records.push({ id, attempt, outcome: 'fail', error: `bulk ${response.status}: ${response.text.slice(0, 200)}`, via: node.name, sentAt, doneAt });
          } else if ((item.status === 200 || item.status === 201) && item.error === undefined) {
            this.records.push({ id, attempt, outcome: 'ok', version: item._version, seqNo: item._seq_no, term: item._primary_term, via: node.name, sentAt, doneAt });
          } else {
            this.records.push({ id, attempt, outcome: 'fail', error: `${item.status} ${item.error?.type}`, via: node.name, sentAt, doneAt });
          }
        });
      } catch (err) {
        const doneAt = Date.now();
        for (const { id, attempt } of items) this.records.push({ id, attempt, outcome: 'unknown', error: (err as Error).message, via: node.name, sentAt, doneAt });
      }
      await new Promise((resolve) => setTimeout(resolve, this.random.int(30)));
    }
  }

  private nextAttempt(id: string): number {
    const attempt = (this.attempts.get(id) ?? 0) + 1;
    this.attempts.set(id, attempt);
    return attempt;
  }
}
