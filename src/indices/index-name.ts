/**
 * Index name rules (MetadataCreateIndexService.validateIndexOrAliasName + validateIndexName), with ES's messages
 * as invalid_index_name_exception. The character list prints in the order ES's HashSet of
 * Strings.INVALID_FILENAME_CHARS iterates, which is what users see in ES's error.
 */
import { errors } from '../common/errors.js';

const INVALID_FILENAME_CHARS = new Set(['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',']);
const INVALID_FILENAME_CHARS_TEXT = '[ , ", *, \\, <, |, ,, >, /, ?]';
export const MAX_INDEX_NAME_BYTES = 255;

export function validateIndexOrAliasName(name: string): void {
  for (const ch of name) {
    if (INVALID_FILENAME_CHARS.has(ch)) throw errors.invalidIndexName(name, `must not contain the following characters ${INVALID_FILENAME_CHARS_TEXT}`);
  }
  if (name.includes('#')) throw errors.invalidIndexName(name, "must not contain '#'");
  if (name.includes(':')) throw errors.invalidIndexName(name, "must not contain ':'");
  if (name.startsWith('_') || name.startsWith('-') || name.startsWith('+')) {
    throw errors.invalidIndexName(name, "must not start with '_', '-', or '+'");
  }
  const byteCount = Buffer.byteLength(name, 'utf8');
  if (byteCount > MAX_INDEX_NAME_BYTES) throw errors.invalidIndexName(name, `index name is too long, (${byteCount} > ${MAX_INDEX_NAME_BYTES})`);
  if (name === '.' || name === '..') throw errors.invalidIndexName(name, "must not be '.' or '..'");
}

/** The rules for a new index's name; existence (index or alias) is checked against the cluster state by the caller. */
export function validateIndexName(name: string): void {
  validateIndexOrAliasName(name);
  if (name.toLowerCase() !== name) throw errors.invalidIndexName(name, 'must be lowercase');
}
