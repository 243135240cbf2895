/**
 * Sorting buckets by a sub-aggregation (ES's AggregationPath and InternalOrder.Aggregation): the path names
 * zero or more single-bucket aggregations separated by `>`, ending at a metric (optionally `.key` or `[key]`
 * for multi-value metrics) or at a single-bucket aggregation (its doc count). Values compare as Java's
 * Double.compare does: -0.0 before 0.0 and NaN after everything.
 */
export interface PathElement {
  readonly name: string;
  readonly key: string | null;
}

export function parseOrderPath(path: string): PathElement[] {
  const parts = path.split('>').filter((p) => p.length > 0);
  return parts.map((part, i) => {
    if (i < parts.length - 1) return { name: part, key: null };
    const bracket = part.lastIndexOf('[');
    if (bracket >= 0 && part.endsWith(']')) return { name: part.slice(0, bracket), key: part.slice(bracket + 1, -1) };
    const dot = part.lastIndexOf('.');
    return dot < 0 ? { name: part, key: null } : { name: part.slice(0, dot), key: part.slice(dot + 1) };
  });
}

export function pathToString(elements: readonly PathElement[]): string {
  return elements.map((e) => (e.key === null ? e.name : `${e.name}.${e.key}`)).join('>');
}

/** Java's Double.compare. */
export function compareDoubles(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) {
    if (a !== 0) return 0;
    const aNeg = Object.is(a, -0);
    const bNeg = Object.is(b, -0);
    return aNeg === bNeg ? 0 : aNeg ? -1 : 1;
  }
  const aNaN = Number.isNaN(a);
  const bNaN = Number.isNaN(b);
  return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
}

/** Compares strings in UTF-8 byte order (code point order), as Lucene's BytesRef does. */
export function compareTerms(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // UTF-16 -> code point order: surrogates (supplementary planes) sort after U+E000..U+FFFF.
    if (ca >= 0xd800 && cb >= 0xd800) {
      ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
      cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
    }
    return ca - cb;
  }
  return a.length - b.length;
}

/** Metric names of stats and extended_stats, as their `value(name)` accepts them. */
export const STATS_METRICS = new Set(['count', 'sum', 'min', 'max', 'avg']);
export const EXTENDED_STATS_METRICS = new Set([
  ...STATS_METRICS,
  'sum_of_squares',
  'variance',
  'variance_population',
  'variance_sampling',
  'std_deviation',
  'std_deviation_population',
  'std_deviation_sampling',
  'std_upper',
  'std_lower',
  'std_upper_population',
  'std_lower_population',
  'std_upper_sampling',
  'std_lower_sampling',
]);

export const NOT_SINGLE_BUCKET =
  'Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.';
