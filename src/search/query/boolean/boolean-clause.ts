/** How a clause takes part in a boolean query (Lucene's BooleanClause.Occur, ES's bool sections). */
import type { Query } from '../../core/query.js';

/** must: required, scored; filter: required, not scored; should: optional, scored; must_not: excluded. */
export type Occur = 'must' | 'filter' | 'should' | 'must_not';

export interface BooleanClause {
  readonly query: Query;
  readonly occur: Occur;
}

export function isScoring(occur: Occur): boolean {
  return occur === 'must' || occur === 'should';
}

export function isRequired(occur: Occur): boolean {
  return occur === 'must' || occur === 'filter';
}

/** The prefix Lucene prints before a clause. */
export function occurPrefix(occur: Occur): string {
  switch (occur) {
    case 'must':
      return '+';
    case 'filter':
      return '#';
    case 'must_not':
      return '-';
    case 'should':
      return '';
  }
}
