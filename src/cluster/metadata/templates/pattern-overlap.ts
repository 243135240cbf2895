/**
 * Whether two sets of `*` patterns can match a common name: ES builds automata of both sets
 * (Regex.simpleMatchToAutomaton) and checks the intersection is not empty. With `*` as the only special
 * character this is a walk over pairs of positions in the two patterns: a star may match nothing (skip it) or
 * swallow one character of the other side; two literals must be equal.
 */

export function patternsOverlap(left: readonly string[], right: readonly string[]): boolean {
  return left.some((a) => right.some((b) => twoPatternsOverlap(a, b)));
}

export function twoPatternsOverlap(a: string, b: string): boolean {
  const seen = new Set<number>();
  const width = b.length + 1;
  const stack: Array<[number, number]> = [[0, 0]];
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    const key = i * width + j;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const charA = a[i];
    const charB = b[j];
    if (charA === '*') {
      stack.push([i + 1, j]);
      if (charB !== undefined && charB !== '*') stack.push([i, j + 1]);
    }
    if (charB === '*') {
      stack.push([i, j + 1]);
      if (charA !== undefined && charA !== '*') stack.push([i + 1, j]);
    }
    if (charA !== undefined && charB !== undefined && charA !== '*' && charB !== '*' && charA === charB) stack.push([i + 1, j + 1]);
  }
  return false;
}

/** ES's Regex.isMatchAllPattern. */
export function isMatchAllPattern(pattern: string): boolean {
  return pattern === '*';
}
