/**
 * One alias definition on its way into an index's metadata: read from a create-index body (ES's
 * Alias.fromXContent: unknown keys ignored, `routing` sets both routings, an empty filter is no filter) and checked
 * as AliasValidator does (a valid name, not an index's name, one index routing value, a filter that parses).
 */
import { EsError, aliasErrors, toEsError } from '../../common/errors.js';
import { validateIndexOrAliasName } from '../../indices/index.js';
import { parseQuery, type JsonValue } from '../../search/dsl/index.js';
import type { AliasMetadata } from '../alias-metadata.js';

const INDEX_ROUTING_KEYS = new Set(['index_routing', 'indexRouting', 'index-routing']);
const SEARCH_ROUTING_KEYS = new Set(['search_routing', 'searchRouting', 'search-routing']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The filter as stored: an empty object (or none) means the alias does not filter. */
export function storedFilter(filter: unknown): Readonly<Record<string, unknown>> | undefined {
  return isPlainObject(filter) && Object.keys(filter).length > 0 ? filter : undefined;
}

/** Alias.fromXContent for one entry of a create-index body's `aliases`. */
export function parseAliasDefinition(body: unknown): AliasMetadata {
  if (!isPlainObject(body)) return {};
  const definition: { -readonly [K in keyof AliasMetadata]: AliasMetadata[K] } = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'filter' && isPlainObject(value)) {
      const filter = storedFilter(value);
      if (filter === undefined) delete definition.filter;
      else definition.filter = filter;
    } else if (typeof value === 'string') {
      if (key === 'routing') definition.indexRouting = definition.searchRouting = value;
      else if (INDEX_ROUTING_KEYS.has(key)) definition.indexRouting = value;
      else if (SEARCH_ROUTING_KEYS.has(key)) definition.searchRouting = value;
    } else if (typeof value === 'boolean') {
      if (key === 'is_write_index') definition.isWriteIndex = value;
      else if (key === 'is_hidden') definition.isHidden = value;
    }
  }
  return definition;
}

/** AliasValidator.validateAliasStandalone: the name rules (as an alias) and a single index routing value. */
export function validateAliasStandalone(alias: string, definition: AliasMetadata): void {
  try {
    validateIndexOrAliasName(alias);
  } catch (err) {
    if (err instanceof EsError) throw aliasErrors.invalidName(alias, err.reason.replace(/^Invalid index name \[[^\]]*\], /, ''));
    throw err;
  }
  if (definition.indexRouting !== undefined && definition.indexRouting.includes(',')) throw aliasErrors.severalIndexRoutings(alias);
}

/**
 * AliasValidator.validateAlias + validateAliasFilter: `indexExists` looks names up in the metadata being built,
 * so an index removed by the same request no longer blocks an alias of its name. The filter is parsed as a query
 * (not yet bound to the index's mapping: that happens when a search uses it).
 */
export function validateNewAlias(alias: string, definition: AliasMetadata, indexExists: (name: string) => boolean): void {
  validateAliasStandalone(alias, definition);
  if (indexExists(alias)) throw aliasErrors.sameNameAsIndex(alias);
  if (definition.filter !== undefined) {
    try {
      parseQuery(definition.filter as { readonly [key: string]: JsonValue });
    } catch (err) {
      throw aliasErrors.filterUnparsable(alias, toEsError(err));
    }
  }
}
