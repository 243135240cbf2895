/**
 * The per-index search limits ES checks when a shard prepares a request (DefaultSearchContext.preProcess,
 * FetchDocValuesPhase) and the request validation that runs first (SearchRequest.validate). The messages are
 * ES's; the search layer decides how a shard failure is wrapped.
 */
import { errors } from '../../../common/errors.js';
import { illegalArgument } from '../xcontent/xcontent-errors.js';
import { effectiveFrom, effectiveSize, type SearchRequest } from './search-request.js';

/** index.max_result_window's default. */
export const DEFAULT_MAX_RESULT_WINDOW = 10000;
/** index.max_docvalue_fields_search's default. */
export const DEFAULT_MAX_DOCVALUE_FIELDS_SEARCH = 100;

/** from + size against index.max_result_window. */
export function checkResultWindow(request: SearchRequest, maxResultWindow = DEFAULT_MAX_RESULT_WINDOW): void {
  const resultWindow = effectiveFrom(request) + effectiveSize(request);
  if (resultWindow > maxResultWindow) {
    throw illegalArgument(
      `Result window is too large, from + size must be less than or equal to: [${maxResultWindow}] but was [${resultWindow}]. ` +
        'See the scroll api for a more efficient way to request large data sets. ' +
        'This limit can be set by changing the [index.max_result_window] index level setting.',
    );
  }
}

/** docvalue_fields against index.max_docvalue_fields_search. */
export function checkDocValueFieldsLimit(request: SearchRequest, maxDocValueFields = DEFAULT_MAX_DOCVALUE_FIELDS_SEARCH): void {
  const count = request.docvalueFields?.length ?? 0;
  if (count > maxDocValueFields) {
    throw illegalArgument(
      `Trying to retrieve too many docvalue_fields. Must be less than or equal to: [${maxDocValueFields}] but was [${count}]. ` +
        'This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.',
    );
  }
}

/** SearchRequest.validate's checks that concern the body: ES answers them with a validation exception. */
export function validateSearchRequest(request: SearchRequest): void {
  const problems: string[] = [];
  if (request.searchAfter !== undefined && (request.from ?? 0) > 0) {
    problems.push('[from] parameter must be set to 0 when [search_after] is used');
  }
  if (problems.length > 0) throw errors.requestValidation(problems);
}
