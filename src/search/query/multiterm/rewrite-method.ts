/**
 * How a multi-term query (prefix, wildcard, fuzzy, ...) runs, as Elasticsearch's `rewrite` parameter names
 * it. `constant_score` (ES's default for prefix and wildcard): every match scores the boost. The boolean
 * methods expand into one should clause per matching term; the top-terms methods keep the `size` terms with
 * the best boosts (fuzzy's default is `top_terms_blended_freqs_50`, whose terms share one docFreq so a rare
 * misspelling does not outrank the exact word).
 */
import { errors } from '../../../common/errors.js';

export type RewriteMethod =
  | { readonly kind: 'constant_score' }
  | { readonly kind: 'constant_score_boolean' }
  | { readonly kind: 'scoring_boolean' }
  | { readonly kind: 'top_terms'; readonly size: number }
  | { readonly kind: 'top_terms_boost'; readonly size: number }
  | { readonly kind: 'top_terms_blended_freqs'; readonly size: number };

export const CONSTANT_SCORE: RewriteMethod = { kind: 'constant_score' };

/** Parses ES's `rewrite` values (`constant_score_blended` is ES 8's name for the same constant scoring). */
export function parseRewriteMethod(value: string): RewriteMethod {
  switch (value) {
    case 'constant_score':
    case 'constant_score_blended':
      return CONSTANT_SCORE;
    case 'constant_score_boolean':
      return { kind: 'constant_score_boolean' };
    case 'scoring_boolean':
      return { kind: 'scoring_boolean' };
  }
  const match = /^(top_terms_blended_freqs_|top_terms_boost_|top_terms_)(\d+)$/.exec(value);
  if (match !== null) {
    const size = Number(match[2]);
    if (match[1] === 'top_terms_blended_freqs_') return { kind: 'top_terms_blended_freqs', size };
    if (match[1] === 'top_terms_boost_') return { kind: 'top_terms_boost', size };
    return { kind: 'top_terms', size };
  }
  throw errors.illegalArgument(`unknown rewrite method [${value}]`);
}
