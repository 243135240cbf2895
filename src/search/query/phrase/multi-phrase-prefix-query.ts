/**
 * A phrase whose last position is a prefix (ES's MultiPhrasePrefixQuery: match_phrase_prefix, multi_match
 * `phrase_prefix`). It rewrites into a MultiPhraseQuery whose last position holds the indexed terms that
 * start with the prefix: segment by segment in term order, stopping at maxExpansions distinct terms, as ES
 * collects them. With no such term it matches nothing.
 */
import { Query } from '../../core/query.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { MatchNoDocsQuery } from '../match-no-docs-query.js';
import { Term } from '../term/term.js';
import { MultiPhraseQuery } from './multi-phrase-query.js';

export interface PhrasePrefixOptions {
  readonly slop?: number;
  /** ES's default is 50. */
  readonly maxExpansions?: number;
}

export class MultiPhrasePrefixQuery extends Query {
  readonly termArrays: readonly (readonly Term[])[];
  readonly slop: number;
  readonly maxExpansions: number;

  constructor(
    readonly field: string,
    termArrays: readonly (readonly (string | Uint8Array)[])[],
    readonly positions: readonly number[],
    options: PhrasePrefixOptions = {},
  ) {
    super();
    this.termArrays = termArrays.map((terms) => terms.map((term) => new Term(field, term)));
    this.slop = options.slop ?? 0;
    this.maxExpansions = options.maxExpansions ?? 50;
    if (positions.length !== termArrays.length) throw new RangeError('a phrase prefix needs one position per term array');
  }

  override rewrite(searcher: IndexSearcher): Query {
    if (this.termArrays.length === 0) return new MatchNoDocsQuery('');
    const last = this.termArrays.length - 1;
    const expansions = new Map<string, Buffer>();
    for (const prefix of this.termArrays[last]!) {
      this.collectPrefixTerms(searcher, prefix.bytes, expansions);
      if (expansions.size > this.maxExpansions) break;
    }
    if (expansions.size === 0) return new MatchNoDocsQuery('No terms supplied for org.elasticsearch.common.lucene.search.MultiPhrasePrefixQuery');
    const termArrays = [...this.termArrays.slice(0, last).map((terms) => terms.map((term) => term.bytes)), [...expansions.values()]];
    return new MultiPhraseQuery(this.field, termArrays, this.positions, this.slop);
  }

  /** ES's getPrefixTerms: each segment's terms from the prefix on, until the set holds maxExpansions. */
  private collectPrefixTerms(searcher: IndexSearcher, prefix: Buffer, into: Map<string, Buffer>): void {
    for (const leaf of searcher.leaves) {
      const fieldTerms = leaf.readers.terms.terms(this.field);
      if (fieldTerms === undefined) continue;
      const termsEnum = fieldTerms.iterator();
      if (termsEnum.seekCeil(prefix) === 'end') continue;
      do {
        if (!termsEnum.startsWith(prefix)) break;
        const term = Buffer.from(termsEnum.term());
        into.set(term.toString('latin1'), term);
        if (into.size >= this.maxExpansions) return;
      } while (termsEnum.next());
    }
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, _boost: number): Weight {
    throw new Error(`${this.toString()} must be rewritten before it is run`);
  }

  /** ES's `field:"a (b c) pre*"`: the last position's terms each marked with `*`. */
  toString(field?: string): string {
    const last = this.termArrays.length - 1;
    const parts = this.termArrays.map((terms, i) => {
      const mark = i === last ? '*' : '';
      if (terms.length === 1) return terms[0]!.text + mark;
      return `(${terms.map((term) => term.text).join(`${mark} `)}${mark})`;
    });
    return `${this.field === field ? '' : `${this.field}:`}"${parts.join(' ')}"${this.slop !== 0 ? `~${this.slop}` : ''}`;
  }

  equals(other: Query): boolean {
    return other instanceof MultiPhrasePrefixQuery && other.toString() === this.toString() && other.positions.every((position, i) => position === this.positions[i]) && other.maxExpansions === this.maxExpansions;
  }
}
