/**
 * The HTTP front door, shared by every endpoint. For each request it: routes (ES's 400/405 bodies for unknown
 * paths and methods), rejects undeclared query parameters with ES's did-you-mean message, enforces
 * `http.max_content_length` (413), inflates gzip bodies, negotiates media types, runs the handler as a
 * registered task (cancelled if the client disconnects), and renders the result with `pretty`, `human`,
 * `filter_path`, `format` and gzip. Whatever a handler throws becomes an ES error body; nothing crashes the node.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Logger } from 'pino';
import { EsError, errors, toEsError } from '../common/errors.js';
import { bindFailureMessage } from '../common/bind-failure.js';
import { levenshteinSimilarity } from '../common/levenshtein.js';
import type { HttpMethod, RestResponse, Route } from '../actions/rest.js';
import type { NodeServices } from '../actions/context.js';
import { Router, splitPath, type RouteMatch } from './router.js';
import { HttpRestRequest } from './http-request.js';
import { readBody, hasNoBody, NO_BODY, BodyTooLargeError, BadContentEncodingError } from './body-reader.js';
import { writeJsonBytes, writeJsonChunks, writeYaml } from './xcontent.js';
import { applyFilterPath, parseFilterPath } from './filter-path.js';
import { contentTypeFor, negotiateCompatibleVersion, parseAccept, parseMediaType, type Format } from './media-type.js';
import { errorBody } from './error-response.js';
import { CorsHandler, type CorsConfig } from './cors.js';
import { checkCrossSite, checkHostHeader, type RequestOriginConfig } from './request-origin.js';
import { BreakerReservation } from '../common/circuit-breakers.js';

/** Parameters every endpoint accepts (ES's RestResponse.RESPONSE_PARAMS plus the xcontent ones). */
const COMMON_PARAMS = ['format', 'filter_path', 'pretty', 'human', 'error_trace'];

const KNOWN_METHODS = new Set<string>(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** Body formats ES accepts in Content-Type. */
const ACCEPTED_BODY_FORMATS = new Set<Format>(['json', 'ndjson', 'yaml']);

export interface HttpServerOptions {
  host: string;
  /** Inclusive port range; the first free port is used (0 asks the OS). */
  ports: [number, number];
  maxContentLength: number;
  /** `http.max_initial_line_length` (ES: 4kb): a longer request line is refused with too_long_http_line_exception. */
  maxInitialLineLength?: number;
  /** `http.max_header_size` (ES: 16kb): larger headers are refused with too_long_http_header_exception. */
  maxHeaderSize?: number;
  compression: boolean;
  /** `http.cors.*`; absent means disabled. */
  cors?: CorsConfig;
  /** Names the node may be addressed by (`http.allowed_hosts` and its own); absent turns the Host check off. */
  allowedHosts?: readonly string[];
}

export class HttpServer {
  private readonly router = new Router();
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;
  private readonly cors: CorsHandler | undefined;
  private readonly origin: RequestOriginConfig | undefined;
  private readonly maxInitialLineLength: number;
  private readonly maxHeaderSize: number;
  private lastAllowedHost: string | undefined;

  constructor(
    private readonly services: NodeServices,
    private readonly options: HttpServerOptions,
    private readonly logger: Logger,
  ) {
    this.cors = options.cors?.enabled ? new CorsHandler(options.cors) : undefined;
    this.origin = options.allowedHosts === undefined ? undefined : { corsEnabled: this.cors !== undefined, allowedHosts: options.allowedHosts };
    this.maxInitialLineLength = options.maxInitialLineLength ?? DEFAULT_MAX_INITIAL_LINE_LENGTH;
    this.maxHeaderSize = options.maxHeaderSize ?? DEFAULT_MAX_HEADER_SIZE;
    // Node's parser counts the request line and the headers together; the limits ES applies to each are checked
    // on the parsed request, and Node's own limit only stops what is far beyond both.
    this.server = createServer({ maxHeaderSize: this.maxInitialLineLength + this.maxHeaderSize + 1024 }, (request, response) => {
      void this.dispatch(request, response);
    });
    // `Expect: 100-continue`: Netty's aggregator answers 417 at once for a body over http.max_content_length,
    // before the client sends it, and 100 Continue otherwise.
    this.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      if (Number(request.headers['content-length'] ?? '0') > this.options.maxContentLength) {
        response.writeHead(417, { 'content-length': '0', connection: 'close', 'X-elastic-product': 'Elasticsearch' });
        response.end();
        response.on('finish', () => request.socket.destroySoon?.());
        return;
      }
      response.writeContinue();
      void this.dispatch(request, response);
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.on('clientError', (err, socket) => {
      if (socket.writable && (err as NodeJS.ErrnoException).code === 'HPE_HEADER_OVERFLOW') {
        const packet = (err as { rawPacket?: Buffer }).rawPacket;
        const lineEnd = packet?.indexOf('\r\n') ?? -1;
        const error = lineEnd < 0 || lineEnd > this.maxInitialLineLength ? tooLongLine(this.maxInitialLineLength) : tooLongHeader(this.maxHeaderSize);
        const body = JSON.stringify(errorBody(error, false));
        socket.end(
          `HTTP/1.1 400 Bad Request\r\nX-elastic-product: Elasticsearch\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
        return;
      }
      if (socket.writable) {
        const body = JSON.stringify({ error: `bad request: ${(err as Error).message}`, status: 400 });
        socket.end(
          `HTTP/1.1 400 Bad Request\r\nX-elastic-product: Elasticsearch\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      } else socket.destroy();
    });
  }

  register(routes: readonly Route[]): void {
    for (const route of routes) this.router.add(route);
  }

  get port(): number {
    return this.boundPort;
  }

  async start(): Promise<number> {
    const [low, high] = this.options.ports;
    let lastError: unknown;
    for (let port = low; port <= high; port++) {
      try {
        await new Promise<void>((resolve, reject) => {
          const onError = (err: Error) => {
            this.server.off('listening', onListening);
            reject(err);
          };
          const onListening = () => {
            this.server.off('error', onError);
            resolve();
          };
          this.server.once('error', onError);
          this.server.once('listening', onListening);
          this.server.listen(port, this.options.host);
        });
        const address = this.server.address();
        this.boundPort = typeof address === 'object' && address ? address.port : port;
        return this.boundPort;
      } catch (err) {
        lastError = err;
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') break;
      }
    }
    throw new Error(bindFailureMessage('HTTP', this.options.host, low, high, lastError));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  private async dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // X-elastic-product goes into every head written (writeHead's headers, not setHeader: a response whose head is
    // only given to writeHead skips Node's per-header bookkeeping); a header set earlier is put after it (setHeaderOn).
    // ES echoes the caller's X-Opaque-Id so it can match responses (and tasks, slow logs) to requests.
    const opaqueId = request.headers['x-opaque-id'];
    if (typeof opaqueId === 'string') setHeaderOn(response, 'X-Opaque-Id', opaqueId);
    if (this.origin !== undefined) {
      // DNS rebinding and cross-site requests are refused before anything else (request-origin.ts).
      const refused = this.checkHost(request.headers['host'], this.origin) ?? checkCrossSite((request.method ?? 'GET').toUpperCase(), request.headers, this.origin);
      if (refused !== undefined) {
        drain(request);
        const { query } = safeParseUri(request.url ?? '/');
        this.send(request, response, { kind: 'json', status: refused.status, body: errorBody(refused) }, query, undefined);
        return;
      }
    }
    if (this.cors !== undefined) {
      // Preflights and disallowed origins are answered before routing, as ES's CorsHandler does.
      const reply = this.cors.handleInbound(request);
      if (reply !== undefined) {
        drain(request);
        setHeaderOn(response, 'X-elastic-product', 'Elasticsearch');
        response.writeHead(reply.status, reply.headers);
        response.end();
        return;
      }
      for (const [name, value] of Object.entries(this.cors.responseHeaders(request))) setHeaderOn(response, name, value);
    }
    const rawUri = request.url ?? '/';
    const method = (request.method ?? 'GET').toUpperCase();
    const limitError = this.checkLineAndHeaders(request);
    if (limitError !== undefined) {
      drain(request);
      setHeaderOn(response, 'connection', 'close');
      this.send(request, response, { kind: 'json', status: limitError.status, body: errorBody(limitError, false) }, new Map(), undefined);
      return;
    }
    let pretty = false;
    let errorTrace = false;
    let compatibleWith: number | undefined;
    try {
      const { path, segments, query } = parseUri(rawUri);
      pretty = isTrue(query.get('pretty'));
      errorTrace = isTrue(query.get('error_trace'));
      // Like ES's HTTP pipeline, the size limit applies before any routing.
      const declaredLength = Number(request.headers['content-length'] ?? '0');
      if (declaredLength > this.options.maxContentLength) {
        this.rejectTooLarge(request, response);
        return;
      }
      if (!KNOWN_METHODS.has(method)) {
        this.sendSimpleError(request, response, 405, `Incorrect HTTP method for uri [${rawUri}] and method [${method}]`);
        return;
      }
      const lookup = this.router.lookup(method as HttpMethod, segments);
      if (lookup.kind === 'not-found') {
        drain(request);
        this.sendSimpleError(request, response, 400, `no handler found for uri [${rawUri}] and method [${method}]`);
        return;
      }
      if (lookup.kind === 'method-not-allowed') {
        drain(request);
        const allowed = lookup.allowed.includes('GET') && !lookup.allowed.includes('HEAD') ? [...lookup.allowed, 'HEAD' as const].sort() : lookup.allowed;
        setHeaderOn(response, 'Allow', allowed.join(','));
        if (method === 'OPTIONS') {
          response.writeHead(200, { 'content-length': '0' });
          response.end();
          return;
        }
        this.sendSimpleError(request, response, 405, `Incorrect HTTP method for uri [${rawUri}] and method [${method}], allowed: [${allowed.join(', ')}]`);
        return;
      }
      const match = lookup.match;
      this.checkParameters(path, match, query, declaredCompatibleVersion(request));
      let body: Buffer;
      // The body is held in memory until the response is sent: the in-flight requests breaker counts it (inflated)
      // as it arrives, and refuses it with a 429 once it would pass the limit, except for the operator's commands
      // (ES's canTripCircuitBreaker() false), which are counted without a check. A request without a body (most
      // operator commands) has nothing to count or wait for.
      try {
        if (hasNoBody(request)) {
          body = NO_BODY;
        } else {
          const inFlight = new BreakerReservation(this.services.breakers.breaker('inflight_requests'), '<http_request>', 0);
          response.on('close', () => inFlight.release());
          const canTrip = !isManagementAction(match.route.action);
          body = await readBody(request, this.options.maxContentLength, (bytes) => (canTrip ? inFlight.add(bytes) : inFlight.addWithoutBreaking(bytes)));
        }
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          this.rejectTooLarge(request, response);
          return;
        }
        if (err instanceof BadContentEncodingError) throw new EsError('illegal_argument_exception', err.message);
        if (err instanceof EsError) {
          // The rest of the body is not read: answer, then close the connection.
          setHeaderOn(response, 'connection', 'close');
          request.resume();
          throw err;
        }
        response.destroy();
        return;
      }
      compatibleWith = negotiateCompatibleVersion(request.headers['accept'], request.headers['content-type'], body.length > 0);
      if (body.length > 0) this.checkBody(match.route, method, path, request);

      // Made when first asked for (a cancellable request's task asks; most operator commands are not cancellable).
      const clientClosed = () =>
        new Promise<void>((resolve) => {
          if (response.closed) {
            if (!response.writableFinished) resolve();
            return;
          }
          response.on('close', () => {
            if (!response.writableFinished) resolve();
          });
        });
      const restRequest = new HttpRestRequest(method as HttpMethod, path, rawUri, match.pathParams, request.headers, query, body, clientClosed, compatibleWith);
      const result = await this.runAsTask(match.route, restRequest);
      const warning = result.headers?.['Warning'];
      if (warning !== undefined) this.logDeprecation(method, rawUri, warning, request.headers['x-opaque-id']);
      this.send(request, response, result, query, compatibleWith);
    } catch (err) {
      if (err instanceof NotAcceptableError) {
        this.sendSimpleError(request, response, 406, err.message);
        return;
      }
      const error = toEsError(err);
      // One line per failed request, as ES's RestResponse logs it: 5xx at warn, 4xx (the caller's mistake) at
      // debug. The line carries the error the client got and what was thrown underneath it (the serializer prints
      // its type and message; an unexpected failure's stack is in the one internal_error line toEsError reported).
      const opaque = request.headers['x-opaque-id'];
      const entry = {
        event: 'request_failed',
        method,
        uri: rawUri,
        status: error.status,
        ...(typeof opaque === 'string' && { x_opaque_id: opaque }),
        err: error,
      };
      const message = `path: ${rawUri}, status: ${error.status}, ${error.type}: ${error.message}`;
      if (error.status >= 500) this.logger.warn(entry, message);
      else this.logger.debug(entry, message);
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const { query } = safeParseUri(rawUri);
      this.send(request, response, { kind: 'json', status: error.status, body: errorBody(error, errorTrace) }, query, compatibleWith, pretty);
    }
  }

  /**
   * checkHostHeader, remembering the last Host header it allowed: a client sends the same one with every request, and
   * the check parses it each time (a one-entry memory: the configuration never changes).
   */
  private checkHost(hostHeader: string | undefined, config: RequestOriginConfig): EsError | undefined {
    if (hostHeader !== undefined && hostHeader === this.lastAllowedHost) return undefined;
    const refused = checkHostHeader(hostHeader, config);
    if (refused === undefined) this.lastAllowedHost = hostHeader;
    return refused;
  }

  private async runAsTask(route: Route, request: HttpRestRequest): Promise<RestResponse> {
    const taskManager = this.services.taskManager;
    const opaqueId = request.headers['x-opaque-id'];
    const task = taskManager.register({
      type: 'transport',
      action: route.action,
      cancellable: route.cancellable ?? false,
      description: route.describe?.(request),
      headers: typeof opaqueId === 'string' ? { 'X-Opaque-Id': opaqueId } : {},
    });
    // A client that goes away cancels what it started, as ES does for cancellable REST requests.
    if (task.cancellable) {
      void request.clientClosed.then(() => {
        if (!task.isCompleted && !task.isCancelled) {
          void taskManager.cancel(task, 'channel closed', false).catch(() => undefined);
        }
      });
    }
    let detached = false;
    const detach = (): void => {
      detached = true;
    };
    try {
      const run = () => route.handler(request, { task, services: this.services, detach });
      // The operator's commands are counted on ES's `management` pool (a scaling pool: it never holds them back).
      return await (isManagementAction(route.action) ? this.services.threadPools.execute('management', run) : run());
    } finally {
      // A detached task is unregistered by its handler's background work when that work ends.
      if (!detached) taskManager.unregister(task);
    }
  }

  /**
   * ES's deprecation log: what a client was warned about (the `Warning` header) is also logged, once per request,
   * with the request and its X-Opaque-Id so an operator can find which client still uses a deprecated form.
   */
  private logDeprecation(method: string, uri: string, warning: string, opaqueId: string | string[] | undefined): void {
    // `299 Elasticsearch-<version>-<hash> "<text>"`, several joined by ", ": the texts are what a reader needs.
    const texts = [...warning.matchAll(/299 \S+ "((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!.replace(/\\(.)/g, '$1'));
    for (const text of texts.length > 0 ? texts : [warning]) {
      this.logger.warn({ event: 'deprecation', logger: 'org.elasticsearch.deprecation', method, uri, ...(typeof opaqueId === 'string' && { x_opaque_id: opaqueId }) }, text);
    }
  }

  /**
   * Netty's HttpObjectDecoder limits, as ES configures them: the request line (`GET /uri HTTP/1.1`) at most
   * http.max_initial_line_length bytes, the header lines together at most http.max_header_size bytes.
   */
  private checkLineAndHeaders(request: IncomingMessage): EsError | undefined {
    const lineLength = (request.method ?? '').length + 1 + Buffer.byteLength(request.url ?? '') + 1 + `HTTP/${request.httpVersion}`.length;
    if (lineLength > this.maxInitialLineLength) return tooLongLine(this.maxInitialLineLength);
    let headerBytes = 0;
    const raw = request.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headerBytes += Buffer.byteLength(raw[i]!) + 2 + Buffer.byteLength(raw[i + 1]!);
    if (headerBytes > this.maxHeaderSize) return tooLongHeader(this.maxHeaderSize);
    return undefined;
  }

  /** ES rejects parameters the handler did not consume: 400, with did-you-mean suggestions. */
  private checkParameters(path: string, match: RouteMatch, query: ReadonlyMap<string, string>, compatibleWith: number | undefined): void {
    const route = match.route;
    // Most requests carry no parameter: nothing to check, and no Set of the allowed names to build.
    if (query.size === 0 || route.acceptsAnyParameters === true) return;
    const v7Params = compatibleWith === 7 ? (route.v7Params ?? []) : [];
    const allowed = new Set<string>([...COMMON_PARAMS, ...(route.params ?? []), ...(route.responseParams ?? []), ...v7Params, ...Object.keys(match.pathParams)]);
    const unknown = [...query.keys()].filter((name) => !allowed.has(name)).sort();
    if (unknown.length === 0) return;
    const candidates = [...new Set([...(route.params ?? []), ...(route.responseParams ?? []), ...COMMON_PARAMS])];
    const suggestions = new Map<string, string[]>();
    for (const name of unknown) {
      const scored = candidates
        .map((candidate) => ({ candidate, score: levenshteinSimilarity(name, candidate) }))
        .filter(({ score }) => score > 0.5)
        .sort((a, b) => b.score - a.score || a.candidate.localeCompare(b.candidate));
      if (scored.length > 0) suggestions.set(name, scored.map(({ candidate }) => candidate));
    }
    throw errors.unrecognizedParameters(path, unknown, suggestions);
  }

  private checkBody(route: Route, method: string, path: string, request: IncomingMessage): void {
    if ((route.body ?? 'none') === 'none') throw errors.bodyNotSupported(method, path);
    const contentType = request.headers['content-type'];
    const mediaType = parseMediaType(contentType);
    if (!mediaType || !ACCEPTED_BODY_FORMATS.has(mediaType.format)) {
      throw new NotAcceptableError(
        contentType === undefined ? 'Content-Type header is missing' : `Content-Type header [${contentType}] is not supported`,
      );
    }
  }

  private rejectTooLarge(request: IncomingMessage, response: ServerResponse): void {
    // ES answers 413 with an empty body and closes the connection (the rest of the body is not read).
    response.writeHead(413, { 'content-length': '0', connection: 'close', 'X-elastic-product': 'Elasticsearch' });
    response.end();
    request.resume();
    response.on('finish', () => request.socket.destroySoon?.());
  }

  /** ES's "simple" error: `{"error":"<message>","status":N}` with a string error, used for routing failures. */
  private sendSimpleError(request: IncomingMessage, response: ServerResponse, status: number, message: string): void {
    const { query } = safeParseUri(request.url ?? '/');
    this.send(request, response, { kind: 'json', status, body: { error: message, status } }, query, undefined);
  }

  private send(
    request: IncomingMessage,
    response: ServerResponse,
    result: RestResponse,
    query: ReadonlyMap<string, string>,
    compatibleWith: number | undefined,
    prettyOverride?: boolean,
  ): void {
    if (result.headers) for (const [name, value] of Object.entries(result.headers)) setHeaderOn(response, name, value);
    if (result.kind === 'empty') {
      response.writeHead(result.status, ['X-elastic-product', 'Elasticsearch', 'content-length', '0']);
      response.end();
      return;
    }
    // The body as the chunks of one socket write: one buffer, except compact JSON holding large byte parts (the nodes'
    // `_tasks` listings), whose parts are written as they are (decision 0030).
    let chunks: Buffer[];
    let contentType: string;
    if (result.kind === 'text') {
      chunks = [Buffer.from(result.text, 'utf8')];
      contentType = result.contentType ?? contentTypeFor('text', undefined);
    } else {
      const format = responseFormat(query.get('format'), request.headers['accept']);
      const pretty = prettyOverride ?? isTrue(query.get('pretty'));
      let filterPath;
      try {
        filterPath = parseFilterPath(query.get('filter_path'));
      } catch {
        filterPath = undefined;
      }
      const body = applyFilterPath(result.body, filterPath);
      if (format === 'yaml') chunks = [Buffer.from(writeYaml(body), 'utf8')];
      else if (pretty) chunks = [writeJsonBytes(body, true)];
      else chunks = writeJsonChunks(body);
      contentType = contentTypeFor(format, compatibleWith);
    }
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    // One flat list, in the order the head is written (X-elastic-product first, as every Gannet response has it).
    const headers: string[] = ['X-elastic-product', 'Elasticsearch', 'content-type', contentType];
    if (this.options.compression && length > 0 && acceptsGzip(request.headers['accept-encoding'])) {
      chunks = [gzipSync(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length), { level: 3 })];
      length = chunks[0]!.length;
      // Keep a CORS `Vary: origin` beside it.
      const vary = response.getHeader('vary');
      headers.push('content-encoding', 'gzip', 'vary', vary === undefined ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`);
    }
    headers.push('content-length', String(length));
    response.writeHead(result.status, headers);
    if (request.method === 'HEAD') {
      response.end();
    } else if (chunks.length === 1) {
      response.end(chunks[0]);
    } else {
      // Corked, the head and every chunk leave in one writev when end() uncorks.
      response.cork();
      for (let i = 0; i < chunks.length - 1; i++) response.write(chunks[i]);
      response.end(chunks[chunks.length - 1]);
    }
  }
}

/**
 * Sets a header before the head is written, X-elastic-product first: the head of a response nothing set a header on is
 * given whole to writeHead (X-elastic-product included), and one that has headers set keeps X-elastic-product at the
 * top, where every response had it.
 */
function setHeaderOn(response: ServerResponse, name: string, value: string | number | readonly string[]): void {
  if (!response.hasHeader('x-elastic-product')) response.setHeader('X-elastic-product', 'Elasticsearch');
  response.setHeader(name, value);
}

/** ES 8's defaults for http.max_initial_line_length and http.max_header_size. */
export const DEFAULT_MAX_INITIAL_LINE_LENGTH = 4096;
export const DEFAULT_MAX_HEADER_SIZE = 16 * 1024;

/** Netty's TooLongHttpLineException, as ES answers it (400). */
function tooLongLine(limit: number): EsError {
  return new EsError('too_long_http_line_exception', `An HTTP line is larger than ${limit} bytes.`);
}

/** Netty's TooLongHttpHeaderException, as ES answers it (400). */
function tooLongHeader(limit: number): EsError {
  return new EsError('too_long_http_header_exception', `HTTP header is larger than ${limit} bytes.`);
}

/** 406 for an unsupported request Content-Type, rendered like ES as a simple error. */
class NotAcceptableError extends EsError {
  constructor(message: string) {
    super('status_exception', message, { status: 406 });
  }
}

/** Actions ES runs on its management pool: cluster and node monitoring, tasks, cat. */
function isManagementAction(action: string): boolean {
  return action.startsWith('cluster:monitor/') || action.startsWith('cluster:admin/tasks/');
}

function responseFormat(formatParam: string | undefined, accept: string | undefined): Format {
  const requested = formatParam?.toLowerCase();
  if (requested === 'yaml') return 'yaml';
  if (requested === 'json') return 'json';
  const accepted = parseAccept(accept);
  return accepted?.format === 'yaml' ? 'yaml' : 'json';
}

function acceptsGzip(header: string | undefined): boolean {
  return header !== undefined && /\bgzip\b/i.test(header);
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && value !== 'false';
}

function drain(request: IncomingMessage): void {
  request.resume();
}

/**
 * The compatible version the headers ask for, judged before the body is read (a body is announced by its length or
 * chunked encoding), to know which parameters a request may carry. Malformed headers give undefined here: they fail
 * with ES's error once the body is read.
 */
function declaredCompatibleVersion(request: IncomingMessage): number | undefined {
  const length = request.headers['content-length'];
  const announcesBody = (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
  try {
    return negotiateCompatibleVersion(request.headers['accept'], request.headers['content-type'], announcesBody);
  } catch {
    return undefined;
  }
}

/**
 * Splits a request target into its decoded path, the path's segments and the query parameters (last value wins,
 * `+` is a space). The path is split on its raw `/` before each segment is decoded, as ES's PathTrie does, so an
 * encoded slash (`%2F`, as in the date math name `<logs-{now/M}>`) stays inside its segment for routing.
 */
export function parseUri(uri: string): { path: string; segments: string[]; query: Map<string, string> } {
  const questionMark = uri.indexOf('?');
  const rawPath = questionMark < 0 ? uri : uri.slice(0, questionMark);
  const rawQuery = questionMark < 0 ? '' : uri.slice(questionMark + 1);
  const query = new Map<string, string>();
  if (rawQuery !== '') {
    for (const pair of rawQuery.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
      const value = eq < 0 ? '' : decodeComponent(pair.slice(eq + 1));
      query.set(name, value);
    }
  }
  // A path without an escape decodes to itself.
  const segments = rawPath.includes('%') ? splitPath(rawPath).map(decodePathSegment) : splitPath(rawPath);
  return { path: '/' + segments.join('/'), segments, query };
}

function decodeComponent(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new EsError('illegal_argument_exception', `unterminated escape sequence at end of string: ${text}`);
  }
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new EsError('illegal_argument_exception', `invalid escape sequence in path segment [${segment}]`);
  }
}

function safeParseUri(uri: string): { path: string; segments: string[]; query: Map<string, string> } {
  try {
    return parseUri(uri);
  } catch {
    return { path: '/', segments: [], query: new Map() };
  }
}
