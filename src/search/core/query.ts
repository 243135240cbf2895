/**
 * What the user asked for, independent of any index (Lucene's Query). A query may rewrite itself into
 * simpler primitives against a searcher (a prefix into its terms, a one-clause boolean into the clause),
 * then creates a Weight bound to the searcher's statistics. Queries are immutable values: equals() and
 * hashCode() compare structure (boolean rewrites deduplicate clauses with them).
 */
import type { IndexSearcher } from '../searcher/index-searcher.js';
import type { ScoreMode } from './score-mode.js';
import type { Weight } from './weight.js';

export abstract class Query {
  /** A simpler equivalent query, or `this` when there is nothing to rewrite. */
  rewrite(_searcher: IndexSearcher): Query {
    return this;
  }

  /** An equivalent query for when scores are not needed (booleans turn MUST into FILTER, drop SHOULD). */
  rewriteNoScoring(): Query {
    return this;
  }

  /** `boost` multiplies the score (BoostQuery passes its factor down this way). */
  abstract createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight;

  /** Lucene's syntax (`field:term`, `+a -b`, `field:"a b"~2`); the field prefix is left out when it is `field`. */
  abstract toString(field?: string): string;

  abstract equals(other: Query): boolean;

  /** Consistent with equals(): equal queries print the same. */
  hashCode(): number {
    return hashString(`${this.constructor.name}:${this.toString()}`);
  }
}

/** A string hash (Java's String.hashCode), for queries' hashCode(). */
export function hashString(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}
