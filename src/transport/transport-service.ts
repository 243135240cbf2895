/**
 * Node-to-node RPC (docs/decisions/0007-transport-wire-format.md). A node listens on its transport port; peers
 * send requests named by ES-style action (`internal:tcp/handshake`, `cluster:monitor/nodes/stats[n]`, ...) and
 * get a response or an error back. Requests to one node share one TCP connection, opened on first use with a
 * handshake that checks cluster name, node identity and major version, and opened again after it closed; they
 * are matched to responses by id, and each may have a timeout. Errors thrown by a remote handler come back as
 * the same EsError (type, reason, status, causes).
 *
 * `sendRequest` is the one seam for "local or remote": a request to this node runs its handler in-process
 * without a socket (ES's TransportService local shortcut), so callers never ask where a node is.
 */
import { settleWithin } from '../common/settle-within.js';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { EsError, toEsError, type EsErrorType } from '../common/errors.js';
import { bindFailureMessage } from '../common/bind-failure.js';
import { TRANSPORT_VERSION, transportVersionMismatch, transportVersionOf } from './handshake.js';
import { encodeFrameChunks, FrameDecoder, FrameKind, ProtocolError, type Frame, type RequestFrame, type WireError } from './frame.js';

export interface RequestContext {
  readonly parentTaskId: string | undefined;
  readonly remoteAddress: string;
  /** The sending node's id; the local node's own id on the local shortcut. */
  readonly senderNodeId: string | undefined;
  /** The master term a master-to-node message carries. */
  readonly term: number | undefined;
  /** True on the local shortcut: the request never left this process (ES's `direct` channel). */
  readonly local: boolean;
  /** The caller task's headers (X-Opaque-Id and the like), carried as ES carries its thread context. */
  readonly headers: Readonly<Record<string, string>>;
}

export type TransportHandler = (body: unknown, context: RequestContext) => Promise<unknown>;

export interface HandlerOptions {
  /** Reads a request body that crossed the socket (the sender's `encodeRequest` made it); never on the local shortcut. */
  decodeRequest?: (wire: unknown) => unknown;
  /**
   * Turns the handler's answer into what crosses the socket (a compact or BigInt-safe form). Never applied on the
   * local shortcut: the caller then gets the handler's own value, and its `decodeResponse` is skipped too.
   */
  encodeResponse?: (value: unknown) => unknown;
}

export interface SendOptions {
  timeoutMillis?: number;
  parentTaskId?: string;
  /** Set on master-to-node messages so receivers can refuse a deposed master. */
  term?: number;
  /** The caller task's headers; the receiver's child task carries them. */
  headers?: Readonly<Record<string, string>>;
  /** Reads an answer that crossed the socket (the handler's `encodeResponse` made it); skipped on the local shortcut. */
  decodeResponse?: (wire: unknown) => unknown;
  /** Turns the body into what crosses the socket (the handler's `decodeRequest` reads it); skipped on the local shortcut. */
  encodeRequest?: (body: unknown) => unknown;
}

/** A handshaken connection to a node, by node id; `ready` once the handshake completed. */
interface NodeConnectionEntry {
  readonly address: string;
  readonly connection: Promise<Connection>;
  ready?: Connection;
}

/** A node as the transport addresses it. */
export interface TransportNode {
  readonly id: string;
  readonly name: string;
  /** `host:port` of its transport. */
  readonly address: string;
}

/** This node's identity, given once it is known (ports are bound first). */
export interface LocalTransportIdentity {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly clusterName: string;
  readonly version: string;
}

interface PendingRequest {
  resolve: (body: unknown) => void;
  reject: (err: EsError) => void;
  timer: NodeJS.Timeout | undefined;
  action: string;
}

class Connection {
  private readonly decoder = new FrameDecoder();
  private readonly pending = new Map<number, PendingRequest>();
  /** Encoded frames waiting for this turn's write (send). */
  private outgoing: Buffer[] = [];
  private nextId = 1;
  closed = false;
  /** Stamped on outgoing requests once the local identity is known. */
  senderId: string | undefined;

  constructor(
    readonly socket: Socket,
    readonly address: string,
    private readonly onRequest: (connection: Connection, frame: RequestFrame) => void,
    private readonly onClose: (connection: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => this.close(new EsError('node_disconnected_exception', `[${address}] disconnected`)));
    socket.on('error', () => undefined); // 'close' follows and fails what is pending
  }

  /**
   * Queues a frame; the frames queued during one turn of the event loop go out in one socket write (setImmediate
   * runs after the loop's I/O callbacks). Under load many requests and answers to the same node are produced in
   * one turn, and one write syscall (a loopback write runs the receiver's network stack too) is paid for all.
   */
  send(frame: Frame): void {
    if (this.closed) return;
    const first = this.outgoing.length === 0;
    for (const chunk of encodeFrameChunks(frame)) this.outgoing.push(chunk);
    if (first) setImmediate(() => this.flush());
  }

  private flush(): void {
    const frames = this.outgoing;
    this.outgoing = [];
    if (this.closed || frames.length === 0) return;
    // Corked, the writes leave as one writev without copying the frames together.
    this.socket.cork();
    for (const bytes of frames) this.socket.write(bytes);
    this.socket.uncork();
  }

  request(action: string, body: unknown, options: SendOptions): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timeout = options.timeoutMillis;
      const timer =
        timeout !== undefined && timeout >= 0
          ? setTimeout(() => {
              this.pending.delete(id);
              reject(new EsError('receive_timeout_transport_exception', `[${this.address}][${action}] request_id [${id}] timed out after [${timeout}ms]`));
            }, timeout)
          : undefined;
      this.pending.set(id, { resolve, reject, timer, action });
      const headers = options.headers !== undefined && Object.keys(options.headers).length > 0 ? options.headers : undefined;
      this.send({ kind: FrameKind.Request, id, action, parentTaskId: options.parentTaskId, sender: this.senderId, term: options.term, ...(headers !== undefined && { headers }), body });
    });
  }

  close(reason: EsError): void {
    if (this.closed) return;
    this.closed = true;
    for (const [, pending] of this.pending) {
      if (pending.timer) clearTimeout(pending.timer);
      pending.reject(reason);
    }
    this.pending.clear();
    this.socket.destroy();
    this.onClose(this);
  }

  private receive(chunk: Buffer): void {
    let frames: Frame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (err) {
      this.close(new EsError('transport_serialization_exception', (err as ProtocolError).message));
      return;
    }
    for (const frame of frames) {
      if (frame.kind === FrameKind.Request) {
        this.onRequest(this, frame);
        continue;
      }
      const pending = this.pending.get(frame.id);
      if (!pending) continue; // timed out already
      this.pending.delete(frame.id);
      if (pending.timer) clearTimeout(pending.timer);
      if (frame.kind === FrameKind.Response) pending.resolve(frame.body);
      else pending.reject(fromWireError(frame.error));
    }
  }
}

export class TransportService {
  private readonly handlers = new Map<string, TransportHandler>();
  private readonly responseEncoders = new Map<string, (value: unknown) => unknown>();
  private readonly requestDecoders = new Map<string, (wire: unknown) => unknown>();
  private readonly outbound = new Map<string, Promise<Connection>>();
  private readonly inbound = new Set<Connection>();
  private server: Server | undefined;
  private boundPort = 0;
  /**
   * Set by stop(): work still running as the node shuts down (a peer recovery's retry, say) must not open a
   * connection then; one that did stayed open and kept the stopped node's process alive for good.
   */
  private stopped = false;
  private local: LocalTransportIdentity | undefined;
  /** Handshaken connections by node id, each to the address it was opened to. */
  private readonly nodeConnections = new Map<string, NodeConnectionEntry>();
  /** Requests served by the local shortcut (tests assert that local work never touched a socket). */
  localRequests = 0;
  private readonly disconnectListeners: Array<(nodeId: string, address: string) => void> = [];
  /** Requests a test made fail as unreachable from this node (failSendsToNodeForTest). */
  private readonly unreachableForTest = new Set<{ readonly nodeId: string; readonly actions: ReadonlySet<string> }>();

  constructor(
    private readonly host: string,
    private readonly ports: [number, number],
  ) {}

  get port(): number {
    return this.boundPort;
  }

  registerHandler(action: string, handler: TransportHandler, options: HandlerOptions = {}): void {
    if (this.handlers.has(action)) throw new Error(`transport handler for [${action}] already registered`);
    this.handlers.set(action, handler);
    if (options.encodeResponse !== undefined) this.responseEncoders.set(action, options.encodeResponse);
    if (options.decodeRequest !== undefined) this.requestDecoders.set(action, options.decodeRequest);
  }

  /**
   * Test hook (ES's MockTransportService request behaviours): this node's handler of `action` runs inside
   * `wrap`, so a test can hold a step of a protocol at an exact point (a relocation's handoff, say). Returns
   * the function that puts the real handler back.
   */
  wrapHandlerForTest(action: string, wrap: (handler: TransportHandler) => TransportHandler): () => void {
    const original = this.handlers.get(action);
    if (original === undefined) throw new Error(`no transport handler for [${action}]`);
    this.handlers.set(action, wrap(original));
    return () => this.handlers.set(action, original);
  }

  /**
   * Test hook (ES's MockTransportService.addFailToSendNoConnectRule): requests of `actions` this node sends to `nodeId`
   * fail as requests to a node whose connection cannot be opened do (node_not_connected_exception), while the node
   * stays in the cluster and every other request reaches it. Returns the function that lifts the rule.
   */
  failSendsToNodeForTest(nodeId: string, actions: readonly string[]): () => void {
    const rule = { nodeId, actions: new Set(actions) };
    this.unreachableForTest.add(rule);
    return () => this.unreachableForTest.delete(rule);
  }

  setLocalIdentity(identity: LocalTransportIdentity): void {
    this.local = identity;
  }

  get localNodeId(): string | undefined {
    return this.local?.nodeId;
  }

  async start(): Promise<number> {
    this.stopped = false;
    const server = createServer((socket) => {
      if (this.stopped) {
        socket.destroy();
        return;
      }
      const address = `${socket.remoteAddress}:${socket.remotePort}`;
      const connection = new Connection(socket, address, (c, frame) => this.handle(c, frame), (c) => this.inbound.delete(c));
      this.inbound.add(connection);
    });
    this.server = server;
    const [low, high] = this.ports;
    let lastError: Error | undefined;
    for (let port = low; port <= high; port++) {
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, this.host, () => {
            server.off('error', reject);
            resolve();
          });
        });
        const address = server.address();
        this.boundPort = typeof address === 'object' && address ? address.port : port;
        return this.boundPort;
      } catch (err) {
        lastError = err as Error;
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') break;
      }
    }
    throw new Error(bindFailureMessage('transport', this.host, low, high, lastError));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const closing = new EsError('node_closed_exception', 'node closed');
    for (const connection of this.inbound) connection.close(closing);
    for (const pending of this.outbound.values()) void pending.then((c) => c.close(closing), () => undefined);
    this.outbound.clear();
    for (const { connection } of this.nodeConnections.values()) void connection.then((c) => c.close(closing), () => undefined);
    this.nodeConnections.clear();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Sends a request to `host:port` and resolves with the remote handler's result. */
  async send(address: string, action: string, body: unknown, options: SendOptions = {}): Promise<unknown> {
    const connection = await this.connectionTo(address);
    return connection.request(action, body, options);
  }

  /**
   * Sends a request to a node: in-process when it is this node, else over its handshaken connection (opened,
   * or opened again, on demand). A node that cannot be reached fails with node_not_connected_exception; one
   * that goes away with the request in flight with node_disconnected_exception.
   */
  async sendRequest(target: TransportNode, action: string, body: unknown, options: SendOptions = {}): Promise<unknown> {
    if (this.local !== undefined && target.id === this.local.nodeId) return this.handleLocally(action, body, options);
    if (this.unreachableForTest.size > 0) {
      for (const rule of this.unreachableForTest) {
        if (rule.nodeId === target.id && rule.actions.has(action)) throw new EsError('node_not_connected_exception', `[${target.name}][${target.address}] Node not connected`);
      }
    }
    const timeoutMillis = options.timeoutMillis === undefined || options.timeoutMillis < 0 ? undefined : options.timeoutMillis;
    const deadline = timeoutMillis === undefined ? undefined : Date.now() + timeoutMillis;
    // The usual case is an open connection: nothing to wait for (no timer, no race).
    const connection = this.readyConnection(target) ?? (await this.openedConnection(target, action, timeoutMillis));
    try {
      const wireBody = options.encodeRequest === undefined ? body : options.encodeRequest(body);
      const answer = await connection.request(action, wireBody, deadline === undefined ? options : { ...options, timeoutMillis: Math.max(1, deadline - Date.now()) });
      return options.decodeResponse === undefined ? answer : options.decodeResponse(answer);
    } catch (err) {
      const error = toEsError(err);
      if (error.type === 'node_disconnected_exception') throw new EsError('node_disconnected_exception', `[${target.name}][${target.address}][${action}] disconnected`);
      throw error;
    }
  }

  /** The node's handshaken connection when it is open now. */
  private readyConnection(target: TransportNode): Connection | undefined {
    const entry = this.nodeConnections.get(target.id);
    const ready = entry?.ready;
    return ready !== undefined && !ready.closed && entry!.address === target.address ? ready : undefined;
  }

  /** Opens (or waits for) the node's handshaken connection within the request's timeout. */
  private async openedConnection(target: TransportNode, action: string, timeoutMillis: number | undefined): Promise<Connection> {
    try {
      // The request's timeout covers opening the connection too: a node that accepts connections but does not
      // answer (paused, overloaded) must not hold the request for the handshake's own 30 s.
      return await this.withinTimeout(this.nodeConnection(target), timeoutMillis, () => `[${target.name}][${target.address}][${action}] timed out after [${timeoutMillis}ms]`);
    } catch (err) {
      const cause = toEsError(err);
      if (cause.type === 'illegal_state_exception' || cause.type === 'receive_timeout_transport_exception') throw cause;
      throw new EsError('node_not_connected_exception', `[${target.name}][${target.address}] Node not connected`, { causedBy: cause });
    }
  }

  /** Whether a handshaken connection to the node is open (or being opened). */
  isConnected(nodeId: string): boolean {
    return this.nodeConnections.has(nodeId);
  }

  /**
   * Tells `listener` when a handshaken connection to a node closed without this node closing it (the peer's
   * process exited, or the network dropped it). Failure detection (cluster/node-connections.ts) starts there.
   */
  onNodeDisconnected(listener: (nodeId: string, address: string) => void): void {
    this.disconnectListeners.push(listener);
  }

  /** Opens (or keeps) the handshaken connection to a node; rejects as sendRequest would. */
  async connectToNode(target: TransportNode): Promise<void> {
    if (this.local !== undefined && target.id === this.local.nodeId) return;
    await this.nodeConnection(target);
  }

  /**
   * Whether a process listens on `address` now, asked of the kernel with one TCP connect: `refused` means
   * nothing listens there (the process is gone), `open` that something accepted (a paused process's kernel
   * still accepts), `unknown` anything else (timeout, unreachable host: a partition or a slow network).
   */
  probe(address: string, timeoutMillis: number): Promise<'refused' | 'open' | 'unknown'> {
    const [host, portText] = splitAddress(address);
    return new Promise((resolve) => {
      const socket = connect({ host, port: Number(portText) });
      const done = (answer: 'refused' | 'open' | 'unknown') => {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer);
      };
      const timer = setTimeout(() => done('unknown'), timeoutMillis);
      socket.once('connect', () => done('open'));
      socket.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'ECONNREFUSED' ? 'refused' : 'unknown'));
    });
  }

  /** Closes the connection to a node that left the cluster; requests in flight fail as disconnected. */
  disconnectFromNode(nodeId: string): void {
    const entry = this.nodeConnections.get(nodeId);
    if (entry === undefined) return;
    this.nodeConnections.delete(nodeId);
    void entry.connection.then((c) => c.close(new EsError('node_disconnected_exception', `[${nodeId}] disconnected`)), () => undefined);
  }

  /** `work`, or receive_timeout_transport_exception after `timeoutMillis` (undefined: no limit). */
  private async withinTimeout<T>(work: Promise<T>, timeoutMillis: number | undefined, reason: () => string): Promise<T> {
    if (timeoutMillis === undefined) return work;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new EsError('receive_timeout_transport_exception', reason())), timeoutMillis);
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private handleLocally(action: string, body: unknown, options: SendOptions): Promise<unknown> {
    const handler = this.handlers.get(action);
    if (!handler) return Promise.reject(new EsError('action_not_found_transport_exception', `No handler for action [${action}]`));
    this.localRequests++;
    const work = handler(body, { parentTaskId: options.parentTaskId, remoteAddress: 'local', senderNodeId: this.local?.nodeId, term: options.term, local: true, headers: options.headers ?? EMPTY_HEADERS });
    const timeoutMillis = options.timeoutMillis;
    if (timeoutMillis === undefined || timeoutMillis < 0) return work;
    // One promise and one timer (common/settle-within.ts): every `_cat/nodes` and `_tasks` sends this to its own node.
    return settleWithin(work, timeoutMillis, () => new EsError('receive_timeout_transport_exception', `[local][${action}] timed out after [${timeoutMillis}ms]`));
  }

  private nodeConnection(target: TransportNode): Promise<Connection> {
    if (this.stopped) return Promise.reject(new EsError('node_closed_exception', 'node closed'));
    const existing = this.nodeConnections.get(target.id);
    if (existing !== undefined && existing.address === target.address) return existing.connection;
    if (existing !== undefined) this.disconnectFromNode(target.id);
    const connecting = this.openNodeConnection(target);
    const entry: NodeConnectionEntry = { address: target.address, connection: connecting };
    this.nodeConnections.set(target.id, entry);
    connecting.then(
      (connection) => {
        entry.ready = connection;
      },
      () => {
        if (this.nodeConnections.get(target.id) === entry) this.nodeConnections.delete(target.id);
      },
    );
    return connecting;
  }

  private async openNodeConnection(target: TransportNode): Promise<Connection> {
    const local = this.local;
    const [host, portText] = splitAddress(target.address);
    const connection = await new Promise<Connection>((resolve, reject) => {
      const socket = connect({ host, port: Number(portText) });
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        const opened = new Connection(socket, target.address, (c, frame) => this.handle(c, frame), (c) => {
          const entry = this.nodeConnections.get(target.id);
          if (entry === undefined) return; // closed by this node (disconnectFromNode, stop)
          void entry.connection.then((current) => {
            if (current !== c || this.nodeConnections.get(target.id) !== entry) return;
            this.nodeConnections.delete(target.id);
            for (const listener of this.disconnectListeners) listener(target.id, target.address);
          }, () => undefined);
        });
        opened.senderId = local?.nodeId;
        resolve(opened);
      });
      socket.once('error', (err) => reject(new EsError('connect_transport_exception', `[${target.address}] connect_exception: ${err.message}`)));
    });
    try {
      const hello = local === undefined ? { transportVersion: TRANSPORT_VERSION } : { clusterName: local.clusterName, version: local.version, nodeId: local.nodeId, transportVersion: TRANSPORT_VERSION };
      const response = (await connection.request(HANDSHAKE_ACTION_NAME, hello, { timeoutMillis: 30_000 })) as {
        nodeId: string;
        clusterName: string;
        version: string;
      };
      const peerTransportVersion = transportVersionOf(response);
      if (peerTransportVersion !== TRANSPORT_VERSION) throw transportVersionMismatch(`node [${response.nodeId}] at [${target.address}]`, peerTransportVersion);
      if (local !== undefined && response.clusterName !== local.clusterName) {
        throw new EsError('illegal_state_exception', `handshake with [${target.address}] failed: remote cluster name [${response.clusterName}] does not match local cluster name [${local.clusterName}]`);
      }
      if (response.nodeId !== target.id) {
        throw new EsError('illegal_state_exception', `handshake with [${target.address}] failed: expected node [${target.id}] but found [${response.nodeId}]`);
      }
      if (local !== undefined && majorOf(response.version) !== majorOf(local.version)) {
        throw new EsError('illegal_state_exception', `handshake with [${target.address}] failed: remote node version [${response.version}] is incompatible with local version [${local.version}]`);
      }
      // stop() ran while this connection was opening: it has already closed what it knew of.
      if (this.stopped) throw new EsError('node_closed_exception', 'node closed');
    } catch (err) {
      connection.close(toEsError(err));
      throw err;
    }
    return connection;
  }

  private connectionTo(address: string): Promise<Connection> {
    if (this.stopped) return Promise.reject(new EsError('node_closed_exception', 'node closed'));
    const existing = this.outbound.get(address);
    if (existing) return existing;
    const [host, portText] = splitAddress(address);
    const connecting = new Promise<Connection>((resolve, reject) => {
      const socket = connect({ host, port: Number(portText) });
      socket.once('connect', () => {
        resolve(new Connection(socket, address, (c, frame) => this.handle(c, frame), () => this.outbound.delete(address)));
      });
      socket.once('error', (err) => {
        this.outbound.delete(address);
        reject(new EsError('connect_transport_exception', `[${address}] connect_exception: ${err.message}`));
      });
    });
    this.outbound.set(address, connecting);
    return connecting;
  }

  private handle(connection: Connection, frame: RequestFrame): void {
    const handler = this.handlers.get(frame.action);
    if (!handler) {
      connection.send({ kind: FrameKind.Error, id: frame.id, error: toWireError(new EsError('action_not_found_transport_exception', `No handler for action [${frame.action}]`)) });
      return;
    }
    const encode = this.responseEncoders.get(frame.action);
    const decode = this.requestDecoders.get(frame.action);
    let body: unknown;
    try {
      body = decode === undefined ? frame.body : decode(frame.body);
    } catch (err) {
      connection.send({ kind: FrameKind.Error, id: frame.id, error: toWireError(toEsError(err)) });
      return;
    }
    handler(body, { parentTaskId: frame.parentTaskId, remoteAddress: connection.address, senderNodeId: frame.sender, term: frame.term, local: false, headers: frame.headers ?? EMPTY_HEADERS }).then(
      (body) => connection.send({ kind: FrameKind.Response, id: frame.id, body: encode === undefined ? body : encode(body) }),
      (err: unknown) => connection.send({ kind: FrameKind.Error, id: frame.id, error: toWireError(toEsError(err)) }),
    );
  }
}

/** The headers of a request that carries none (shared: handlers only read them). */
const EMPTY_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The handshake's action name (handshake.ts registers its handler; kept here so the service has no import cycle). */
const HANDSHAKE_ACTION_NAME = 'internal:tcp/handshake';

function majorOf(version: string): string {
  return version.split('.')[0] ?? version;
}

function splitAddress(address: string): [string, string] {
  const colon = address.lastIndexOf(':');
  return [address.slice(0, colon).replace(/^\[|\]$/g, ''), address.slice(colon + 1)];
}

export function toWireError(error: EsError): WireError {
  return {
    type: error.type,
    reason: error.reason,
    status: error.status,
    metadata: Object.keys(error.metadata).length > 0 ? error.metadata : undefined,
    causedBy: error.causedBy ? toWireError(error.causedBy) : undefined,
  };
}

export function fromWireError(wire: WireError): EsError {
  return new EsError(wire.type as EsErrorType, wire.reason, {
    status: wire.status,
    metadata: wire.metadata,
    causedBy: wire.causedBy ? fromWireError(wire.causedBy) : undefined,
  });
}
