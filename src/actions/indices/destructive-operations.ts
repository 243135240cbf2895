/**
 * ES's DestructiveOperations.failDestructive: while `action.destructive_requires_name` is true (ES 8's default,
 * dynamic through `_cluster/settings`), the APIs that destroy or hide data (delete index, `_close`, `_open`,
 * `_block`) refuse a request that names no index, `_all`, or any expression with a `*` in it (exclusions such as
 * `-logs-*` included); the one exception is ES's "match nothing" pair `*,-*`.
 */
import { indexErrors } from '../../common/errors.js';
import type { Settings } from '../../common/settings.js';

/** DestructiveOperations.hasWildcardUsage over the whole request, with the `*,-*` exception. */
export function usesWildcards(expressions: readonly string[]): boolean {
  if (expressions.length === 0) return true;
  if (expressions.length === 2 && expressions[0] === '*' && expressions[1] === '-*') return false;
  return expressions.some((expression) => expression === '_all' || expression.includes('*'));
}

export function failDestructive(settings: Settings, expressions: readonly string[]): void {
  const requiresName = settings.getString('action.destructive_requires_name', 'true') !== 'false';
  if (requiresName && usesWildcards(expressions)) throw indexErrors.wildcardsNotAllowed();
}
