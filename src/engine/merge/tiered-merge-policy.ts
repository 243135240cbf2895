/**
 * Which segments to merge (the essentials of Lucene's TieredMergePolicy with Elasticsearch's defaults):
 *
 * - Segment sizes are pro-rated by their deletes; segments below `floorSegmentBytes` count as that size.
 * - The index may have `segmentsPerTier` segments per tier of sizes growing by `maxMergeAtOnce`, starting at
 *   the (floored) smallest segment; when it has more, or more deletes than `deletesPctAllowed`, the best
 *   merge is chosen among windows of up to `maxMergeAtOnce` consecutive segments (by size): low skew (similar
 *   sizes), small result and many reclaimed deletes score best. Merged segments stay under
 *   `maxMergedSegmentBytes`; segments larger than half of it are left alone unless they are mostly deletes.
 * - A merge that would not grow its largest input by half is skipped (no O(n^2) rewriting of one big
 *   segment), unless it reclaims that segment's deletes.
 * Forced merges (`_forcemerge`) and expunging deletes have their own, simpler selection below.
 */

export interface PolicySegment {
  readonly name: string;
  readonly sizeInBytes: number;
  readonly maxDoc: number;
  readonly deletedCount: number;
}

export interface TieredMergePolicyOptions {
  readonly segmentsPerTier: number;
  readonly maxMergeAtOnce: number;
  readonly maxMergeAtOnceExplicit: number;
  readonly floorSegmentBytes: number;
  readonly maxMergedSegmentBytes: number;
  readonly deletesPctAllowed: number;
  readonly forceMergeDeletesPctAllowed: number;
}

/** Elasticsearch's `index.merge.policy.*` defaults. */
export const DEFAULT_MERGE_POLICY: TieredMergePolicyOptions = {
  segmentsPerTier: 10,
  maxMergeAtOnce: 10,
  maxMergeAtOnceExplicit: 30,
  floorSegmentBytes: 2 * 1024 * 1024,
  maxMergedSegmentBytes: 5 * 1024 * 1024 * 1024,
  deletesPctAllowed: 20,
  forceMergeDeletesPctAllowed: 10,
};

interface Sized {
  readonly segment: PolicySegment;
  /** Bytes pro-rated by the live ratio. */
  readonly size: number;
}

export class TieredMergePolicy {
  constructor(readonly options: TieredMergePolicyOptions = DEFAULT_MERGE_POLICY) {}

  private sized(segments: readonly PolicySegment[]): Sized[] {
    return segments
      .map((segment) => ({
        segment,
        size: segment.maxDoc === 0 ? 0 : Math.round(segment.sizeInBytes * (1 - segment.deletedCount / segment.maxDoc)),
      }))
      .sort((a, b) => b.size - a.size || (a.segment.name < b.segment.name ? -1 : 1));
  }

  private floor(size: number): number {
    return Math.max(size, this.options.floorSegmentBytes);
  }

  /** Natural merges: each returned list is one merge of segment names. `merging` are already being merged. */
  findMerges(segments: readonly PolicySegment[], merging: ReadonlySet<string>): string[][] {
    const { segmentsPerTier, maxMergeAtOnce, maxMergedSegmentBytes, deletesPctAllowed } = this.options;
    let eligible = this.sized(segments);
    let totalBytes = 0;
    let minSegmentBytes = Infinity;
    let totalDeleted = 0;
    let totalMaxDoc = 0;
    let mergingBytes = 0;
    const remaining: Sized[] = [];
    for (const sized of eligible) {
      if (merging.has(sized.segment.name)) {
        mergingBytes += sized.size;
        totalMaxDoc += sized.segment.maxDoc - sized.segment.deletedCount;
      } else {
        remaining.push(sized);
        totalDeleted += sized.segment.deletedCount;
        totalMaxDoc += sized.segment.maxDoc;
      }
      minSegmentBytes = Math.min(minSegmentBytes, sized.size);
      totalBytes += sized.size;
    }
    eligible = remaining;
    const totalDeletedPct = totalMaxDoc === 0 ? 0 : (100 * totalDeleted) / totalMaxDoc;
    let allowedDeleted = Math.floor((deletesPctAllowed * totalMaxDoc) / 100);
    // Too-large segments are graced out of the budget unless deletes make them worth rewriting.
    eligible = eligible.filter((sized) => {
      const segmentDeletedPct = sized.segment.maxDoc === 0 ? 0 : (100 * sized.segment.deletedCount) / sized.segment.maxDoc;
      if (sized.size > maxMergedSegmentBytes / 2 && (totalDeletedPct <= deletesPctAllowed || segmentDeletedPct <= deletesPctAllowed)) {
        totalBytes -= sized.size;
        allowedDeleted -= sized.segment.deletedCount;
        return false;
      }
      return true;
    });
    allowedDeleted = Math.max(0, allowedDeleted);
    const mergeFactor = Math.min(maxMergeAtOnce, segmentsPerTier);
    let levelSize = this.floor(Number.isFinite(minSegmentBytes) ? minSegmentBytes : 0);
    let bytesLeft = totalBytes;
    let allowedSegments = 0;
    for (;;) {
      const segmentsAtLevel = bytesLeft / levelSize;
      if (segmentsAtLevel < segmentsPerTier || levelSize === maxMergedSegmentBytes) {
        allowedSegments += Math.ceil(segmentsAtLevel);
        break;
      }
      allowedSegments += segmentsPerTier;
      bytesLeft -= segmentsPerTier * levelSize;
      levelSize = Math.min(maxMergedSegmentBytes, levelSize * mergeFactor);
    }
    allowedSegments = Math.max(allowedSegments, segmentsPerTier);
    return this.pickMerges(eligible, mergeFactor, allowedSegments, allowedDeleted, mergingBytes >= maxMergedSegmentBytes);
  }

  private pickMerges(sortedEligible: Sized[], mergeFactor: number, allowedSegments: number, allowedDeleted: number, maxMergeIsRunning: boolean): string[][] {
    const { maxMergedSegmentBytes, deletesPctAllowed } = this.options;
    const merges: string[][] = [];
    const picked = new Set<string>();
    let haveOneLargeMerge = false;
    for (;;) {
      const eligible = sortedEligible.filter((sized) => !picked.has(sized.segment.name));
      if (eligible.length === 0) return merges;
      const remainingDeleted = eligible.reduce((sum, sized) => sum + sized.segment.deletedCount, 0);
      if (eligible.length <= allowedSegments && remainingDeleted <= allowedDeleted) return merges;

      let best: Sized[] | null = null;
      let bestScore = Infinity;
      let bestTooLarge = false;
      for (let start = 0; start < eligible.length; start++) {
        const candidate: Sized[] = [];
        let hitTooLarge = false;
        let bytesThisMerge = 0;
        let totalAfterMerge = 0;
        for (let i = start; i < eligible.length && candidate.length < mergeFactor && bytesThisMerge < maxMergedSegmentBytes; i++) {
          const sized = eligible[i]!;
          if (totalAfterMerge + sized.size > maxMergedSegmentBytes) {
            hitTooLarge = true;
            if (candidate.length === 0) {
              candidate.push(sized);
              bytesThisMerge += sized.size;
            }
            // Keep looking for smaller segments that still fit ("bin packing").
            continue;
          }
          candidate.push(sized);
          bytesThisMerge += sized.size;
          totalAfterMerge += sized.size;
        }
        const largest = candidate[0]!;
        if (
          !hitTooLarge &&
          bytesThisMerge < largest.size * 1.5 &&
          largest.segment.deletedCount < (largest.segment.maxDoc * deletesPctAllowed) / 100
        ) {
          continue;
        }
        if (candidate.length === 1 && largest.segment.deletedCount === 0) continue;
        if (best !== null && !hitTooLarge && candidate.length < mergeFactor) break;
        const score = this.score(candidate, hitTooLarge, mergeFactor);
        if (score < bestScore && (!hitTooLarge || !maxMergeIsRunning)) {
          best = candidate;
          bestScore = score;
          bestTooLarge = hitTooLarge;
        }
      }
      if (best === null) return merges;
      if (!haveOneLargeMerge || !bestTooLarge) {
        haveOneLargeMerge ||= bestTooLarge;
        merges.push(best.map((sized) => sized.segment.name));
      }
      for (const sized of best) picked.add(sized.segment.name);
    }
  }

  /** Lower is better: skew (1/n balanced .. 1 lopsided) x size^0.05 x live ratio^2. */
  private score(candidate: readonly Sized[], hitTooLarge: boolean, mergeFactor: number): number {
    let before = 0;
    let after = 0;
    let afterFloored = 0;
    for (const sized of candidate) {
      after += sized.size;
      afterFloored += this.floor(sized.size);
      before += sized.segment.sizeInBytes;
    }
    const skew = hitTooLarge ? 1 / mergeFactor : this.floor(candidate[0]!.size) / afterFloored;
    const liveRatio = before === 0 ? 1 : after / before;
    return skew * Math.pow(Math.max(after, 1), 0.05) * liveRatio * liveRatio;
  }

  /**
   * `_forcemerge?max_num_segments=n`: merges the smallest segments together until at most n remain; with
   * n = 1 everything becomes one segment, and a single segment with deletes is rewritten without them.
   */
  findForcedMerges(segments: readonly PolicySegment[], maxSegmentCount: number, merging: ReadonlySet<string>): string[][] {
    const eligible = this.sized(segments).filter((sized) => !merging.has(sized.segment.name));
    if (eligible.length === 0) return [];
    if (maxSegmentCount <= 1) {
      if (eligible.length === 1 && eligible[0]!.segment.deletedCount === 0) return [];
      return [eligible.map((sized) => sized.segment.name)];
    }
    if (eligible.length <= maxSegmentCount) {
      // Already few enough: only rewrite segments that carry deletes, one by one.
      return eligible.filter((sized) => sized.segment.deletedCount > 0).map((sized) => [sized.segment.name]);
    }
    const count = Math.min(eligible.length - maxSegmentCount + 1, this.options.maxMergeAtOnceExplicit);
    return [eligible.slice(eligible.length - count).map((sized) => sized.segment.name)];
  }

  /** `_forcemerge?only_expunge_deletes`: rewrites segments whose deletes exceed the allowed percentage. */
  findForcedDeletesMerges(segments: readonly PolicySegment[], merging: ReadonlySet<string>): string[][] {
    const { forceMergeDeletesPctAllowed, maxMergeAtOnceExplicit, maxMergedSegmentBytes } = this.options;
    const eligible = this.sized(segments).filter(
      (sized) =>
        !merging.has(sized.segment.name) &&
        sized.segment.maxDoc > 0 &&
        (100 * sized.segment.deletedCount) / sized.segment.maxDoc > forceMergeDeletesPctAllowed,
    );
    const merges: string[][] = [];
    let current: string[] = [];
    let bytes = 0;
    for (const sized of eligible) {
      if (current.length === maxMergeAtOnceExplicit || (current.length > 0 && bytes + sized.size > maxMergedSegmentBytes)) {
        merges.push(current);
        current = [];
        bytes = 0;
      }
      current.push(sized.segment.name);
      bytes += sized.size;
    }
    if (current.length > 0) merges.push(current);
    return merges;
  }
}
