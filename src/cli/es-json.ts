/**
 * Reading Elasticsearch JSON without trusting it: small accessors that narrow `unknown` so a field the
 * node left out shows as blank instead of crashing the command, plus the words for an ES error body.
 */
import { ResponseError, type GannetResponse } from './gannet-client.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectField(value: unknown, key: string): JsonObject | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return isObject(field) ? field : undefined;
}

export function stringField(value: unknown, key: string): string | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === 'string' ? field : undefined;
}

export function numberField(value: unknown, key: string): number | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === 'number' && Number.isFinite(field) ? field : undefined;
}

export function booleanField(value: unknown, key: string): boolean | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === 'boolean' ? field : undefined;
}

export function arrayField(value: unknown, key: string): unknown[] {
  const field = isObject(value) ? value[key] : undefined;
  return Array.isArray(field) ? field : [];
}

/** The deepest `caused_by` of an ES error object: the part that says what actually went wrong. */
export function rootCause(error: unknown): JsonObject | undefined {
  let current = isObject(error) ? error : undefined;
  while (current !== undefined) {
    const next = objectField(current, 'caused_by');
    if (next === undefined) return current;
    current = next;
  }
  return undefined;
}

/** `type: reason` of an ES error object, with the root cause appended when it differs. */
export function describeEsError(error: unknown): string {
  if (typeof error === 'string') return error;
  const type = stringField(error, 'type');
  const reason = stringField(error, 'reason');
  const top = [type, reason].filter((part) => part !== undefined).join(': ');
  const root = rootCause(error);
  if (root !== undefined && root !== error) {
    const inner = [stringField(root, 'type'), stringField(root, 'reason')].filter((part) => part !== undefined).join(': ');
    if (inner !== '') return top === '' ? inner : `${top} (caused by ${inner})`;
  }
  return top === '' ? JSON.stringify(error) : top;
}

/** Throws a ResponseError (exit 4) unless the node answered with one of the expected statuses and a JSON body. */
export function expectJson(response: GannetResponse, ...okStatuses: number[]): unknown {
  const accepted = okStatuses.length > 0 ? okStatuses : [200];
  if (!accepted.includes(response.status)) throw new ResponseError(describeErrorResponse(response), response);
  if (response.body === undefined) {
    throw new ResponseError(`${response.request} answered ${response.status} with a body that is not JSON: ${snippet(response.text)}`, response);
  }
  return response.body;
}

export function describeErrorResponse(response: GannetResponse): string {
  const error = isObject(response.body) ? response.body['error'] : undefined;
  const detail = error !== undefined ? describeEsError(error) : snippet(response.text);
  return `${response.request} answered ${response.status}${detail === '' ? '' : `: ${detail}`}`;
}

function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}...` : oneLine;
}
