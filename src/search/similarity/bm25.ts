/**
 * BM25 exactly as Lucene 8/9 compute it, in 32-bit float arithmetic, so scores are bit-equal to Lucene's:
 *
 *   idf    = (float) ln(1 + (N - n + 0.5) / (n + 0.5))       N = the field's docCount, n = docFreq (doubles)
 *   avgdl  = (float) (sumTotalTermFreq / docCount)
 *   cache[norm] = 1f / (k1 * ((1 - b) + b * LENGTH_TABLE[norm] / avgdl))        (float ops, one per norm byte)
 *   weight = boost * idf
 *   score  = weight - weight / (1f + freq * cache[norm])      (= weight * freq / (freq + k1 * (...)), rewritten
 *                                                              by Lucene to stay monotonic in float)
 *
 * Elasticsearch 7 and 8 wrap this in LegacyBM25Similarity, which multiplies the boost by (1 + k1): that is
 * the default here (`legacyK1Factor: true`), so a single-term score equals what ES prints, and the factor
 * shows up in explanations as a `boost` of 2.2 exactly as ES's explain API shows it. Plain Lucene 8/9
 * (what the Lucene peer in bench-peers runs) is `legacyK1Factor: false`.
 */
import { errors } from '../../common/errors.js';
import { LENGTH_TABLE } from '../../engine/codec/index.js';
import { Explanation } from '../explanation.js';
import { floatToString, fround } from '../float32.js';
import type { CollectionStatistics, SimScorer, Similarity, TermStatistics } from './similarity.js';

export interface BM25Options {
  readonly k1?: number;
  readonly b?: number;
  /** ES's LegacyBM25Similarity: boost * (1 + k1). Default true (what ES 7/8 score with). */
  readonly legacyK1Factor?: boolean;
  /** Name in explanations; ES prints `PerFieldSimilarity`, Lucene `BM25Similarity`. */
  readonly explainName?: string;
}

export class BM25Similarity implements Similarity {
  readonly k1: number;
  readonly b: number;
  readonly legacyK1Factor: boolean;
  readonly explainName: string;

  constructor(options: BM25Options = {}) {
    const k1 = fround(options.k1 ?? 1.2);
    const b = fround(options.b ?? 0.75);
    if (!Number.isFinite(k1) || k1 < 0) throw errors.illegalArgument(`illegal k1 value: ${floatToString(k1)}, must be a non-negative finite value`);
    if (Number.isNaN(b) || b < 0 || b > 1) throw errors.illegalArgument(`illegal b value: ${floatToString(b)}, must be between 0 and 1`);
    this.k1 = k1;
    this.b = b;
    this.legacyK1Factor = options.legacyK1Factor ?? true;
    this.explainName = options.explainName ?? (this.legacyK1Factor ? 'PerFieldSimilarity' : 'BM25Similarity');
  }

  /** Lucene's BM25Similarity.idf, computed in double and rounded to float. */
  static idf(docFreq: number, docCount: number): number {
    return fround(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
  }

  scorer(boost: number, collection: CollectionStatistics, terms: readonly TermStatistics[]): BM25SimScorer {
    if (terms.length === 0) throw new RangeError('BM25 needs the statistics of at least one term');
    const effectiveBoost = this.legacyK1Factor ? fround(fround(boost) * fround(1 + this.k1)) : fround(boost);
    const idf = terms.length === 1 ? idfExplanation(collection, terms[0]!) : idfSumExplanation(collection, terms);
    const avgdl = fround(collection.sumTotalTermFreq / collection.docCount);
    const cache = new Float32Array(256);
    const oneMinusB = fround(1 - this.b);
    for (let norm = 0; norm < 256; norm++) {
      cache[norm] = fround(1 / fround(this.k1 * fround(oneMinusB + fround(fround(this.b * LENGTH_TABLE[norm]!) / avgdl))));
    }
    return new BM25SimScorer(effectiveBoost, this.k1, this.b, idf, avgdl, cache);
  }
}

function idfExplanation(collection: CollectionStatistics, term: TermStatistics): Explanation {
  return Explanation.match(BM25Similarity.idf(term.docFreq, collection.docCount), 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', [
    Explanation.matchLong(term.docFreq, 'n, number of documents containing term'),
    Explanation.matchLong(collection.docCount, 'N, total number of documents with field'),
  ]);
}

/** A phrase's idf: the sum of its terms' float idfs, added in double and rounded once, as Lucene does. */
function idfSumExplanation(collection: CollectionStatistics, terms: readonly TermStatistics[]): Explanation {
  let sum = 0;
  const details = terms.map((term) => {
    const detail = idfExplanation(collection, term);
    sum += detail.value;
    return detail;
  });
  return Explanation.match(fround(sum), 'idf, sum of:', details);
}

/** BM25 bound to one term's statistics: scores any (freq, norm) pair through the 256-entry norm cache. */
export class BM25SimScorer implements SimScorer {
  /** boost * idf, the score's upper limit as freq grows. */
  readonly weight: number;

  constructor(
    readonly boost: number,
    private readonly k1: number,
    private readonly b: number,
    private readonly idf: Explanation,
    readonly avgdl: number,
    /** 1 / (k1 * ((1 - b) + b * dl / avgdl)) for each norm byte. */
    readonly normInverses: Float32Array,
  ) {
    this.weight = fround(boost * idf.value);
  }

  score(freq: number, norm: number): number {
    const weight = this.weight;
    return fround(weight - fround(weight / fround(1 + fround(freq * this.normInverses[norm]!))));
  }

  explain(freq: Explanation, norm: number): Explanation {
    const details: Explanation[] = [];
    if (this.boost !== 1) details.push(Explanation.match(this.boost, 'boost'));
    details.push(this.idf);
    details.push(this.explainTf(freq, norm));
    return Explanation.match(this.score(freq.value, norm), `score(freq=${floatToString(freq.value)}), computed as boost * idf * tf from:`, details);
  }

  private explainTf(freq: Explanation, norm: number): Explanation {
    const dl = LENGTH_TABLE[norm & 0xff]!;
    const normInverse = fround(1 / fround(this.k1 * fround(fround(1 - this.b) + fround(fround(this.b * dl) / this.avgdl))));
    const tf = fround(1 - fround(1 / fround(1 + fround(freq.value * normInverse))));
    return Explanation.match(tf, 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:', [
      freq,
      Explanation.match(this.k1, 'k1, term saturation parameter'),
      Explanation.match(this.b, 'b, length normalization parameter'),
      // Norm bytes above 39 stand for a range of lengths (the quantisation of norms/small-float.ts).
      Explanation.match(dl, (norm & 0xff) > 39 ? 'dl, length of field (approximate)' : 'dl, length of field'),
      Explanation.match(this.avgdl, 'avgdl, average length of field'),
    ]);
  }
}
