/**
 * Cross-origin requests as ES's CorsHandler answers them (the `http.cors.*` node settings of
 * HttpTransportSettings). Disabled by default. When enabled:
 * - a preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered here, before routing:
 *   200 with the allowed origin, methods, headers, credentials, max age, Date and an empty body, or 403 with an
 *   empty body when the origin is not allowed;
 * - any other request with an Origin that is neither allowed nor the request's own host gets 403, empty;
 * - an allowed response carries Access-Control-Allow-Origin (`*` for any origin without credentials, else the
 *   origin with `Vary: Origin`), Access-Control-Allow-Credentials when set, and Access-Control-Expose-Headers.
 * `http.cors.allow-origin` is empty (no origin), `*`, a comma list, or a `/regex/` matched against the whole origin.
 */
import type { IncomingMessage } from 'node:http';
import { EsError } from '../common/errors.js';
import type { Settings } from '../common/settings.js';

export interface CorsConfig {
  readonly enabled: boolean;
  readonly anyOrigin: boolean;
  readonly origins: ReadonlySet<string> | undefined;
  readonly pattern: RegExp | undefined;
  readonly allowCredentials: boolean;
  readonly allowMethods: readonly string[];
  readonly allowHeaders: readonly string[];
  readonly exposeHeaders: readonly string[];
  readonly maxAgeSeconds: number;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE', 'CONNECT']);

/** Strings.tokenizeToStringArray(value, ","): trimmed, empty tokens dropped. */
function tokens(value: string): string[] {
  return value
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
}

export function corsConfig(settings: Settings): CorsConfig {
  const enabled = settings.getBool('http.cors.enabled', false);
  const origin = settings.getString('http.cors.allow-origin', '');
  let anyOrigin = false;
  let origins: Set<string> | undefined;
  let pattern: RegExp | undefined;
  if (origin === '*') anyOrigin = true;
  else if (origin.length > 1 && origin.startsWith('/') && origin.endsWith('/')) {
    try {
      // Java's Matcher.matches(): the whole origin must match.
      pattern = new RegExp(`^(?:${origin.slice(1, -1)})$`);
    } catch {
      throw new EsError('illegal_argument_exception', `Bad regex in [http.cors.allow-origin]: [${origin}]`);
    }
  } else origins = new Set(tokens(origin));
  const allowMethods = tokens(settings.getString('http.cors.allow-methods', 'OPTIONS,HEAD,GET,POST,PUT,DELETE')).map((method) => method.toUpperCase());
  for (const method of allowMethods) {
    if (!METHODS.has(method)) throw new EsError('illegal_argument_exception', `No enum constant org.elasticsearch.rest.RestRequest.Method.${method}`);
  }
  const maxAge = settings.getString('http.cors.max-age', '1728000');
  if (!/^-?\d+$/.test(maxAge)) throw new EsError('illegal_argument_exception', `Failed to parse value [${maxAge}] for setting [http.cors.max-age]`);
  return {
    enabled,
    anyOrigin,
    origins,
    pattern,
    allowCredentials: settings.getBool('http.cors.allow-credentials', false),
    allowMethods: [...new Set(allowMethods)],
    allowHeaders: [...new Set(tokens(settings.getString('http.cors.allow-headers', 'X-Requested-With,Content-Type,Content-Length,Authorization,Accept,User-Agent,X-Elastic-Client-Meta')))],
    exposeHeaders: [...new Set(tokens(settings.getString('http.cors.expose-headers', 'X-elastic-product')))],
    maxAgeSeconds: Number(maxAge),
  };
}

/** A response CORS decides on its own, before any routing. */
export interface CorsReply {
  readonly status: 200 | 403;
  readonly headers: Record<string, string | string[]>;
}

export class CorsHandler {
  constructor(private readonly config: CorsConfig) {}

  /** A preflight's answer, a 403 for a disallowed origin, or undefined to carry on with the request. */
  handleInbound(request: IncomingMessage): CorsReply | undefined {
    if (!this.config.enabled) return undefined;
    if (isPreflight(request)) {
      const headers: Record<string, string | string[]> = {};
      if (!this.setOrigin(request, headers)) return forbidden();
      if (this.config.allowMethods.length > 0) headers['access-control-allow-methods'] = [...this.config.allowMethods];
      if (this.config.allowHeaders.length > 0) headers['access-control-allow-headers'] = [...this.config.allowHeaders];
      if (this.config.allowCredentials) headers['access-control-allow-credentials'] = 'true';
      headers['access-control-max-age'] = String(this.config.maxAgeSeconds);
      headers['date'] = new Date().toUTCString();
      headers['content-length'] = '0';
      return { status: 200, headers };
    }
    return this.validateOrigin(request) ? undefined : forbidden();
  }

  /** The headers an allowed cross-origin response carries (none for a request without Origin). */
  responseHeaders(request: IncomingMessage): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = {};
    if (!this.config.enabled) return headers;
    if (this.setOrigin(request, headers)) {
      if (this.config.allowCredentials) headers['access-control-allow-credentials'] = 'true';
      if (this.config.exposeHeaders.length > 0) headers['access-control-expose-headers'] = [...this.config.exposeHeaders];
    }
    return headers;
  }

  private setOrigin(request: IncomingMessage, headers: Record<string, string | string[]>): boolean {
    const origin = headerValue(request, 'origin');
    if (origin === undefined || origin === '') return false;
    if (this.config.anyOrigin) {
      if (this.config.allowCredentials) {
        headers['access-control-allow-origin'] = origin;
        headers['vary'] = 'origin';
      } else headers['access-control-allow-origin'] = '*';
      return true;
    }
    if (this.isOriginAllowed(origin) || isSameOrigin(origin, headerValue(request, 'host'))) {
      headers['access-control-allow-origin'] = origin;
      headers['vary'] = 'origin';
      return true;
    }
    return false;
  }

  private validateOrigin(request: IncomingMessage): boolean {
    if (this.config.anyOrigin) return true;
    const origin = headerValue(request, 'origin');
    // Not a CORS request, so there is nothing to validate.
    if (origin === undefined || origin === '') return true;
    if (isSameOrigin(origin, headerValue(request, 'host'))) return true;
    return this.isOriginAllowed(origin);
  }

  private isOriginAllowed(origin: string): boolean {
    if (this.config.origins !== undefined) return this.config.origins.has(origin);
    return this.config.pattern?.test(origin) ?? false;
  }
}

function forbidden(): CorsReply {
  return { status: 403, headers: { 'content-length': '0' } };
}

function isPreflight(request: IncomingMessage): boolean {
  return request.method === 'OPTIONS' && request.headers['origin'] !== undefined && request.headers['access-control-request-method'] !== undefined;
}

/** The origin without its http(s) scheme equals the Host header. */
function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || host === '') return false;
  return origin.replace(/^https?:\/\//, '') === host;
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
