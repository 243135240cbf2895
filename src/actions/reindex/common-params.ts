/**
 * The URL parameters every bulk-by-scroll API shares (AbstractBaseReindexRestHandler.setCommonOptions and
 * the REST spec): refresh, timeout, wait_for_active_shards, wait_for_completion, requests_per_second, scroll,
 * slices, max_docs, and the body's `conflicts` / `max_docs` rules.
 */
import { errors, reindexErrors } from '../../common/errors.js';
import { parseTimeValueMillis } from '../../common/time-value.js';
import { DEFAULT_SCROLL_KEEP_ALIVE_MILLIS, MAX_DOCS_ALL_MATCHES, parseRequestsPerSecond } from '../../reindex/index.js';
import type { RestRequest } from '../rest.js';
import { DEFAULT_WRITE_TIMEOUT_MILLIS } from '../documents/write-params.js';
import type { SlicesParam } from './slice-count.js';

export const COMMON_PARAMS = ['refresh', 'timeout', 'wait_for_active_shards', 'wait_for_completion', 'requests_per_second', 'scroll', 'slices', 'max_docs'] as const;

export interface CommonOptions {
  readonly refresh: boolean;
  readonly timeoutMillis: number;
  readonly waitForActiveShards: string | undefined;
  readonly waitForCompletion: boolean;
  readonly requestsPerSecond: number;
  readonly scrollKeepAliveMillis: number;
  /** URL `max_docs`, when given. */
  readonly maxDocsParam: number | undefined;
  readonly slices: SlicesParam;
}

/** `conflicts`: abort (the default) or proceed. Returns whether to abort on a version conflict. */
export function abortOnConflicts(value: string): boolean {
  if (value === 'abort') return true;
  if (value === 'proceed') return false;
  throw reindexErrors.conflicts(value);
}

/** `slices`: "auto" or a positive integer (1 when not given). */
export function checkSlices(value: string | undefined): SlicesParam {
  if (value === undefined) return 1;
  if (value === 'auto') return value;
  if (!/^-?\d+$/.test(value) || Number(value) < 1) throw reindexErrors.slices(value);
  return Number(value);
}

export function checkMaxDocs(value: number): number {
  if (!Number.isInteger(value)) throw errors.illegalArgument(`[max_docs] must be an integer but was [${value}]`);
  if (value === MAX_DOCS_ALL_MATCHES) return value;
  if (value < 0) throw reindexErrors.maxDocsNegative(value);
  if (value < 1) throw reindexErrors.maxDocsBelowSlices();
  return value;
}

export function readCommonOptions(request: RestRequest): CommonOptions {
  const slices = checkSlices(request.param('slices'));
  const rps = parseRequestsPerSecond(request.param('requests_per_second'));
  const scroll = request.param('scroll');
  const maxDocsText = request.param('max_docs');
  return {
    refresh: request.paramBool('refresh', false),
    timeoutMillis: request.paramTimeMillis('timeout', DEFAULT_WRITE_TIMEOUT_MILLIS),
    waitForActiveShards: request.param('wait_for_active_shards'),
    waitForCompletion: request.paramBool('wait_for_completion', true),
    requestsPerSecond: rps ?? Number.POSITIVE_INFINITY,
    scrollKeepAliveMillis: scroll === undefined ? DEFAULT_SCROLL_KEEP_ALIVE_MILLIS : parseTimeValueMillis(scroll, 'scroll'),
    maxDocsParam: maxDocsText === undefined ? undefined : checkMaxDocs(request.paramInt('max_docs', MAX_DOCS_ALL_MATCHES)),
    slices,
  };
}

/** The body's max_docs and the URL's must agree when both are given. */
export function mergeMaxDocs(body: number | undefined, url: number | undefined): number {
  if (body !== undefined && url !== undefined && body !== url) throw errors.illegalArgument(`[max_docs] set to two different values [${body}] and [${url}]`);
  return body ?? url ?? MAX_DOCS_ALL_MATCHES;
}

/** A JSON value's token name, as ES's parser errors print it. */
export function tokenName(value: unknown): string {
  if (typeof value === 'string') return 'VALUE_STRING';
  if (typeof value === 'number') return 'VALUE_NUMBER';
  if (typeof value === 'boolean') return 'VALUE_BOOLEAN';
  if (value === null) return 'VALUE_NULL';
  return Array.isArray(value) ? 'START_ARRAY' : 'START_OBJECT';
}

export function bodyObject(request: RestRequest, parser: string): Record<string, unknown> {
  if (!request.hasBody || request.body().length === 0) return {};
  const value = request.json();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw errors.jsonParse(`[${parser}] Expected START_OBJECT but was ${tokenName(value)}`);
  return value as Record<string, unknown>;
}
