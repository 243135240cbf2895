/**
 * Lucene's span matching over one document's positions, as WeightedSpanTermExtractor runs a phrase on its
 * in-memory index of the highlighted value: a phrase becomes a SpanNearQuery (in order with no slop,
 * unordered otherwise) over SpanTermQuery/SpanOrQuery clauses, and the spans it yields decide which
 * occurrences of the phrase's terms are highlighted. NearSpansOrdered and NearSpansUnordered (with its
 * position-window priority queue) are ported as they iterate, since which spans are found depends on it.
 */

export const NO_MORE_POSITIONS = 2147483647;

export interface Spans {
  nextStartPosition(): number;
  startPosition(): number;
  endPosition(): number;
}

/** A span [start, end) in positions. */
export interface PositionRange {
  readonly start: number;
  readonly end: number;
}

/** SpanTermQuery / SpanOrQuery spans: a sorted list of ranges walked once. */
export class ListSpans implements Spans {
  private index = -1;

  constructor(private readonly ranges: readonly PositionRange[]) {}

  static ofPositions(positions: readonly number[]): ListSpans {
    return new ListSpans(positions.map((position) => ({ start: position, end: position + 1 })));
  }

  /** SpanOrQuery: the union of the clauses' ranges, ordered by start then end. */
  static union(lists: readonly (readonly PositionRange[])[]): ListSpans {
    const all = lists.flat();
    all.sort((a, b) => a.start - b.start || a.end - b.end);
    return new ListSpans(all);
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  nextStartPosition(): number {
    this.index++;
    return this.startPosition();
  }

  startPosition(): number {
    if (this.index < 0) return -1;
    return this.index < this.ranges.length ? this.ranges[this.index]!.start : NO_MORE_POSITIONS;
  }

  endPosition(): number {
    if (this.index < 0) return -1;
    return this.index < this.ranges.length ? this.ranges[this.index]!.end : NO_MORE_POSITIONS;
  }
}

/** NearSpansOrdered: sub-spans in order, non-overlapping, total gap within the slop. */
export function nearOrdered(subSpans: readonly Spans[], allowedSlop: number): PositionRange[] {
  const matches: PositionRange[] = [];
  let exhausted = false;
  const advancePosition = (spans: Spans, position: number): number => {
    while (spans.startPosition() < position) spans.nextStartPosition();
    return spans.startPosition();
  };
  while (subSpans[0]!.nextStartPosition() !== NO_MORE_POSITIONS && !exhausted) {
    let previous = subSpans[0]!;
    const matchStart = previous.startPosition();
    let matchWidth = 0;
    let ordered = true;
    for (let i = 1; i < subSpans.length; i++) {
      const spans = subSpans[i]!;
      if (advancePosition(spans, previous.endPosition()) === NO_MORE_POSITIONS) {
        exhausted = true;
        ordered = false;
        break;
      }
      matchWidth += spans.startPosition() - previous.endPosition();
      previous = spans;
    }
    if (ordered && matchWidth <= allowedSlop) matches.push({ start: matchStart, end: subSpans[subSpans.length - 1]!.endPosition() });
  }
  return matches;
}

/** Lucene's PriorityQueue (1-based heap) ordered by SpanPositionQueue.positionsOrdered. */
class SpanWindow {
  private readonly heap: Spans[] = [];
  private size = 0;
  totalSpanLength = 0;
  maxEndPosition = -1;

  constructor(private readonly subSpans: readonly Spans[]) {}

  private lessThan(a: Spans, b: Spans): boolean {
    const startA = a.startPosition();
    const startB = b.startPosition();
    return startA === startB ? a.endPosition() < b.endPosition() : startA < startB;
  }

  top(): Spans {
    return this.heap[1]!;
  }

  private add(spans: Spans): void {
    this.size++;
    this.heap[this.size] = spans;
    let i = this.size;
    let j = i >>> 1;
    while (j > 0 && this.lessThan(spans, this.heap[j]!)) {
      this.heap[i] = this.heap[j]!;
      i = j;
      j >>>= 1;
    }
    this.heap[i] = spans;
  }

  private updateTop(): void {
    let i = 1;
    const node = this.heap[i]!;
    let j = i << 1;
    let k = j + 1;
    if (k <= this.size && this.lessThan(this.heap[k]!, this.heap[j]!)) j = k;
    while (j <= this.size && this.lessThan(this.heap[j]!, node)) {
      this.heap[i] = this.heap[j]!;
      i = j;
      j = i << 1;
      k = j + 1;
      if (k <= this.size && this.lessThan(this.heap[k]!, this.heap[j]!)) j = k;
    }
    this.heap[i] = node;
  }

  startDocument(): void {
    for (const spans of this.subSpans) {
      spans.nextStartPosition();
      this.add(spans);
      if (spans.endPosition() > this.maxEndPosition) this.maxEndPosition = spans.endPosition();
      this.totalSpanLength += spans.endPosition() - spans.startPosition();
    }
  }

  nextPosition(): boolean {
    const top = this.top();
    const oldLength = top.endPosition() - top.startPosition();
    if (top.nextStartPosition() === NO_MORE_POSITIONS) return false;
    this.totalSpanLength += top.endPosition() - top.startPosition() - oldLength;
    if (top.endPosition() > this.maxEndPosition) this.maxEndPosition = top.endPosition();
    this.updateTop();
    return true;
  }

  atMatch(allowedSlop: number): boolean {
    return this.maxEndPosition - this.top().startPosition() - this.totalSpanLength <= allowedSlop;
  }
}

/** NearSpansUnordered: all sub-spans within a window whose unused positions do not exceed the slop. */
export function nearUnordered(subSpans: readonly Spans[], allowedSlop: number): PositionRange[] {
  const window = new SpanWindow(subSpans);
  window.startDocument();
  const matches: PositionRange[] = [];
  for (;;) {
    if (window.atMatch(allowedSlop)) break;
    if (!window.nextPosition()) return matches;
  }
  matches.push({ start: window.top().startPosition(), end: window.maxEndPosition });
  for (;;) {
    if (!window.nextPosition()) return matches;
    if (window.atMatch(allowedSlop)) matches.push({ start: window.top().startPosition(), end: window.maxEndPosition });
  }
}
