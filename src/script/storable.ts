/**
 * What a script leaves in `ctx._source` must be writable as a document. Painless lets a script share one list
 * in many places or put a map inside itself; serialising that would take exponential time or never end, so
 * the source is walked once (iteratively, with a value budget and a depth cap) before anyone serialises it.
 */
import { RawJson } from '../common/raw-json.js';

/** Most values (every map, list and scalar counted each time it is reached) a source may hold after a script. */
export const MAX_SOURCE_VALUES = 5_000_000;
/** Deepest nesting of maps and lists a source may have after a script (a map inside itself is infinitely deep). */
export const MAX_SOURCE_DEPTH = 1000;

export type StorableProblem = 'too_deep' | 'too_many_values';

export function storableProblem(source: unknown): StorableProblem | undefined {
  const stack: Array<[unknown, number]> = [[source, 0]];
  let visited = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++visited > MAX_SOURCE_VALUES) return 'too_many_values';
    if (value === null || typeof value !== 'object' || value instanceof RawJson) continue;
    if (depth >= MAX_SOURCE_DEPTH) return 'too_deep';
    const children = Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
    for (const child of children) stack.push([child, depth + 1]);
  }
  return undefined;
}
