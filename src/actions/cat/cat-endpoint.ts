/**
 * What a `_cat` endpoint declares (its paths, own parameters, columns and how to build rows) and the routes
 * built from it, so every cat route accepts the same response parameters and handles `help` the way ES's
 * AbstractCatAction does.
 */
import { errors } from '../../common/errors.js';
import { levenshteinSimilarity } from '../../common/levenshtein.js';
import { renderHelp, type CatColumn, type CatTable } from '../../cat/index.js';
import type { ActionContext, RestRequest, Route } from '../rest.js';
import { catTableResponse, catText } from './cat-response.js';

/** The response parameters every cat endpoint accepts (AbstractCatAction.RESPONSE_PARAMS, plus `help`). */
export const CAT_RESPONSE_PARAMS = ['format', 'h', 'v', 'ts', 'pri', 'bytes', 'size', 'time', 's', 'help'] as const;

/** Parameters ES accepts on every request (RestResponse.RESPONSE_PARAMS and friends). */
const ALWAYS_ACCEPTED = ['format', 'filter_path', 'pretty', 'human', 'error_trace'];

export interface CatEndpoint<Name extends string = string> {
  /** The lines this endpoint adds to `GET /_cat` (ES's `documentation()`), e.g. `/_cat/allocation`. */
  readonly documentation: readonly string[];
  readonly paths: readonly string[];
  /** HTTP methods of every path; GET unless the endpoint says otherwise. */
  readonly methods?: readonly ('GET' | 'POST')[];
  /** ES action name the request runs as. */
  readonly action: string;
  /** The endpoint's own query parameters (path parameters come from `paths`). */
  readonly params: readonly string[];
  readonly columns: readonly CatColumn<Name>[];
  /** Plain rows, or a reader that makes each cell when it is printed (wide tables: cellsOfSources). */
  rows(request: RestRequest, context: ActionContext): Promise<CatTable<Name>['rows']>;
}

export function catRoutes<Name extends string>(endpoint: CatEndpoint<Name>): Route[] {
  return endpoint.paths.flatMap((path) =>
    (endpoint.methods ?? ['GET']).map(
      (method): Route => ({
      method,
      path,
      action: endpoint.action,
      params: endpoint.params,
      responseParams: CAT_RESPONSE_PARAMS,
      handler: async (request, context) => {
        if (request.paramBool('help', false)) {
          rejectParamsHelpLeavesUnread(request, endpoint.params);
          return catText(renderHelp(endpoint.columns));
        }
        const rows = await endpoint.rows(request, context);
        return catTableResponse({ columns: endpoint.columns, rows }, request);
      },
      }),
    ),
  );
}

/**
 * With `help`, ES reads no other parameter, and its check for unread parameters then rejects the
 * endpoint's own ones, path parameters included: `/_cat/allocation/node-1?help` is a 400 naming [nodes].
 */
function rejectParamsHelpLeavesUnread(request: RestRequest, ownParams: readonly string[]): void {
  const unread = [...ownParams.filter((name) => request.hasParam(name)), ...Object.keys(request.pathParams)];
  if (unread.length === 0) return;
  const unique = [...new Set(unread)].sort();
  const candidates = [...new Set<string>([...CAT_RESPONSE_PARAMS, ...ALWAYS_ACCEPTED])];
  const suggestions = new Map<string, string[]>();
  for (const name of unique) {
    const similar = candidates
      .map((candidate) => ({ candidate, score: levenshteinSimilarity(name, candidate) }))
      .filter(({ score }) => score > 0.5)
      .sort((a, b) => b.score - a.score || a.candidate.localeCompare(b.candidate))
      .map(({ candidate }) => candidate);
    if (similar.length > 0) suggestions.set(name, similar);
  }
  throw errors.unrecognizedParameters(request.path, unique, suggestions);
}
