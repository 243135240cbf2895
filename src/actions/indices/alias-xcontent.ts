/** AliasMetadata.Builder.toXContent: how GET /{index}, GET _alias and friends print one alias definition. */
import { aliasNamesOf, aliasOf, type AliasMetadata, type IndexMetadata } from '../../cluster/index.js';

export function aliasXContent(alias: AliasMetadata): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (alias.filter !== undefined) out['filter'] = alias.filter;
  if (alias.indexRouting !== undefined) out['index_routing'] = alias.indexRouting;
  if (alias.searchRouting !== undefined) out['search_routing'] = alias.searchRouting;
  if (alias.isWriteIndex !== undefined) out['is_write_index'] = alias.isWriteIndex;
  if (alias.isHidden !== undefined) out['is_hidden'] = alias.isHidden;
  return out;
}

/** Some (or all) of an index's aliases, by name in name order. */
export function aliasesXContent(metadata: IndexMetadata, names: readonly string[] = aliasNamesOf(metadata)): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) out[name] = aliasXContent(aliasOf(metadata, name) ?? {});
  return out;
}
