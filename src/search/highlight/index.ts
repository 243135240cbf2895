/**
 * search/highlight: ES's `highlight` section. parseHighlight reads the request's options (as the DSL parser
 * kept them), HighlightPhase resolves fields and queries once per request and highlights each hit. The
 * search query comes in as the AST or, better, as the DSL's built query plan (whose shapes the highlighter
 * reads directly; query_string is only highlighted that way). `unified` (ES's default) runs unified/ (ES
 * 8.19's unified highlighter with weight matches), `plain` the plain highlighter, `fvh` the plain one too.
 */
export { parseHighlight, type HighlightFieldOptions, type HighlightFieldSpec, type HighlightSpec } from './highlight-options.js';
export { HighlightPhase, type HighlightIndexContext, type SearchQueryInput } from './highlight-phase.js';
export { HighlightQueryBuilder } from './ast-to-query.js';
export type { HighlightQuery } from './highlight-query.js';
export { DEFAULT_MAX_ANALYZED_OFFSET } from './plain-highlighter.js';
