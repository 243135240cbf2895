/**
 * Finds the phrase occurrences in the current document of a phrase's postings (Lucene's PhraseMatcher):
 * reset() for a new doc, then nextMatch() until false; sloppyWeight() is what the current occurrence adds
 * to the phrase frequency (1 for an exact match, 1 / (1 + distance) for a sloppy one).
 */
export interface PhraseMatcher {
  reset(): void;
  nextMatch(): boolean;
  sloppyWeight(): number;
  /** An upper bound of the current doc's phrase frequency, from the terms' frequencies alone (after reset). */
  maxFreq(): number;
}
