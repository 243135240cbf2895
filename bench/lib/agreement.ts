/** How often an engine's top 10 matches Lucene's BM25 top 10 (same documents in the same order). */

/** Share of queries whose top-10 keys equal Lucene's, in order. Ties in score may reorder; see `overlapAt10`. */
export function exactTop10Agreement(reference: Map<string, string[]>, candidate: Map<string, string[]>): number {
  let same = 0;
  let total = 0;
  for (const [qid, expected] of reference) {
    const got = candidate.get(qid);
    if (!got) continue;
    total++;
    if (expected.length === got.length && expected.every((key, i) => key === got[i])) same++;
  }
  return total === 0 ? 0 : same / total;
}

/** Mean share of Lucene's top-10 keys that the candidate also returns in its top 10, order ignored. */
export function overlapAt10(reference: Map<string, string[]>, candidate: Map<string, string[]>): number {
  let sum = 0;
  let total = 0;
  for (const [qid, expected] of reference) {
    const got = candidate.get(qid);
    if (!got || expected.length === 0) continue;
    total++;
    const gotSet = new Set(got);
    sum += expected.filter((key) => gotSet.has(key)).length / expected.length;
  }
  return total === 0 ? 0 : sum / total;
}
