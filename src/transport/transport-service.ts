/**
 * Node-to-node RPC. A node listens on its transport port; peers send requests named by ES-style action
 * (`internal:tcp/handshake`, `cluster:monitor/nodes/stats[n]`, ...) and get a response or an error back.
 * Requests to one address share one TCP connection and are matched to responses by id; each request has a
 * timeout. Errors thrown by a remote handler come back as the same EsError (type, reason, status, causes).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { EsError, toEsError, type EsErrorType } from '../common/errors.js';
import { encodeFrame, FrameDecoder, FrameKind, ProtocolError, type Frame, type RequestFrame, type WireError } from './frame.js';

export type TransportHandler = (body: unknown, context: { parentTaskId: string | undefined; remoteAddress: string }) => Promise<unknown>;

export interface SendOptions {
  timeoutMillis?: number;
  parentTaskId?: string;
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
  private nextId = 1;
  closed = false;

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

  send(frame: Frame): void {
    if (!this.closed) this.socket.write(encodeFrame(frame));
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
      this.send({ kind: FrameKind.Request, id, action, parentTaskId: options.parentTaskId, body });
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
  private readonly outbound = new Map<string, Promise<Connection>>();
  private readonly inbound = new Set<Connection>();
  private server: Server | undefined;
  private boundPort = 0;

  constructor(
    private readonly host: string,
    private readonly ports: [number, number],
  ) {}

  get port(): number {
    return this.boundPort;
  }

  registerHandler(action: string, handler: TransportHandler): void {
    if (this.handlers.has(action)) throw new Error(`transport handler for [${action}] already registered`);
    this.handlers.set(action, handler);
  }

  async start(): Promise<number> {
    const server = createServer((socket) => {
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
    throw new Error(`failed to bind transport to ${this.host}:${low}-${high}: ${lastError?.message}`);
  }

  async stop(): Promise<void> {
    const closing = new EsError('node_closed_exception', 'node closed');
    for (const connection of this.inbound) connection.close(closing);
    for (const pending of this.outbound.values()) void pending.then((c) => c.close(closing), () => undefined);
    this.outbound.clear();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Sends a request to `host:port` and resolves with the remote handler's result. */
  async send(address: string, action: string, body: unknown, options: SendOptions = {}): Promise<unknown> {
    const connection = await this.connectionTo(address);
    return connection.request(action, body, options);
  }

  private connectionTo(address: string): Promise<Connection> {
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
    handler(frame.body, { parentTaskId: frame.parentTaskId, remoteAddress: connection.address }).then(
      (body) => connection.send({ kind: FrameKind.Response, id: frame.id, body }),
      (err: unknown) => connection.send({ kind: FrameKind.Error, id: frame.id, error: toWireError(toEsError(err)) }),
    );
  }
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
