/**
 * Two checks on where a request comes from, made before routing (docs/decisions/0008-cross-site-requests.md):
 *
 * - DNS rebinding: a web page whose own host name is made to resolve to this node talks to it as that name, so its
 *   requests carry `Host: <the page's name>`. Every request must address the node by a name that cannot be rebound:
 *   an IP literal, localhost (or `*.localhost`), the machine's host name, a host the node is configured to bind or
 *   publish, or a name in `http.allowed_hosts` (wildcards; `*` turns the check off). A request without a Host header
 *   (HTTP/1.0) is not a browser's and passes.
 * - Cross-site requests (CSRF): with CORS off (`http.cors.enabled: false`, the default) no web page may drive the
 *   node, but a browser still sends a page's "simple" cross-site POST (a form, a body-less fetch) and only hides the
 *   answer. A request that can change state (any method but GET, HEAD and OPTIONS; no GET changes state) is refused
 *   when the browser says it is cross-origin: `Sec-Fetch-Site: cross-site` or `same-site`, or an `Origin` that is not
 *   the origin the request is addressed to (its Host, or the X-Forwarded-Host a proxy set), or `Origin: null`.
 *   `Sec-Fetch-Site: same-origin` is the browser's own word and is trusted. Clients that are not browsers send neither
 *   header and are unaffected. With CORS on, CorsHandler decides which origins may call, as in ES.
 */
import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { httpOriginErrors, type EsError } from '../common/errors.js';
import { simpleMatch } from '../common/wildcards.js';

export interface RequestOriginConfig {
  /** `http.cors.enabled`: then CORS rules cross-origin requests and the cross-site check stands aside. */
  readonly corsEnabled: boolean;
  /** Lower-cased names (wildcards allowed) a request may address the node by, besides IP literals and localhost. */
  readonly allowedHosts: readonly string[];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Setting values that name interfaces rather than hosts (ES's network.host special values). */
const SPECIAL_HOSTS = /^_.*_$/;

/**
 * The names a node answers to: `http.allowed_hosts`, the machine's host name (and its first label), and the hosts
 * it binds or publishes (names only; IP literals pass anyway). Lower-cased, without a trailing dot.
 */
export function allowedHostNames(settings: { getList(key: string): string[] | undefined; get(key: string): string | undefined }, machineName: string): string[] {
  const names = new Set<string>();
  const add = (value: string | undefined): void => {
    if (value === undefined) return;
    for (const part of value.split(',')) {
      const name = normalizeHostName(part.trim());
      if (name !== '' && !SPECIAL_HOSTS.test(name)) names.add(name);
    }
  };
  for (const name of settings.getList('http.allowed_hosts') ?? []) add(name);
  add(machineName);
  add(machineName.split('.')[0]);
  for (const key of ['network.host', 'http.host', 'network.publish_host', 'http.publish_host']) add(settings.get(key));
  return [...names];
}

function normalizeHostName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The host part of a Host header value (`name`, `name:port`, `1.2.3.4:port`, `[::1]:port`). */
export function hostOf(hostHeader: string): string {
  const value = hostHeader.trim();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end < 0 ? value : value.slice(1, end);
  }
  const colon = value.indexOf(':');
  // More than one colon without brackets: an IPv6 literal without a port.
  if (colon >= 0 && value.indexOf(':', colon + 1) < 0) return normalizeHostName(value.slice(0, colon));
  return normalizeHostName(value);
}

/** Undefined when the request may address the node by this Host header, else ES-shaped 403 error. */
export function checkHostHeader(hostHeader: string | undefined, config: RequestOriginConfig): EsError | undefined {
  if (hostHeader === undefined || hostHeader === '') return undefined;
  const host = hostOf(hostHeader);
  if (isIP(host) !== 0) return undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return undefined;
  if (config.allowedHosts.some((pattern) => pattern === host || (pattern.includes('*') && simpleMatch(pattern, host)))) return undefined;
  return httpOriginErrors.hostNotAllowed(host);
}

function first(value: string | string[] | undefined): string | undefined {
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined ? undefined : single.split(',')[0]!.trim();
}

/** `scheme://host[:port]` of an Origin as the URL parser normalises it (default ports dropped), or undefined. */
function originAuthority(origin: string): { scheme: string; authority: string } | undefined {
  try {
    const url = new URL(origin);
    return { scheme: url.protocol, authority: url.host };
  } catch {
    return undefined;
  }
}

/** A Host header value as an authority comparable with an origin's (lower-cased, the scheme's default port dropped). */
function authorityOf(hostHeader: string, scheme: string): string {
  const lower = hostHeader.trim().toLowerCase();
  const defaultPort = scheme === 'https:' ? ':443' : scheme === 'http:' ? ':80' : undefined;
  return defaultPort !== undefined && lower.endsWith(defaultPort) ? lower.slice(0, -defaultPort.length) : lower;
}

/** Undefined unless the request is a browser's cross-site request that could change state while CORS is off. */
export function checkCrossSite(method: string, headers: IncomingHttpHeaders, config: RequestOriginConfig): EsError | undefined {
  if (config.corsEnabled || SAFE_METHODS.has(method)) return undefined;
  const fetchSite = first(headers['sec-fetch-site'])?.toLowerCase();
  if (fetchSite === 'same-origin' || fetchSite === 'none') return undefined;
  const origin = first(headers['origin']);
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') {
    return httpOriginErrors.crossSiteRequest(origin === undefined ? `marked [Sec-Fetch-Site: ${fetchSite}]` : `from [${origin}]`);
  }
  if (origin === undefined || origin === '') return undefined;
  const parsed = originAuthority(origin);
  if (parsed === undefined || origin === 'null') return httpOriginErrors.crossSiteRequest(`from [${origin}]`);
  const addressed = [first(headers['host']), first(headers['x-forwarded-host'])].filter((value): value is string => value !== undefined && value !== '');
  if (addressed.some((host) => authorityOf(host, parsed.scheme) === parsed.authority.toLowerCase())) return undefined;
  return httpOriginErrors.crossSiteRequest(`from [${origin}]`);
}
