/**
 * The three ways ES reports a malformed request body, with ES's location conventions:
 * - parsing_exception (ParsingException): `line`/`col` metadata beside the reason;
 * - x_content_parse_exception (XContentParseException): the location as a `[line:col] ` reason prefix;
 * - named_object_not_found_exception: an unknown named object (query, score function), also prefixed.
 */
import { EsError, toEsError } from '../../../common/errors.js';
import type { TokenLocation } from '../../../mapping/json-pull-parser.js';

export function parsingError(location: TokenLocation | undefined, reason: string, causedBy?: EsError): EsError {
  const metadata = location === undefined ? {} : { line: location.line, col: location.column };
  return new EsError('parsing_exception', reason, { metadata, causedBy });
}

export function xContentParseError(location: TokenLocation | undefined, message: string, causedBy?: EsError): EsError {
  const reason = location === undefined ? message : `[${location.line}:${location.column}] ${message}`;
  return new EsError('x_content_parse_exception', reason, { causedBy });
}

export function namedObjectNotFound(location: TokenLocation, message: string): EsError {
  return new EsError('named_object_not_found_exception', `[${location.line}:${location.column}] ${message}`);
}

/** ES's ElasticsearchParseException (type parse_exception, 400). */
export function elasticsearchParseError(reason: string, causedBy?: EsError): EsError {
  return new EsError('parse_exception', reason, { causedBy });
}

/** Java's IllegalArgumentException, as ES reports it. */
export function illegalArgument(reason: string, causedBy?: EsError): EsError {
  return new EsError('illegal_argument_exception', reason, { causedBy });
}

/** Any thrown value as an EsError cause (non-EsErrors become a plain `exception`). */
export function asEsError(err: unknown): EsError {
  if (err instanceof EsError) return err;
  return toEsError(err);
}
