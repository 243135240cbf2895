/**
 * One node's view of the cluster state kept in etcd: reads it whole, then follows it with a watch from the
 * next revision, applying each revision's keys together and in order (a revision is one state version, since
 * the master writes the header and the changed index keys in one transaction). When the watch is cancelled
 * (compaction) or cannot resume, it reads the whole state again and hands it over as a full state: the
 * receiver reconciles to it, never replays deltas.
 */
import type { KeyValue, Namespace, WatchResponse, Watcher } from './etcd-client.js';
import type { ClusterState } from '../../cluster-state.js';
import { decodeHeader, decodeState, type StateHeader } from './state-codec.js';
import { STATE_HEADER_KEY, STATE_INDEX_PREFIX, STATE_PREFIX } from './etcd-keys.js';
import type { EtcdWatches } from './etcd-watches.js';

const READ_PAGE_KEYS = 256;

/** The first key after every key that starts with `prefix` (etcd's range end for a prefix). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

export interface StoredState {
  readonly state: ClusterState;
  /** The etcd revision that wrote this state (the header's mod revision). */
  readonly revision: number;
  /** The index keys as stored, for the master's next diff. */
  readonly indexValues: ReadonlyMap<string, string>;
}

export interface StateStoreListener {
  onState(stored: StoredState): void;
  /** The watch lost its connection (true) or got it back (false). */
  onConnection(connected: boolean): void;
}

export class EtcdStateStore {
  private header: StateHeader | undefined;
  private headerRevision = 0;
  private readonly indexValues = new Map<string, string>();
  private watcher: Watcher | undefined;
  private closed = false;
  /** Resynchronisations after a cancelled watch, for tests and stats. */
  resyncs = 0;

  constructor(
    private readonly namespace: Namespace,
    private readonly listener: StateStoreListener,
    private readonly log: (message: string, err?: unknown) => void,
    /** The node's watches, all cancelled when it stops (etcd-watches.ts). */
    private readonly watches: EtcdWatches,
  ) {}

  get revision(): number {
    return this.headerRevision;
  }

  /** Reads the whole state (if any) and starts following it. */
  async start(): Promise<void> {
    const revision = await this.readAll();
    await this.watchFrom(revision + 1);
  }

  async stop(): Promise<void> {
    this.closed = true;
    const watcher = this.watcher;
    this.watcher = undefined;
    await this.watches.cancel(watcher);
  }

  /**
   * The master's own committed write: applied at once (the watch delivers the same revision later and it is
   * skipped as already applied).
   */
  recordOwnWrite(state: ClusterState, revision: number, indexValues: ReadonlyMap<string, string>): void {
    if (revision <= this.headerRevision) return;
    this.headerRevision = revision;
    this.indexValues.clear();
    for (const [name, value] of indexValues) this.indexValues.set(name, value);
    this.header = undefined; // the next full decode is not needed: the caller holds the state
    this.listener.onState({ state, revision, indexValues: new Map(this.indexValues) });
  }

  /**
   * A linearizable read of the whole state, in pages of keys all read at the first page's revision (one
   * response for thousands of indices could pass the client's 4 MiB message limit); returns that revision.
   */
  private async readAll(): Promise<number> {
    let storeRevision = 0;
    let from = STATE_PREFIX;
    const end = prefixEnd(STATE_PREFIX);
    this.indexValues.clear();
    this.header = undefined;
    let headerRevision = 0;
    for (;;) {
      const builder = this.namespace.getAll().inRange({ start: from, end }).sort('Key', 'Ascend').limit(READ_PAGE_KEYS);
      if (storeRevision > 0) builder.revision(String(storeRevision));
      const response = await builder.exec();
      if (storeRevision === 0) storeRevision = Number(response.header.revision);
      for (const kv of response.kvs) {
        const key = kv.key.toString();
        if (key === STATE_HEADER_KEY) {
          this.header = decodeHeader(kv.value.toString());
          headerRevision = Number(kv.mod_revision);
        } else if (key.startsWith(STATE_INDEX_PREFIX)) {
          this.indexValues.set(key.slice(STATE_INDEX_PREFIX.length), kv.value.toString());
        }
      }
      const last = response.kvs[response.kvs.length - 1];
      if (!response.more || last === undefined) break;
      from = `${last.key.toString()}\0`;
    }
    if (this.header !== undefined && headerRevision > this.headerRevision) {
      this.headerRevision = headerRevision;
      this.emit();
    }
    return storeRevision;
  }

  /** Test hook: stops following the state, as a lost watch does; `resumeWatch` follows again from where it was. */
  async pauseWatch(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    await this.watches.cancel(watcher);
  }

  async resumeWatch(): Promise<void> {
    await this.watchFrom(this.headerRevision + 1);
  }

  private emit(): void {
    if (this.header === undefined) return;
    const state = decodeState(this.header, this.indexValues);
    this.listener.onState({ state, revision: this.headerRevision, indexValues: new Map(this.indexValues) });
  }

  private async watchFrom(revision: number): Promise<void> {
    if (this.closed) return;
    const watcher = await this.watches.watch(this.namespace.watch().prefix(STATE_PREFIX).startRevision(String(revision)));
    if (this.closed) {
      await this.watches.cancel(watcher);
      return;
    }
    this.watcher = watcher;
    watcher.on('data', (response: WatchResponse) => this.onWatchData(response));
    watcher.on('disconnected', () => this.listener.onConnection(false));
    watcher.on('connected', () => this.listener.onConnection(true));
    watcher.on('error', (err: Error) => {
      // Cancelled by etcd (its history was compacted past our revision): read it all again, then follow.
      this.log('cluster state watch cancelled; re-reading the whole state', err);
      if (this.watcher === watcher) this.watcher = undefined;
      void this.resync();
    });
  }

  private async resync(): Promise<void> {
    this.resyncs++;
    for (let attempt = 0; !this.closed; attempt++) {
      try {
        const revision = await this.readAll();
        // readAll skips a header that is not newer; a compaction may have hidden index changes of a newer
        // header only if the header moved too, so emit whenever the header is known.
        this.emit();
        await this.watchFrom(revision + 1);
        return;
      } catch (err) {
        this.log('re-reading the cluster state failed; retrying', err);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
      }
    }
  }

  private onWatchData(response: WatchResponse): void {
    // Events of one revision arrive in one response (etcd's watches are atomic); group and apply in order.
    const byRevision = new Map<number, { kv: KeyValue; type: string }[]>();
    for (const event of response.events) {
      const revision = Number(event.kv.mod_revision);
      let list = byRevision.get(revision);
      if (list === undefined) byRevision.set(revision, (list = []));
      list.push({ kv: event.kv, type: event.type });
    }
    for (const revision of [...byRevision.keys()].sort((a, b) => a - b)) {
      if (revision <= this.headerRevision) continue; // our own write, already applied
      let headerTouched = false;
      for (const { kv, type } of byRevision.get(revision)!) {
        const key = kv.key.toString();
        if (key === STATE_HEADER_KEY) {
          if (type === 'Delete') continue;
          this.header = decodeHeader(kv.value.toString());
          headerTouched = true;
        } else if (key.startsWith(STATE_INDEX_PREFIX)) {
          const name = key.slice(STATE_INDEX_PREFIX.length);
          if (type === 'Delete') this.indexValues.delete(name);
          else this.indexValues.set(name, kv.value.toString());
        }
      }
      if (headerTouched) {
        this.headerRevision = revision;
        this.emit();
      }
    }
  }
}
