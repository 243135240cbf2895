/**
 * One entry point for `_search`: the body (bytes, text, or an already-parsed JSON value such as an msearch
 * line) and the URL parameters, into a SearchRequest; then the request-level validation ES runs before any
 * shard is asked.
 */
import type { JsonValue } from '../ast/query-ast.js';
import { toJsonText } from '../ast/serialize-query.js';
import { parseSearchBody, type SearchBodyOptions, type SearchRequestDraft } from './parse-search-body.js';
import { validateSearchRequest } from './request-limits.js';
import type { SearchRequest } from './search-request.js';
import { applyUrlParameters, type UrlParams } from './url-params.js';

export interface SearchRequestInput extends SearchBodyOptions {
  /** The body; undefined (or empty) when the request has none. */
  readonly body?: Uint8Array | string | { readonly [key: string]: JsonValue };
  readonly params?: UrlParams;
}

export function parseSearchRequest(input: SearchRequestInput): SearchRequest {
  const draft: SearchRequestDraft = hasBody(input.body) ? parseSearchBody(bodyText(input.body), input) : {};
  if (input.params !== undefined) applyUrlParameters(draft, input.params);
  validateSearchRequest(draft);
  return draft;
}

function hasBody(body: SearchRequestInput['body']): body is NonNullable<SearchRequestInput['body']> {
  if (body === undefined) return false;
  if (typeof body === 'string' || body instanceof Uint8Array) return body.length > 0;
  return true;
}

function bodyText(body: NonNullable<SearchRequestInput['body']>): Uint8Array | string {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return toJsonText(body as JsonValue);
}
