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

/**
 * editDistance over a sorted run of terms, the way Lucene walks a term dictionary with a Levenshtein
 * automaton: the rows computed for a term's leading code points are kept and reused by the next term that
 * shares them, and once a row is beyond `maxEdits` everywhere (no continuation can come back within it) every
 * term with that prefix is out, so the walk can seek past all of them (`deadPrefixBytes`).
 */
export class SortedTermsDistance {
  /** rows[d]: the distances after the term's first d code points (rows[0] is 0..m). */
  private readonly rows: Int32Array[] = [];
  private readonly termPoints: number[] = [];
  /** UTF-8 byte offset after each code point of the current term. */
  private readonly byteEnds: number[] = [];
  private deadAt = -1;

  constructor(
    private readonly query: readonly number[],
    private readonly maxEdits: number,
    private readonly transpositions: boolean,
  ) {
    const first = new Int32Array(query.length + 1);
    for (let j = 0; j <= query.length; j++) first[j] = j;
    this.rows.push(first);
  }

  /**
   * The distance between the query and the code points of `term` from byte `offset` on, or maxEdits + 1 when
   * it is beyond; in that case deadPrefixBytes() may tell how long a prefix of the term no term can get past.
   */
  distance(term: Uint8Array, offset: number): number {
    const over = this.maxEdits + 1;
    const m = this.query.length;
    // Decode and compare with the previous term: rows up to the common code points stay valid.
    let depth = 0;
    let i = offset;
    let common = 0;
    let diverged = false;
    const points = this.termPoints;
    const ends = this.byteEnds;
    while (i < term.length) {
      const b0 = term[i]!;
      let codePoint: number;
      if (b0 < 0x80) (codePoint = b0), (i += 1);
      else if (b0 < 0xe0) (codePoint = ((b0 & 0x1f) << 6) | (term[i + 1]! & 0x3f)), (i += 2);
      else if (b0 < 0xf0) (codePoint = ((b0 & 0x0f) << 12) | ((term[i + 1]! & 0x3f) << 6) | (term[i + 2]! & 0x3f)), (i += 3);
      else (codePoint = ((b0 & 0x07) << 18) | ((term[i + 1]! & 0x3f) << 12) | ((term[i + 2]! & 0x3f) << 6) | (term[i + 3]! & 0x3f)), (i += 4);
      if (!diverged && depth < points.length && points[depth] === codePoint) common++;
      else diverged = true;
      points[depth] = codePoint;
      ends[depth] = i;
      depth++;
    }
    points.length = depth;
    ends.length = depth;
    this.deadAt = -1;
    const rows = this.rows;
    const keep = Math.min(common, rows.length - 1);
    rows.length = keep + 1;
    for (let d = keep; d < depth; d++) {
      const previous = rows[d]!;
      const before = d > 0 ? rows[d - 1]! : undefined;
      const row = new Int32Array(m + 1);
      row[0] = d + 1;
      let rowMin = row[0]!;
      const a = points[d]!;
      for (let j = 1; j <= m; j++) {
        const b = this.query[j - 1]!;
        let value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a === b ? 0 : 1));
        if (this.transpositions && before !== undefined && j > 1 && a === this.query[j - 2] && points[d - 1] === b) value = Math.min(value, before[j - 2]! + 1);
        row[j] = value;
        if (value < rowMin) rowMin = value;
      }
      rows.push(row);
      if (rowMin > this.maxEdits) {
        // No continuation of these d + 1 code points comes back within maxEdits.
        this.deadAt = d;
        rows.length = d + 1;
        return over;
      }
    }
    return Math.min(rows[depth]![m]!, over);
  }

  /** Code points of the last term measured (after the offset). */
  get termLength(): number {
    return this.termPoints.length;
  }

  /** After a distance beyond maxEdits: the bytes of the term's prefix that no term can extend to a match. */
  deadPrefixBytes(): number {
    return this.deadAt < 0 ? -1 : this.byteEnds[this.deadAt]!;
  }
}
