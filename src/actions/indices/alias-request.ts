/**
 * Reading alias actions as ES's IndicesAliasesRequest.AliasActions parsers do: `add`, `remove` or `remove_index`,
 * each with `index`/`indices` and `alias`/`aliases` (a list may be a single string), `filter`, `routing`,
 * `index_routing`, `search_routing` (strings or numbers), `is_write_index`, `is_hidden` for add and `must_exist` for
 * remove; anything else is an unknown field of that action. The checks and messages are the setters' and
 * AliasActions.validate's.
 */
import { didYouMean } from '../../common/did-you-mean.js';
import { EsError, errors } from '../../common/errors.js';
import type { AliasActionRequest, AliasActionType } from '../../cluster/metadata/alias-updates.js';
import { storedFilter } from '../../cluster/metadata/alias-definitions.js';
import type { AliasMetadata } from '../../cluster/index.js';

const ACTION_TYPES: readonly AliasActionType[] = ['add', 'remove', 'remove_index'];
const TYPE_NAMES: Record<AliasActionType, string> = { add: 'ADD', remove: 'REMOVE', remove_index: 'REMOVE_INDEX' };
const INDEX_ROUTING_KEYS = new Set(['index_routing', 'indexRouting', 'index-routing']);
const SEARCH_ROUTING_KEYS = new Set(['search_routing', 'searchRouting', 'search-routing']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The names each AliasActions parser declares (deprecated ones included): the candidates of "did you mean". */
const COMMON_ACTION_FIELDS = ['index', 'indices', 'alias', 'aliases'];
const PARSER_FIELDS: Record<string, readonly string[]> = {
  add: [...COMMON_ACTION_FIELDS, 'filter', 'routing', ...INDEX_ROUTING_KEYS, ...SEARCH_ROUTING_KEYS, 'is_write_index', 'is_hidden'],
  remove: [...COMMON_ACTION_FIELDS, 'must_exist'],
  remove_index: COMMON_ACTION_FIELDS,
  aliases: ['actions'],
  alias_action: ['add', 'remove', 'remove_index'],
};

function unknownField(parser: string, field: string): EsError {
  return new EsError('x_content_parse_exception', `[${parser}] unknown field [${field}]${didYouMean(field, PARSER_FIELDS[parser] ?? [])}`);
}

/** A string array field: a lone string counts as a one-element list, as ObjectParser's string arrays accept. */
function stringList(parser: string, field: string, value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    throw new EsError('x_content_parse_exception', `[${parser}] ${field} doesn't support values of type: ${item === null ? 'VALUE_NULL' : Array.isArray(item) ? 'START_ARRAY' : 'START_OBJECT'}`);
  });
}

/** A routing value: ES declares these as INT fields read as text, so numbers and strings both work. */
function routingText(parser: string, field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new EsError('x_content_parse_exception', `[${parser}] ${field} doesn't support values of type: ${value === null ? 'VALUE_NULL' : typeof value === 'boolean' ? 'VALUE_BOOLEAN' : 'START_OBJECT'}`);
}

function booleanValue(parser: string, field: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new EsError('x_content_parse_exception', `[${parser}] failed to parse field [${field}]`, {
    causedBy: errors.illegalArgument(`Failed to parse value [${String(value)}] as only [true] or [false] are allowed.`),
  });
}

interface ActionDraft {
  indices?: string[];
  aliases: string[];
  filter?: Readonly<Record<string, unknown>>;
  routing?: string;
  indexRouting?: string;
  searchRouting?: string;
  isWriteIndex?: boolean;
  isHidden?: boolean;
  mustExist?: boolean;
}

function setIndices(draft: ActionDraft, indices: string[], single: boolean): void {
  if (draft.indices !== undefined) throw errors.illegalArgument('Only one of [index] and [indices] is supported');
  if (single && indices[0] === '') throw errors.illegalArgument("[index] can't be empty string");
  if (indices.length === 0) throw errors.illegalArgument("[indices] can't be empty");
  if (indices.some((index) => index === '')) throw errors.illegalArgument("[indices] can't contain empty string");
  draft.indices = indices;
}

function setAliases(type: AliasActionType, draft: ActionDraft, aliases: string[], single: boolean): void {
  if (draft.aliases.length > 0) throw errors.illegalArgument('Only one of [alias] and [aliases] is supported');
  if (type === 'remove_index') throw errors.illegalArgument(`[${single ? 'alias' : 'aliases'}] is unsupported for [${TYPE_NAMES[type]}]`);
  if (single && aliases[0] === '') throw errors.illegalArgument("[alias] can't be empty string");
  if (aliases.length === 0) throw errors.illegalArgument("[aliases] can't be empty");
  if (aliases.some((alias) => alias === '')) throw errors.illegalArgument("[aliases] can't contain empty string");
  draft.aliases = aliases;
}

/** One action body (the object under `add`, `remove` or `remove_index`). */
export function parseAliasAction(type: AliasActionType, body: unknown): AliasActionRequest {
  if (!isPlainObject(body)) throw new EsError('x_content_parse_exception', `[${type}] alias action must be an object`);
  const draft: ActionDraft = { aliases: [] };
  for (const [field, value] of Object.entries(body)) {
    if (field === 'index') setIndices(draft, stringList(type, field, value).slice(0, 1), true);
    else if (field === 'indices') setIndices(draft, stringList(type, field, value), false);
    else if (field === 'alias') setAliases(type, draft, stringList(type, field, value).slice(0, 1), true);
    else if (field === 'aliases') setAliases(type, draft, stringList(type, field, value), false);
    else if (type === 'add' && field === 'filter') {
      if (value !== null && !isPlainObject(value)) throw new EsError('x_content_parse_exception', `[${type}] filter doesn't support values of type: VALUE_STRING`);
      draft.filter = storedFilter(value);
    } else if (type === 'add' && field === 'routing') draft.routing = routingText(type, field, value);
    else if (type === 'add' && INDEX_ROUTING_KEYS.has(field)) draft.indexRouting = routingText(type, field, value);
    else if (type === 'add' && SEARCH_ROUTING_KEYS.has(field)) draft.searchRouting = routingText(type, field, value);
    else if (type === 'add' && field === 'is_write_index') draft.isWriteIndex = booleanValue(type, field, value);
    else if (type === 'add' && field === 'is_hidden') draft.isHidden = booleanValue(type, field, value);
    else if (type === 'remove' && field === 'must_exist') draft.mustExist = booleanValue(type, field, value);
    else throw unknownField(type, field);
  }
  if (draft.indices === undefined) throw errors.illegalArgument('One of [index] or [indices] is required');
  if (type !== 'remove_index' && draft.aliases.length === 0) throw errors.illegalArgument('One of [alias] or [aliases] is required');
  const definition: AliasMetadata = {
    ...(draft.filter !== undefined && { filter: draft.filter }),
    ...((draft.indexRouting ?? draft.routing) !== undefined && { indexRouting: draft.indexRouting ?? draft.routing }),
    ...((draft.searchRouting ?? draft.routing) !== undefined && { searchRouting: draft.searchRouting ?? draft.routing }),
    ...(draft.isWriteIndex !== undefined && { isWriteIndex: draft.isWriteIndex }),
    ...(draft.isHidden !== undefined && { isHidden: draft.isHidden }),
  };
  return {
    type,
    indices: draft.indices,
    aliases: draft.aliases,
    ...(type === 'add' && { definition }),
    ...(draft.mustExist !== undefined && { mustExist: draft.mustExist }),
  };
}

/** The `POST /_aliases` body: `{"actions": [{"add": {...}}, {"remove": {...}}, ...]}`. */
export function parseAliasesBody(body: unknown): AliasActionRequest[] {
  if (!isPlainObject(body)) throw new EsError('parse_exception', 'request body is required');
  const actions: AliasActionRequest[] = [];
  for (const [field, value] of Object.entries(body)) {
    if (field !== 'actions') throw unknownField('aliases', field);
    const entries = Array.isArray(value) ? value : [value];
    for (const entry of entries) {
      if (!isPlainObject(entry)) throw new EsError('x_content_parse_exception', '[aliases] actions doesn\'t support values of type: VALUE_STRING');
      let parsed: AliasActionRequest | undefined;
      for (const [key, actionBody] of Object.entries(entry)) {
        const type = ACTION_TYPES.find((candidate) => candidate === key);
        if (type === undefined) throw unknownField('alias_action', key);
        if (parsed !== undefined) throw errors.illegalArgument('Too many operations declared on operation entry');
        parsed = parseAliasAction(type, actionBody);
      }
      if (parsed === undefined) throw errors.illegalArgument('No action specified');
      actions.push(parsed);
    }
  }
  if (actions.length === 0) throw errors.illegalArgument('No action specified');
  return actions;
}
