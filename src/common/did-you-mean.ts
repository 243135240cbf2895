/**
 * ES's SuggestingErrorOnUnknown.suggest, the tail of every ObjectParser "unknown field" message: the candidates
 * whose Lucene Levenshtein similarity (a float) is above 0.5, most similar first and then by name, as
 * " did you mean [x]?" or " did you mean any of [a, b]?"; nothing when none is close.
 */
import { levenshteinSimilarity } from './levenshtein.js';

export function didYouMean(unknown: string, candidates: Iterable<string>): string {
  const scored: Array<{ similarity: number; name: string }> = [];
  for (const name of candidates) {
    const similarity = Math.fround(levenshteinSimilarity(unknown, name));
    if (similarity > 0.5) scored.push({ similarity, name });
  }
  if (scored.length === 0) return '';
  scored.sort((a, b) => b.similarity - a.similarity || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = scored.map((entry) => entry.name);
  return names.length === 1 ? ` did you mean [${names[0]}]?` : ` did you mean any of [${names.join(', ')}]?`;
}
