/**
 * Documents containing the terms at the given relative positions (Lucene's PhraseQuery, ES's
 * `match_phrase`); with `slop` > 0 the terms may be that many moves apart (transpositions included).
 * Positions default to 0, 1, 2, ... (gaps appear when an analyzer removed tokens, e.g. stop words).
 */
import { Query } from '../../core/query.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { MatchNoDocsQuery } from '../match-no-docs-query.js';
import { Term } from '../term/term.js';
import { TermQuery } from '../term/term-query.js';
import { PhraseWeight } from './phrase-weight.js';

export interface PhraseOptions {
  readonly slop?: number;
  /** Position of each term; increasing (equal positions are allowed). */
  readonly positions?: readonly number[];
}

export class PhraseQuery extends Query {
  readonly terms: readonly Term[];
  readonly positions: readonly number[];
  readonly slop: number;

  constructor(
    readonly field: string,
    terms: readonly (string | Uint8Array)[],
    options: PhraseOptions = {},
  ) {
    super();
    this.terms = terms.map((term) => new Term(field, term));
    this.positions = options.positions ? [...options.positions] : this.terms.map((_, i) => i);
    this.slop = options.slop ?? 0;
    if (this.positions.length !== this.terms.length) throw new RangeError('a phrase needs one position per term');
    if (!Number.isInteger(this.slop) || this.slop < 0) throw new RangeError(`slop must be a non-negative integer, got ${this.slop}`);
    for (let i = 1; i < this.positions.length; i++) {
      if (this.positions[i]! < this.positions[i - 1]!) throw new RangeError('phrase positions must not decrease');
    }
  }

  override rewrite(_searcher: IndexSearcher): Query {
    if (this.terms.length === 0) return new MatchNoDocsQuery('empty PhraseQuery');
    if (this.terms.length === 1) return new TermQuery(this.terms[0]!);
    const first = this.positions[0]!;
    if (first !== 0) {
      return new PhraseQuery(
        this.field,
        this.terms.map((term) => term.bytes),
        { slop: this.slop, positions: this.positions.map((position) => position - first) },
      );
    }
    return this;
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    return new PhraseWeight(this, searcher, scoreMode, boost);
  }

  toString(field?: string): string {
    const pieces: (string | undefined)[] = [];
    this.terms.forEach((term, i) => {
      const position = this.positions[i]!;
      pieces[position] = pieces[position] === undefined ? term.text : `${pieces[position]}|${term.text}`;
    });
    const body = Array.from({ length: pieces.length }, (_, i) => pieces[i] ?? '?').join(' ');
    return `${this.field === field ? '' : `${this.field}:`}"${body}"${this.slop !== 0 ? `~${this.slop}` : ''}`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof PhraseQuery &&
      other.field === this.field &&
      other.slop === this.slop &&
      other.terms.length === this.terms.length &&
      other.terms.every((term, i) => term.equals(this.terms[i]!) && other.positions[i] === this.positions[i])
    );
  }
}
