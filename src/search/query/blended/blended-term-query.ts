/**
 * One term searched in several fields with shared statistics (ES's BlendedTermQuery.dismaxBlendedQuery,
 * what multi_match `cross_fields` builds): before scoring, every field's docFreq is lifted to about the
 * largest one and the total term frequencies are summed, so a term rare in one field but common in another
 * does not win on the rare field's idf alone. It rewrites to a dis_max of term queries pinned to the
 * blended statistics. The blending follows ES's BlendedTermQuery.blend step by step, including its tie
 * breaker (each less frequent field gets one more than the field before it) and its caps (docCount, maxDoc
 * lowered to the smallest sumTotalTermFreq).
 */
import type { TermState } from '../../../engine/codec/index.js';
import { Query } from '../../core/query.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import { floatToString, fround } from '../../float32.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { TermStates } from '../../searcher/term-states.js';
import { BoostQuery } from '../boost-query.js';
import { DisjunctionMaxQuery } from '../dismax-query.js';
import { Term } from '../term/term.js';
import { TermQuery } from '../term/term-query.js';

export interface BlendedTerm {
  readonly field: string;
  readonly term: string | Uint8Array;
  readonly boost: number;
}

/** Per-leaf states of one term with new searcher-wide totals (Lucene's TermStates re-registered). */
function withTotals(states: TermStates, leafCount: number, docFreq: number, totalTermFreq: number): TermStates {
  const perLeaf: (TermState | null)[] = [];
  for (let ord = 0; ord < leafCount; ord++) perLeaf.push(states.get(ord));
  return new TermStates(perLeaf, docFreq, totalTermFreq);
}

/** ES's BlendedTermQuery.blend over the terms' states (index-wide sums of each field's statistics). */
export function blendTermStates(searcher: IndexSearcher, terms: readonly Term[], contexts: TermStates[]): TermStates[] {
  const blended = [...contexts];
  if (blended.length <= 1) return blended;
  const leafCount = searcher.leaves.length;
  const fieldSum = (field: string, pick: 'docCount' | 'sumTotalTermFreq'): number => {
    let sum = 0;
    for (const leaf of searcher.leaves) sum += leaf.readers.terms.terms(field)?.stats[pick] ?? 0;
    return sum;
  };
  let maxDoc = searcher.maxDoc;
  let max = 0;
  let minSumTTF = Number.MAX_SAFE_INTEGER;
  blended.forEach((states, i) => {
    max = Math.max(max, states.docFreq);
    if (states.totalTermFreq > 0) minSumTTF = Math.min(minSumTTF, fieldSum(terms[i]!.field, 'sumTotalTermFreq'));
  });
  if (maxDoc > minSumTTF) maxDoc = minSumTTF;
  if (max === 0) return blended;
  // Most frequent first; equal frequencies keep their order (a stable merge sort in ES).
  const order = blended.map((_, i) => i).sort((a, b) => blended[b]!.docFreq - blended[a]!.docFreq || a - b);
  let prev = blended[order[0]!]!.docFreq;
  let actualDf = Math.min(maxDoc, max);
  let sumTTF = 0;
  for (const i of order) {
    const states = blended[i]!;
    if (states.docFreq === 0) break;
    const current = states.docFreq;
    if (prev > current) actualDf++;
    const docCount = fieldSum(terms[i]!.field, 'docCount');
    const newDocFreq = Math.min(actualDf, docCount, maxDoc);
    // A total term frequency consistent with the new docFreq (never below it).
    const adjusted = withTotals(states, leafCount, newDocFreq, Math.max(states.totalTermFreq, newDocFreq));
    blended[i] = adjusted;
    prev = current;
    sumTTF += adjusted.totalTermFreq;
  }
  sumTTF = Math.min(sumTTF, minSumTTF);
  blended.forEach((states, i) => {
    if (states.docFreq !== 0) blended[i] = withTotals(states, leafCount, states.docFreq, sumTTF);
  });
  return blended;
}

export class BlendedTermQuery extends Query {
  readonly terms: readonly Term[];
  readonly boosts: readonly number[];
  readonly tieBreaker: number;

  constructor(terms: readonly BlendedTerm[], tieBreaker: number) {
    super();
    if (terms.length === 0) throw new RangeError('terms must not be null or empty');
    this.terms = terms.map((entry) => new Term(entry.field, entry.term));
    this.boosts = terms.map((entry) => fround(entry.boost));
    this.tieBreaker = fround(tieBreaker);
  }

  override rewrite(searcher: IndexSearcher): Query {
    const contexts = this.terms.map((term) => searcher.termStates(term.field, term.bytes));
    const blended = blendTermStates(searcher, this.terms, contexts);
    const queries = this.terms.map((term, i) => {
      const query: Query = new TermQuery(term, undefined, blended[i]);
      return this.boosts[i] === 1 ? query : new BoostQuery(query, this.boosts[i]!);
    });
    return new DisjunctionMaxQuery(queries, this.tieBreaker);
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, _boost: number): Weight {
    throw new Error(`${this.toString()} must be rewritten before it is run`);
  }

  /** ES's `blended(terms:[title:fox, body:fox^2.0])`. */
  toString(): string {
    const parts = this.terms.map((term, i) => `${term.toString()}${this.boosts[i] === 1 ? '' : `^${floatToString(this.boosts[i]!)}`}`);
    return `blended(terms:[${parts.join(', ')}])`;
  }

  equals(other: Query): boolean {
    if (!(other instanceof BlendedTermQuery) || other.terms.length !== this.terms.length || other.tieBreaker !== this.tieBreaker) return false;
    const key = (query: BlendedTermQuery): string[] => query.terms.map((term, i) => `${term.toString()}^${query.boosts[i]}`).sort();
    const mine = key(this);
    return key(other).every((entry, i) => entry === mine[i]);
  }
}
