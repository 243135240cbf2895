/**
 * ES's Queries.calculateMinShouldMatch and applyMinimumShouldMatch: `minimum_should_match` as an integer
 * ("3", "-2"), a percentage ("75%", "-25%", rounded towards zero in float arithmetic), or conditional specs
 * ("3<90%", "2<-25% 9<-3": below or at each bound the previous result applies).
 */
import { parseIntOrThrow } from '../parse/common-params.js';
import type { PlanQuery } from './query-plan.js';

const SPACE_AROUND_LESS_THAN = /(\s+<\s*)|(\s*<\s+)/g;

/** Java's String.trim. */
function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

export function calculateMinShouldMatch(optionalClauseCount: number, specText: string): number {
  let result = optionalClauseCount;
  let spec = javaTrim(specText);
  if (spec.includes('<')) {
    spec = spec.replace(SPACE_AROUND_LESS_THAN, '<');
    for (const part of spec.split(' ')) {
      const pieces = part.split('<');
      const upperBound = parseIntOrThrow(pieces[0]!);
      if (optionalClauseCount <= upperBound) return result;
      result = calculateMinShouldMatch(optionalClauseCount, pieces[1] ?? '');
    }
    return result;
  }
  if (spec.includes('%')) {
    // "percentage - assume the % was the last char. If not, let Integer.parseInt fail."
    const percent = parseIntOrThrow(spec.slice(0, -1));
    const calc = Math.fround(Math.fround(result * percent) * Math.fround(1 / 100));
    result = calc < 0 ? result + Math.trunc(calc) : Math.trunc(calc);
  } else {
    const calc = parseIntOrThrow(spec);
    result = calc < 0 ? result + calc : calc;
  }
  return Math.max(result, 0);
}

/** Queries.maybeApplyMinimumShouldMatch: only a boolean query takes it, counted over its should clauses. */
export function applyMinimumShouldMatch(query: PlanQuery, spec: string | undefined): PlanQuery {
  if (spec === undefined || query.type !== 'bool') return query;
  const optional = query.clauses.filter((clause) => clause.occur === 'should').length;
  const minimum = calculateMinShouldMatch(optional, spec);
  return minimum > 0 ? { ...query, minimumShouldMatch: minimum } : query;
}
