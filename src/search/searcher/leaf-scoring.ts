/**
 * The loop that feeds one segment's matches to a collector (Lucene's DefaultBulkScorer with ES's
 * cancellable windows): skips deleted docs, stops after `terminate_after` collected hits, and calls the
 * cancellation check each time the doc ids cross a 4096-doc window, so a cancelled or timed-out search
 * stops within one window.
 */
import type { LiveDocs } from '../../engine/codec/index.js';
import type { LeafCollector } from '../collect/collector.js';
import { NO_MORE_DOCS } from '../core/doc-id-set-iterator.js';
import type { ScoredCollector, Scorer } from '../core/scorer.js';

/** Doc ids per cancellation check (ES's CancellableBulkScorer scores in windows of this size). */
export const CANCELLATION_WINDOW = 4096;

export interface LeafScoringControl {
  /** Hits still allowed before terminate_after stops the search (Infinity: no limit). */
  remaining: number;
  readonly checkCancelled: (() => void) | undefined;
}

/** Returns true when terminate_after was reached. */
export function scoreLeaf(scorer: Scorer, collector: LeafCollector, liveDocs: LiveDocs | null, control: LeafScoringControl): boolean {
  const check = control.checkCancelled;
  check?.();
  if (control.remaining === Infinity && scorer.scoreRange !== undefined && collector.collectScored !== undefined) {
    // The scorer's own loop, one cancellation window at a time (one window when nothing can cancel).
    const scored = collector as LeafCollector & ScoredCollector;
    let doc = scorer.nextDoc();
    while (doc !== NO_MORE_DOCS) {
      doc = scorer.scoreRange(scored, liveDocs, doc, check === undefined ? NO_MORE_DOCS : windowEndAfter(doc));
      if (doc !== NO_MORE_DOCS) check?.();
    }
    return false;
  }
  let windowEnd = CANCELLATION_WINDOW;
  let doc = scorer.nextDoc();
  while (doc !== NO_MORE_DOCS) {
    if (doc >= windowEnd) {
      check?.();
      windowEnd = windowEndAfter(doc);
    }
    if (liveDocs === null || liveDocs.isLive(doc)) {
      collector.collect(doc);
      if (--control.remaining <= 0) return true;
    }
    doc = scorer.nextDoc();
  }
  return false;
}

/** The end (exclusive) of the cancellation window holding `doc`. */
function windowEndAfter(doc: number): number {
  return (Math.floor(doc / CANCELLATION_WINDOW) + 1) * CANCELLATION_WINDOW;
}
