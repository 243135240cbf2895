/**
 * The term tests behind multi-term query expansion on a highlighted value: Lucene's wildcard syntax
 * (`*` any run, `?` one code point, `\` escapes the next character) and the edit distance of its
 * Levenshtein automata (with transpositions counted as one edit, as FuzzyQuery's default does).
 */

export function wildcardMatcher(pattern: string, caseInsensitive: boolean): (term: string) => boolean {
  let source = '^';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (char === '*') source += '[\\s\\S]*';
    else if (char === '?') source += '[\\s\\S]';
    else if (char === '\\' && i + 1 < chars.length) source += escapeRegExp(chars[++i]!);
    else source += escapeRegExp(char);
  }
  const regexp = new RegExp(source + '$', caseInsensitive ? 'iu' : 'u');
  return (term) => regexp.test(term);
}

function escapeRegExp(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Edit distance over code points; adjacent transpositions cost one edit when allowed (optimal string alignment). */
export function damerauLevenshtein(a: readonly string[], b: readonly string[], transpositions: boolean): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[rows - 1]![cols - 1]!;
}
