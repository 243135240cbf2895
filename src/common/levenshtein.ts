/**
 * Lucene's LevenshteinDistance.getDistance(): a similarity in [0, 1], 1 - distance / max(length).
 * ES uses it (threshold 0.5) to suggest parameter names ("did you mean [format]?").
 */
export function levenshteinSimilarity(target: string, other: string): number {
  const n = target.length;
  const m = other.length;
  if (n === 0 || m === 0) return n === m ? 1 : 0;
  let previous = new Array<number>(n + 1);
  let current = new Array<number>(n + 1);
  for (let i = 0; i <= n; i++) previous[i] = i;
  for (let j = 1; j <= m; j++) {
    const otherChar = other.charCodeAt(j - 1);
    current[0] = j;
    for (let i = 1; i <= n; i++) {
      const cost = target.charCodeAt(i - 1) === otherChar ? 0 : 1;
      current[i] = Math.min(current[i - 1]! + 1, previous[i]! + 1, previous[i - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return 1 - previous[n]! / Math.max(n, m);
}
