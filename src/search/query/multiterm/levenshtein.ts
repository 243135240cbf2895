/**
 * Edit distance as Lucene's LevenshteinAutomata define it: insertions, deletions and substitutions of
 * Unicode code points, plus (with transpositions, the default) swapping two adjacent code points as one
 * edit — the "optimal string alignment" distance, which is what the automata with transpositions accept.
 * Bounded: anything beyond `maxEdits` reports maxEdits + 1, and rows stop early once every cell exceeds it.
 */

export const MAX_EDITS = 2;

export function editDistance(a: readonly number[], b: readonly number[], maxEdits: number, transpositions: boolean): number {
  const over = maxEdits + 1;
  if (Math.abs(a.length - b.length) > maxEdits) return over;
  const width = b.length + 1;
  let previous2 = new Int32Array(width);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a[i - 1]!;
    for (let j = 1; j < width; j++) {
      const bj = b[j - 1]!;
      const cost = ai === bj ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (transpositions && i > 1 && j > 1 && ai === b[j - 2] && a[i - 2] === bj) value = Math.min(value, previous2[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > maxEdits) return over;
    const recycled = previous2;
    previous2 = previous;
    previous = current;
    current = recycled;
  }
  return Math.min(previous[b.length]!, over);
}

export function codePoints(text: string): number[] {
  const points: number[] = [];
  for (const char of text) points.push(char.codePointAt(0)!);
  return points;
}
