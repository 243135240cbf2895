/**
 * A query plan in Lucene's Query.toString syntax (`+title:quick -body:slow`, `title:"a b"~2`), for explain,
 * profile output and test failure messages. Floats print as Java prints them.
 */
import { javaFloatString } from '../../../mapping/java-numbers.js';
import { formatIp, hexToIp } from '../../../mapping/ip-address.js';
import type { PlanQuery } from './query-plan.js';

const OCCUR_PREFIX = { must: '+', filter: '#', should: '', must_not: '-' } as const;

export function planToString(query: PlanQuery): string {
  switch (query.type) {
    case 'match_all':
      return '*:*';
    case 'match_none':
      return `MatchNoDocsQuery("${query.reason}")`;
    case 'term':
      return `${query.field}:${query.term}`;
    case 'bool': {
      const body = query.clauses
        .map((clause) => {
          const inner = clause.query.type === 'bool' ? `(${planToString(clause.query)})` : planToString(clause.query);
          return OCCUR_PREFIX[clause.occur] + inner;
        })
        .join(' ');
      return query.minimumShouldMatch > 0 ? `(${body})~${query.minimumShouldMatch}` : body;
    }
    case 'boost':
      return `(${planToString(query.query)})^${javaFloatString(query.boost)}`;
    case 'constant_score':
      return `ConstantScore(${planToString(query.query)})`;
    case 'dis_max': {
      const body = `(${query.queries.map(planToString).join(' | ')})`;
      return query.tieBreaker === 0 ? body : `${body}~${javaFloatString(query.tieBreaker)}`;
    }
    case 'phrase':
    case 'phrase_prefix': {
      const words: string[] = [];
      let last = -1;
      for (const entry of query.terms) {
        for (let gap = last + 1; gap < entry.position; gap++) words.push('?');
        words.push(entry.term);
        last = entry.position;
      }
      const text = words.join(' ') + (query.type === 'phrase_prefix' ? '*' : '');
      return `${query.field}:"${text}"${query.slop > 0 ? `~${query.slop}` : ''}`;
    }
    case 'prefix':
      return `${query.field}:${query.prefix}*`;
    case 'wildcard':
      return `${query.field}:${query.pattern}`;
    case 'regexp':
      return `${query.field}:/${query.pattern}/`;
    case 'fuzzy':
      return `${query.field}:${query.term}~${query.maxEdits}`;
    case 'term_range':
      return `${query.field}:${query.includeLower ? '[' : '{'}${query.lower ?? '*'} TO ${query.upper ?? '*'}${query.includeUpper ? ']' : '}'}`;
    case 'long_range':
    case 'double_range':
      return `${query.field}:[${String(query.lower)} TO ${String(query.upper)}]`;
    case 'bytes_range': {
      // InetAddressPoint's toString: an exact address alone, a range in brackets.
      const one = (range: { lower: string; upper: string }): string =>
        range.lower === range.upper ? `${query.field}:${formatIp(hexToIp(range.lower))}` : `${query.field}:[${formatIp(hexToIp(range.lower))} TO ${formatIp(hexToIp(range.upper))}]`;
      return query.ranges.length === 1 ? one(query.ranges[0]!) : `(${query.ranges.map(one).join(' ')})`;
    }
    case 'long_set':
    case 'double_set':
      return `${query.field}:{${query.values.map(String).join(' ')}}`;
    case 'term_set':
      return `${query.field}:(${query.terms.join(' ')})`;
    case 'field_exists':
      return `FieldExistsQuery [field=${query.field}]`;
    case 'blended_terms':
      return `blended(terms:[${query.terms.map((t) => `${t.field}:${t.term}^${javaFloatString(t.boost)}`).join(', ')}])`;
    case 'function_score':
      return `function score (${planToString(query.query)}, functions: [${query.functions.length}])`;
    case 'boosting':
      return `boosting(${planToString(query.positive)}, negative: ${planToString(query.negative)}^${javaFloatString(query.negativeBoost)})`;
    case 'named':
      return planToString(query.query);
  }
}
