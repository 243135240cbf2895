/**
 * Every etcd watch a node holds, so that stopping the node closes each one. etcd3 keeps a watch's stream open until
 * the watch is cancelled, closing the client does not end it, and once the client is closed a watch that lost its
 * stream retries it on a timer for ever: one watch left behind kept a stopped node's process alive for good (a watch
 * a node opened as it was elected master during its own stop). So the coordinator and the state store open watches
 * only through here, and `closeAll` (before the client closes) cancels all of them, those still being created too,
 * and refuses every later one.
 */
import { EsError } from '../../../common/errors.js';
import type { WatchBuilder, Watcher } from './etcd-client.js';

/** How long stopping waits for etcd to confirm one cancel (a paused etcd never answers). */
const CANCEL_WAIT_MILLIS = 5_000;

export class EtcdWatches {
  /** Open watches, and for those etcd has not created yet the function that fails their opening. */
  private readonly open = new Map<Watcher, ((err: Error) => void) | undefined>();
  /** Watches etcd ended itself (cancelled by it, e.g. after a compaction): never cancelled again (see `cancel`). */
  private readonly ended = new WeakSet<Watcher>();
  private closed = false;

  /** Opens a watch; resolves once etcd created it. Rejects with `node_closed_exception` once closed. */
  async watch(builder: WatchBuilder): Promise<Watcher> {
    if (this.closed) throw nodeClosed();
    if (builder.watcher === undefined) return this.adopt(await builder.create());
    // Unlike create(), watcher() hands the watch over before etcd created it, so a stop meanwhile can cancel it.
    const watcher = builder.watcher();
    this.followEnd(watcher);
    try {
      await new Promise<void>((resolve, reject) => {
        this.open.set(watcher, reject);
        watcher.once('connected', () => resolve());
        watcher.once('error', reject);
      });
    } catch (err) {
      await this.cancel(watcher);
      throw err;
    }
    this.open.set(watcher, undefined);
    return watcher;
  }

  /** Cancels a watch (a no-op for one already cancelled, or ended by etcd). */
  async cancel(watcher: Watcher | undefined): Promise<void> {
    if (watcher === undefined || !this.open.has(watcher)) return;
    this.open.delete(watcher);
    // etcd3 waits for etcd's answer to a cancel; for a watch etcd already ended that answer never comes.
    if (this.ended.has(watcher)) return;
    await withinMillis(watcher.cancel().catch(() => undefined), CANCEL_WAIT_MILLIS);
  }

  /** Cancels every watch, fails those being opened, and refuses new ones. */
  async closeAll(): Promise<void> {
    this.closed = true;
    const watchers = [...this.open];
    for (const [, failOpening] of watchers) failOpening?.(nodeClosed());
    await Promise.all(watchers.map(([watcher]) => this.cancel(watcher)));
  }

  get size(): number {
    return this.open.size;
  }

  private async adopt(watcher: Watcher): Promise<Watcher> {
    if (this.closed) {
      await watcher.cancel().catch(() => undefined);
      throw nodeClosed();
    }
    this.followEnd(watcher);
    this.open.set(watcher, undefined);
    return watcher;
  }

  /** A watch etcd cancelled is over: nothing to cancel at stop. */
  private followEnd(watcher: Watcher): void {
    watcher.on('error', () => {
      this.ended.add(watcher);
      this.open.delete(watcher);
    });
  }
}

function nodeClosed(): EsError {
  return new EsError('node_closed_exception', 'node closed');
}

async function withinMillis(work: Promise<unknown>, millis: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, millis)))]);
  clearTimeout(timer);
}
