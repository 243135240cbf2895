/**
 * BM25 written out from the formula, independently of src/, for expected values in tests. Every step Lucene
 * computes in 32-bit float is rounded with Math.fround here too; idf and avgdl are computed in double and
 * rounded once, as Lucene's BM25Similarity does.
 */
const f = Math.fround;

/** SmallFloat.intToByte4 then LENGTH_TABLE (a float table): the length a document is scored with. */
export function quantizedLength(length: number): number {
  if (length < 24) return length;
  // 24 + a 4-significant-bit float of (length - 24)
  const value = length - 24;
  const bits = 32 - Math.clz32(value);
  if (bits < 4) return length;
  const shift = bits - 4;
  return f(24 + Math.floor(value / 2 ** shift) * 2 ** shift);
}

export interface Bm25Input {
  /** Term frequency (phrase frequency for phrases). */
  freq: number;
  /** Document length in tokens (before quantisation). */
  length: number;
  /** Documents with the field. */
  docCount: number;
  /** Sum of the field's lengths over the documents. */
  sumTotalTermFreq: number;
  /** docFreq of each term (several for a phrase: their idfs are summed). */
  docFreqs: readonly number[];
  boost?: number;
  /** ES's LegacyBM25Similarity: the boost is multiplied by 1 + k1. */
  legacy?: boolean;
}

export function idf(docFreq: number, docCount: number): number {
  return f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

export function bm25(input: Bm25Input): number {
  const k1 = f(1.2);
  const b = f(0.75);
  let boost = f(input.boost ?? 1);
  if (input.legacy) boost = f(boost * f(1 + k1));
  const idfSum = input.docFreqs.length === 1 ? idf(input.docFreqs[0]!, input.docCount) : f(input.docFreqs.reduce((sum, df) => sum + idf(df, input.docCount), 0));
  const avgdl = f(input.sumTotalTermFreq / input.docCount);
  const dl = quantizedLength(input.length);
  const normInverse = f(1 / f(k1 * f(f(1 - b) + f(f(b * dl) / avgdl))));
  const weight = f(boost * idfSum);
  return f(weight - f(weight / f(1 + f(input.freq * normInverse))));
}
