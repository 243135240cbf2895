/**
 * The part of the `etcd3` npm client (>= 1.1.2) the coordinator uses, typed here and loaded on demand: a
 * node that runs the embedded coordinator never loads etcd3 or grpc-js, and the project builds without them.
 * Names and shapes are etcd3's own (revisions are decimal strings, keys and values Buffers).
 */

export interface KeyValue {
  key: Buffer;
  value: Buffer;
  create_revision: string;
  mod_revision: string;
  lease: string;
}

export interface ResponseHeader {
  revision: string;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: KeyValue[];
  more: boolean;
}

export interface WatchEvent {
  type: 'Put' | 'Delete';
  kv: KeyValue;
}

export interface WatchResponse {
  header: ResponseHeader;
  events: WatchEvent[];
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: Array<{ response_range?: RangeResponse }>;
}

/** An operation usable inside a transaction (what a builder is before exec). */
export type Operation = object;

export interface MultiRangeBuilder extends Operation {
  prefix(value: string): this;
  inRange(range: { start: string; end: string }): this;
  sort(target: 'Key' | 'Create' | 'Mod', order: 'Ascend' | 'Descend'): this;
  limit(count: number): this;
  revision(revision: string): this;
  maxCreateRevision(revision: string): this;
  exec(): Promise<RangeResponse>;
  keys(): Promise<string[]>;
}

export interface SingleRangeBuilder extends Operation {
  exec(): Promise<RangeResponse>;
  string(): Promise<string | null>;
}

export interface PutBuilder extends Operation, PromiseLike<unknown> {
  value(value: string): this;
  lease(leaseId: string): this;
}

export interface DeleteBuilder extends Operation, PromiseLike<unknown> {
  key(key: string): this;
}

export interface ComparatorBuilder {
  and(key: string, column: 'Create' | 'Mod' | 'Version' | 'Value' | 'Lease', cmp: '==' | '!=' | '<' | '>', value: string | number): this;
  then(...operations: Operation[]): this;
  else(...operations: Operation[]): this;
  commit(): Promise<TxnResponse>;
}

export interface Watcher {
  on(event: 'data', handler: (response: WatchResponse) => void): this;
  on(event: 'put' | 'delete', handler: (kv: KeyValue) => void): this;
  on(event: 'connected' | 'end', handler: () => void): this;
  on(event: 'disconnected' | 'error', handler: (err: Error) => void): this;
  once(event: 'connected', handler: () => void): this;
  once(event: 'error', handler: (err: Error) => void): this;
  cancel(): Promise<void>;
}

export interface WatchBuilder {
  prefix(value: string): this;
  key(key: string): this;
  startRevision(revision: string): this;
  create(): Promise<Watcher>;
  /** The watch, attached at once and created by etcd later ('connected'); what create() waits on (etcd-watches.ts). */
  watcher?(): Watcher;
}

export interface Lease {
  grant(): Promise<string>;
  revoke(): Promise<void>;
  release(): void;
  on(event: 'lost', handler: (err: Error) => void): this;
  /** etcd answered a keepalive: the lease runs its full TTL from now. */
  on(event: 'keepaliveSucceeded', handler: () => void): this;
}

export interface Namespace {
  get(key: string): SingleRangeBuilder;
  getAll(): MultiRangeBuilder;
  put(key: string): PutBuilder;
  delete(): DeleteBuilder;
  if(key: string, column: 'Create' | 'Mod' | 'Version' | 'Value' | 'Lease', cmp: '==' | '!=' | '<' | '>', value: string | number): ComparatorBuilder;
  watch(): WatchBuilder;
  lease(ttlSeconds: number): Lease;
  /** The raw lease RPCs: revoking another holder's lease by id (a node proven gone). */
  readonly leaseClient: { leaseRevoke(request: { ID: string }): Promise<unknown> };
}

export interface EtcdClient extends Namespace {
  namespace(prefix: string): Namespace;
  readonly kv: { compact(request: { revision: string; physical?: boolean }): Promise<unknown> };
  close(): void;
}

export interface EtcdClientOptions {
  readonly endpoints: readonly string[];
  /** Delay before a lost watch stream reconnects; it doubles up to 2 s (etcd3's default backs off up to 30 s). */
  readonly watchBackoffMillis?: number;
}

/** Loads etcd3 and connects (lazily: the first call dials). */
export async function createEtcdClient(options: EtcdClientOptions): Promise<EtcdClient> {
  // A computed specifier keeps TypeScript from resolving the package: the build does not need it installed.
  const specifier = 'etcd3';
  let loaded: { Etcd3: new (options: object) => EtcdClient };
  try {
    loaded = (await import(specifier)) as typeof loaded;
  } catch (err) {
    throw new Error(`cluster.coordination [etcd] needs the etcd3 package: run npm install (${(err as Error).message})`);
  }
  return new loaded.Etcd3({
    hosts: [...options.endpoints],
    dialTimeout: 5000,
    faultHandling: { watchBackoff: doublingBackoff(options.watchBackoffMillis ?? 100) },
  });
}

/** cockatiel's IBackoff shape: a duration and the next backoff. */
interface Backoff {
  readonly duration: number;
  next(): Backoff;
}

function doublingBackoff(initial: number): Backoff {
  return { duration: initial, next: () => doublingBackoff(Math.min(2000, initial * 2)) };
}
