/**
 * ES's IndicesOptions: how index expressions resolve (what wildcards expand to, whether a missing name or an
 * empty result is an error) and the REST parameters that set them (`expand_wildcards`, `ignore_unavailable`,
 * `allow_no_indices`, `ignore_throttled`), parsed as IndicesOptions.fromRequest does.
 */
import { EsError, errors } from '../common/errors.js';

export interface IndicesOptions {
  /** A concrete name that does not exist is skipped instead of failing. */
  ignoreUnavailable: boolean;
  /** An expression (or the whole request) that resolves to nothing is fine instead of failing. */
  allowNoIndices: boolean;
  expandOpen: boolean;
  expandClosed: boolean;
  /** Wildcards also match hidden indices (`index.hidden: true`). */
  expandHidden: boolean;
  allowAliasesToMultipleIndices: boolean;
  /** Closed indices are left out (or fail, when not ignoring unavailable targets). */
  forbidClosedIndices: boolean;
  /** Aliases are treated as if they did not exist. */
  ignoreAliases: boolean;
  /** Frozen indices (`index.frozen: true`) are left out. */
  ignoreThrottled: boolean;
}

const BASE: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandOpen: true,
  expandClosed: false,
  expandHidden: false,
  allowAliasesToMultipleIndices: true,
  forbidClosedIndices: false,
  ignoreAliases: false,
  ignoreThrottled: false,
};

/** ES's IndicesOptions.strictExpandOpen(). */
export const STRICT_EXPAND_OPEN: IndicesOptions = Object.freeze({ ...BASE });
/** ES's IndicesOptions.lenientExpandOpen(). */
export const LENIENT_EXPAND_OPEN: IndicesOptions = Object.freeze({ ...BASE, ignoreUnavailable: true });
/** ES's IndicesOptions.strictExpand(): open and closed, a missing name fails. */
export const STRICT_EXPAND_OPEN_CLOSED: IndicesOptions = Object.freeze({ ...BASE, expandClosed: true });
/** ES's IndicesOptions.lenientExpandHidden(): everything, missing names skipped (cluster health's default). */
export const LENIENT_EXPAND_OPEN_CLOSED_HIDDEN: IndicesOptions = Object.freeze({
  ...BASE,
  ignoreUnavailable: true,
  expandClosed: true,
  expandHidden: true,
});
/** ES's IndicesOptions.strictExpandOpenAndForbidClosed() (search's default). */
export const STRICT_EXPAND_OPEN_FORBID_CLOSED: IndicesOptions = Object.freeze({ ...BASE, forbidClosedIndices: true });

/** The query parameters IndicesOptions.fromRequest reads; routes that take indices options declare these. */
export const INDICES_OPTIONS_PARAMS = ['expand_wildcards', 'ignore_unavailable', 'allow_no_indices', 'ignore_throttled'] as const;

/**
 * IndicesOptions.fromRequest: absent parameters keep the endpoint's defaults; `expand_wildcards` replaces
 * the default states entirely (`none` clears, `all` sets open, closed and hidden).
 */
export function indicesOptionsFromParams(param: (name: string) => string | undefined, defaults: IndicesOptions): IndicesOptions {
  const expandWildcards = param('expand_wildcards');
  const ignoreUnavailable = param('ignore_unavailable');
  const allowNoIndices = param('allow_no_indices');
  const ignoreThrottled = param('ignore_throttled');
  if (expandWildcards === undefined && ignoreUnavailable === undefined && allowNoIndices === undefined && ignoreThrottled === undefined) {
    return defaults;
  }
  const options: IndicesOptions = { ...defaults };
  if (expandWildcards !== undefined) Object.assign(options, parseExpandWildcards(expandWildcards));
  if (allowNoIndices !== undefined) options.allowNoIndices = strictBoolean(allowNoIndices, 'allow_no_indices');
  if (ignoreUnavailable !== undefined) options.ignoreUnavailable = strictBoolean(ignoreUnavailable, 'ignore_unavailable');
  if (ignoreThrottled !== undefined) options.ignoreThrottled = strictBoolean(ignoreThrottled, 'ignore_throttled');
  return options;
}

/** WildcardOptions.Builder.expandStates: applied in order, so `open,none,closed` means closed only. */
export function parseExpandWildcards(value: string): Pick<IndicesOptions, 'expandOpen' | 'expandClosed' | 'expandHidden'> {
  const states = { expandOpen: false, expandClosed: false, expandHidden: false };
  for (const state of splitCommaLikeJava(value)) {
    switch (state) {
      case 'open':
        states.expandOpen = true;
        break;
      case 'closed':
        states.expandClosed = true;
        break;
      case 'hidden':
        states.expandHidden = true;
        break;
      case 'all':
        states.expandOpen = states.expandClosed = states.expandHidden = true;
        break;
      case 'none':
        states.expandOpen = states.expandClosed = states.expandHidden = false;
        break;
      default:
        throw errors.illegalArgument(`No valid expand wildcard value [${state}]`);
    }
  }
  return states;
}

/**
 * ES's Strings.splitStringByCommaToArray (Java's String.split(",")): nothing is trimmed, empty inner parts
 * are kept, trailing empty parts are dropped, and an empty string gives no parts.
 */
export function splitCommaLikeJava(value: string): string[] {
  if (value === '') return [];
  const parts = value.split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** XContentMapValues.nodeBooleanValue(value, name): only `true`/`false`, wrapped with the parameter's name. */
function strictBoolean(value: string, name: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new EsError('illegal_argument_exception', `Could not convert [${name}] to boolean`, {
    causedBy: new EsError('illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`),
  });
}
