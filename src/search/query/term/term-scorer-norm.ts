/** Norm byte used for fields that do not store norms (Lucene's LeafSimScorer default of 1). */
export const DEFAULT_NORM = 1;
