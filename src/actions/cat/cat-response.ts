/**
 * Turns the renderer's neutral output into a REST response, and decides which output a request gets.
 * ES (RestTable.getResponseContentType): a `format` parameter decides if present (json, yaml, smile, cbor
 * give structured rows; anything else, text); otherwise an Accept header naming one XContent type gives
 * rows; otherwise text. A header listing several types (`a, b`) counts as none, as ES's ParsedMediaType
 * treats media ranges, so clients that accept "json or text" get text from cat APIs.
 */
import { renderCatTable, type CatOutputMode, type CatTable } from '../../cat/index.js';
import { json, type RestRequest, type RestResponse, type TextResponse } from '../rest.js';

/** The cat text content type (ES's RestResponse.TEXT_CONTENT_TYPE). */
export const CAT_TEXT_CONTENT_TYPE = 'text/plain; charset=UTF-8';

const XCONTENT_FORMATS = new Set(['json', 'yaml', 'smile', 'cbor']);

const XCONTENT_SUBTYPES = new Set(['json', 'x-ndjson', '*', 'yaml', 'smile', 'cbor']);

export function catOutputMode(request: RestRequest): CatOutputMode {
  if (request.hasParam('format')) {
    return XCONTENT_FORMATS.has((request.param('format') ?? '').toLowerCase()) ? 'rows' : 'text';
  }
  return acceptsXContent(request.headers['accept']) ? 'rows' : 'text';
}

function acceptsXContent(accept: string | undefined): boolean {
  if (accept === undefined || accept.includes(',')) return false;
  const mediaType = accept.split(';')[0]!.trim().toLowerCase();
  const match = /^application\/(?:vnd\.elasticsearch\+)?([^/\s]+)$/.exec(mediaType);
  return match !== null && XCONTENT_SUBTYPES.has(match[1]!);
}

export function catText(body: string): TextResponse {
  return { kind: 'text', status: 200, text: body, contentType: CAT_TEXT_CONTENT_TYPE };
}

/** Renders a table for this request: text, or JSON/YAML rows through the normal writer. */
export function catTableResponse(table: CatTable, request: RestRequest): RestResponse {
  const output = renderCatTable(table, request, catOutputMode(request));
  return output.kind === 'text' ? catText(output.text) : json(output.rows);
}
