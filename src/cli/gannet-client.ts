/**
 * The operator commands' only way into a node: HTTP through fetch, like any other Elasticsearch client.
 * Nothing here imports server code, so what the CLI shows is exactly what the wire says.
 *
 * Failures are sorted into the two kinds scripts need to tell apart: the node could not be reached
 * (UnreachableError, exit 3) and the node answered with an error or something unreadable (exit 4,
 * decided by the commands from the status they accept).
 */
import { UsageError } from './operator-options.js';

export const DEFAULT_URL = 'http://127.0.0.1:9200';
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface GannetResponse {
  status: number;
  /** The body exactly as received, for `--json`. */
  text: string;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown;
  /** `GET /_cluster/health?...`, for messages. */
  request: string;
}

export type QueryParams = Record<string, string | boolean | undefined>;

export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
  constructor(
    message: string,
    /** The request was sent but no full answer came within the time limit (as opposed to never connecting). */
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

export class ResponseError extends Error {
  override readonly name = 'ResponseError';
  constructor(
    message: string,
    readonly response: GannetResponse,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** Sent as X-Opaque-Id so the node's task list can tell this CLI's own requests apart. */
  opaqueId?: string;
}

export interface RequestOptions {
  /** Give up (UnreachableError) when the answer takes longer; defaults to 30s. */
  timeoutMs?: number;
  /** Sent as a JSON body (`content-type: application/json`). */
  body?: unknown;
}

export class GannetClient {
  private readonly base: URL;
  private readonly headers: Record<string, string>;

  constructor(
    readonly displayUrl: string,
    base: URL,
    authorization: string | undefined,
    options: ClientOptions = {},
  ) {
    this.base = base;
    this.headers = { accept: 'application/json' };
    if (authorization !== undefined) this.headers['authorization'] = authorization;
    if (options.opaqueId !== undefined) this.headers['x-opaque-id'] = options.opaqueId;
  }

  /** `--url` as typed: `host:9200` gets `http://`; user:password moves into a basic Authorization header. */
  static forUrl(rawUrl: string, options: ClientOptions = {}): GannetClient {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(rawUrl) ? rawUrl : `http://${rawUrl}`;
    let url: URL;
    try {
      url = new URL(withScheme);
    } catch {
      throw new UsageError(`invalid --url [${rawUrl}]: expected something like ${DEFAULT_URL}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`invalid --url [${rawUrl}]: only http:// and https:// are supported`);
    }
    let authorization: string | undefined;
    if (url.username !== '' || url.password !== '') {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    url.search = '';
    url.hash = '';
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    const display = url.href.replace(/\/$/, '');
    return new GannetClient(display, url, authorization, options);
  }

  async request(method: 'GET' | 'POST', path: string, query: QueryParams = {}, options: RequestOptions = {}): Promise<GannetResponse> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === false) continue;
      url.searchParams.set(key, value === true ? 'true' : value);
    }
    const request = `${method} ${url.pathname}${url.search}`;
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    try {
      // One signal covers connecting, waiting and reading the body: a node that stalls mid-body is as unreachable as one that never answers.
      const init: RequestInit = { method, headers: this.headers, signal: AbortSignal.timeout(timeoutMs) };
      if (options.body !== undefined) {
        init.headers = { ...this.headers, 'content-type': 'application/json' };
        init.body = JSON.stringify(options.body);
      }
      const response = await fetch(url, init);
      const text = await response.text();
      return { status: response.status, text, body: parseJson(text), request };
    } catch (err) {
      throw new UnreachableError(`cannot reach Gannet at ${this.displayUrl}: ${describeFetchFailure(err, timeoutMs)}`, isTimeout(err));
    }
  }
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS lookup failed)',
  EAI_AGAIN: 'host name lookup failed (DNS temporarily unavailable)',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the response body stalled',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host name',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate cannot be verified',
  EPROTO: 'TLS/protocol error (is it http:// rather than https://?)',
};

/** Words for why fetch failed. fetch wraps the socket error as `cause` (sometimes an AggregateError of per-address tries). */
export function describeFetchFailure(err: unknown, timeoutMs: number): string {
  if (isTimeout(err)) {
    return `no answer within ${formatSeconds(timeoutMs)}`;
  }
  const code = errorCode(err instanceof Error ? err.cause : undefined) ?? errorCode(err);
  if (code !== undefined) return NETWORK_ERRORS[code] ?? code;
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}

function errorCode(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const nested = (value as { errors?: unknown }).errors;
  if (Array.isArray(nested)) {
    for (const inner of nested) {
      const innerCode = errorCode(inner);
      if (innerCode !== undefined) return innerCode;
    }
  }
  return undefined;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
