/**
 * Documents must be valid UTF-8, as Jackson requires: a document with an invalid byte is refused (ES's
 * "Invalid UTF-8 start byte 0xff" / "Invalid UTF-8 middle byte") instead of being stored with replacement
 * characters.
 */
import { EsError } from '../../common/errors.js';
import { invalidUtf8 } from '../../common/utf8.js';

export function checkUtf8(source: Uint8Array): void {
  // Validates in place: decoding the source to a string just to check it was an allocation per document.
  const fault = invalidUtf8(source);
  if (fault === undefined) return;
  const cause = new EsError('x_content_parse_exception', `${fault.location} ${fault.detail}`);
  throw new EsError('document_parsing_exception', `${fault.location} failed to parse: ${cause.reason}`, { causedBy: cause });
}
