/**
 * ES's DestructiveOperations.failDestructive: while `action.destructive_requires_name` is true (ES 8's
 * default), APIs that destroy or hide data (`_close`) refuse `_all`, no index, and wildcards that select.
 */
import { indexErrors } from '../../common/errors.js';
import type { Settings } from '../../common/settings.js';

/** DestructiveOperations.hasWildcardUsage: nothing, `_all`, or a wildcard that selects (exclusions do not count). */
export function usesWildcards(expressions: readonly string[]): boolean {
  if (expressions.length === 0) return true;
  return expressions.some((expression) => expression === '_all' || (expression.includes('*') && !expression.startsWith('-')));
}

export function failDestructive(settings: Settings, expressions: readonly string[]): void {
  const requiresName = settings.getString('action.destructive_requires_name', 'true') !== 'false';
  if (requiresName && usesWildcards(expressions)) throw indexErrors.wildcardsNotAllowed();
}
