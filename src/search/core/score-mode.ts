/**
 * What the consumer of a search needs (Lucene's ScoreMode): every match with its score (`complete`),
 * every match without scores (`complete_no_scores`: counting, filters), or only the best hits
 * (`top_scores`), which lets scorers skip documents that cannot beat the current top-k (block-max WAND).
 */
export type ScoreMode = 'complete' | 'complete_no_scores' | 'top_scores';

export function needsScores(mode: ScoreMode): boolean {
  return mode !== 'complete_no_scores';
}
