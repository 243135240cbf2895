/**
 * A small pool of worker threads running one kind of job (decision 0010: CPU-heavy work of one request, such
 * as a script over a batch of hits or the parsing of a very large document, runs off the event loop). Workers
 * are started on first use, up to `size`, and take queued jobs in order; an idle worker is unreferenced, so the
 * pool never keeps the process alive. A job whose `abort` signal fires is told so (`onAbort`, e.g. a shared
 * flag the job reads) and, if it has not answered within the grace period, its thread is terminated and
 * replaced: the caller is never left waiting on a job that ignores its cancel.
 *
 * The worker script answers each message it receives with exactly one message.
 */
import { Worker, type TransferListItem } from 'node:worker_threads';

export interface JobOptions {
  readonly transfer?: readonly TransferListItem[];
  readonly abort?: AbortSignal;
  /** Called once when `abort` fires (before the grace period starts). */
  readonly onAbort?: () => void;
  /** How long an aborted job may take to answer before its thread is terminated (default 2 s). */
  readonly graceMillis?: number;
}

interface Job<Reply> {
  readonly message: unknown;
  readonly transfer: readonly TransferListItem[];
  readonly resolve: (reply: Reply) => void;
  readonly reject: (err: Error) => void;
  worker?: PooledWorker<Reply>;
}

class PooledWorker<Reply> {
  private readonly worker: Worker;
  private job: Job<Reply> | undefined;
  private dead = false;

  constructor(
    url: URL,
    name: string,
    private readonly onIdle: (worker: PooledWorker<Reply>) => void,
    private readonly onDeath: (worker: PooledWorker<Reply>) => void,
  ) {
    this.worker = new Worker(url, { name });
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      const job = this.job;
      if (job === undefined) return;
      this.job = undefined;
      this.worker.unref();
      job.resolve(reply);
      this.onIdle(this);
    });
    const fail = (err: Error): void => {
      if (this.dead) return;
      this.dead = true;
      const job = this.job;
      this.job = undefined;
      job?.reject(err);
      this.onDeath(this);
    };
    this.worker.on('error', (err) => fail(err instanceof Error ? err : new Error(String(err))));
    this.worker.on('exit', (code) => fail(new Error(`${name} worker exited with code ${code}`)));
  }

  run(job: Job<Reply>): void {
    this.job = job;
    job.worker = this;
    // Keep the process alive while a job is out; an idle worker must not.
    this.worker.ref();
    this.worker.postMessage(job.message, job.transfer as TransferListItem[]);
  }

  terminate(): void {
    void this.worker.terminate();
  }
}

export class WorkerPool<Request, Reply> {
  private readonly workers = new Set<PooledWorker<Reply>>();
  private readonly idle: PooledWorker<Reply>[] = [];
  private readonly waiting: Job<Reply>[] = [];

  constructor(
    private readonly url: URL,
    private readonly name: string,
    private readonly size: number,
  ) {}

  /** Runs one job; resolves with the worker's answer, rejects if its thread died (or was ended on abort). */
  async run(request: Request, options: JobOptions = {}): Promise<Reply> {
    let job: Job<Reply> | undefined;
    let grace: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      options.onAbort?.();
      grace = setTimeout(() => {
        if (job?.worker !== undefined) job.worker.terminate();
        else if (job !== undefined) {
          // Still queued: it never starts.
          const at = this.waiting.indexOf(job);
          if (at >= 0) this.waiting.splice(at, 1);
          job.reject(new Error(`${this.name} job aborted before it started`));
        }
      }, options.graceMillis ?? 2000);
      grace.unref();
    };
    const abort = options.abort;
    try {
      return await new Promise<Reply>((resolve, reject) => {
        job = { message: request, transfer: options.transfer ?? [], resolve, reject };
        if (abort?.aborted === true) onAbort();
        else abort?.addEventListener('abort', onAbort, { once: true });
        this.dispatch(job);
      });
    } finally {
      abort?.removeEventListener('abort', onAbort);
      if (grace !== undefined) clearTimeout(grace);
    }
  }

  private dispatch(job: Job<Reply>): void {
    let worker = this.idle.pop();
    if (worker === undefined && this.workers.size < this.size) {
      worker = new PooledWorker<Reply>(
        this.url,
        this.name,
        (done) => this.release(done),
        (died) => this.forget(died),
      );
      this.workers.add(worker);
    }
    if (worker === undefined) this.waiting.push(job);
    else worker.run(job);
  }

  private release(worker: PooledWorker<Reply>): void {
    const next = this.waiting.shift();
    if (next === undefined) this.idle.push(worker);
    else worker.run(next);
  }

  private forget(worker: PooledWorker<Reply>): void {
    this.workers.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    const next = this.waiting.shift();
    if (next !== undefined) this.dispatch(next);
  }
}
