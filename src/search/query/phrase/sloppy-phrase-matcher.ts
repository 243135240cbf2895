/**
 * Sloppy phrase occurrences (Lucene's SloppyPhraseMatcher): the terms' positions,
 * shifted back by their offsets in the phrase, sit in a priority queue; the distance of a candidate is the
 * largest shifted position minus the smallest, minimised by advancing the smallest until it passes the next.
 * A candidate within `slop` adds 1 / (1 + distance) to the phrase frequency. Terms that repeat in the phrase
 * ("a b a") are kept from landing on the same document position (Lucene's repetition groups), and the
 * queue breaks ties the same way, so frequencies equal Lucene's, including its known blind spots (not every
 * valid combination is visited, for speed). A position may hold several terms (a multi-phrase): positions
 * whose term sets share a term are then grouped transitively, as Lucene's multi-term repeat groups are.
 */
import type { PostingsEnum } from '../../../engine/codec/index.js';
import type { PhraseMatcher } from './phrase-matcher.js';

class PhrasePositions {
  /** Document position minus the term's offset in the phrase. */
  position = 0;
  /** Positions left in the current doc. */
  count = 0;
  /** Repetition group, -1 when the term does not repeat. */
  rptGroup = -1;
  /** Index in the repetition group. */
  rptInd = 0;

  constructor(
    readonly postings: PostingsEnum,
    readonly offset: number,
    readonly ord: number,
    /** The terms this position accepts (one, except in a multi-phrase). */
    readonly terms: readonly string[],
  ) {}

  firstPosition(): void {
    this.count = this.postings.freq();
    this.nextPosition();
  }

  nextPosition(): boolean {
    if (this.count-- > 0) {
      this.position = this.postings.nextPosition() - this.offset;
      return true;
    }
    return false;
  }
}

function lessThan(a: PhrasePositions, b: PhrasePositions): boolean {
  if (a.position === b.position) return a.offset === b.offset ? a.ord < b.ord : a.offset < b.offset;
  return a.position < b.position;
}

/** Lucene's PriorityQueue over PhrasePositions (1-based binary heap, least on top). */
class PhraseQueue {
  private readonly heap: (PhrasePositions | null)[];
  size = 0;

  constructor(capacity: number) {
    this.heap = new Array<PhrasePositions | null>(capacity + 1).fill(null);
  }

  clear(): void {
    this.heap.fill(null);
    this.size = 0;
  }

  add(element: PhrasePositions): void {
    const heap = this.heap;
    let i = ++this.size;
    heap[i] = element;
    let j = i >>> 1;
    while (j > 0 && lessThan(element, heap[j]!)) {
      heap[i] = heap[j]!;
      i = j;
      j >>>= 1;
    }
    heap[i] = element;
  }

  top(): PhrasePositions {
    return this.heap[1]!;
  }

  pop(): PhrasePositions {
    const heap = this.heap;
    const result = heap[1]!;
    heap[1] = heap[this.size]!;
    heap[this.size] = null;
    this.size--;
    // down heap
    let i = 1;
    const node = heap[i];
    if (node === null || node === undefined) return result;
    let j = i << 1;
    let k = j + 1;
    if (k <= this.size && lessThan(heap[k]!, heap[j]!)) j = k;
    while (j <= this.size && lessThan(heap[j]!, node)) {
      heap[i] = heap[j]!;
      i = j;
      j = i << 1;
      k = j + 1;
      if (k <= this.size && lessThan(heap[k]!, heap[j]!)) j = k;
    }
    heap[i] = node;
    return result;
  }
}

export class SloppyPhraseMatcher implements PhraseMatcher {
  private readonly phrasePositions: PhrasePositions[];
  private readonly queue: PhraseQueue;
  /** Largest shifted position among the terms. */
  private end = 0;
  private hasRepeats = false;
  private checkedRepeats = false;
  private repeatGroups: PhrasePositions[][] = [];
  private repeatStack: PhrasePositions[] = [];
  private hasMultiTermRepeats = false;
  private positioned = false;
  private matchLength = 0;

  /** `postings`, `offsets` and `terms` in phrase order. */
  constructor(
    postings: readonly PostingsEnum[],
    offsets: readonly number[],
    terms: readonly (string | readonly string[])[],
    private readonly slop: number,
  ) {
    this.phrasePositions = postings.map((p, i) => {
      const accepted = terms[i]!;
      return new PhrasePositions(p, offsets[i]!, i, typeof accepted === 'string' ? [accepted] : accepted);
    });
    this.queue = new PhraseQueue(postings.length);
  }

  reset(): void {
    this.positioned = this.initPhrasePositions();
    this.matchLength = 0x7fffffff;
  }

  sloppyWeight(): number {
    return Math.fround(1 / Math.fround(1 + this.matchLength));
  }

  /** Each term position can start at most one occurrence, each worth at most 1 (Lucene's bound). */
  maxFreq(): number {
    let sum = 0;
    for (const pp of this.phrasePositions) sum += pp.postings.freq();
    return sum;
  }

  nextMatch(): boolean {
    if (!this.positioned) return false;
    const queue = this.queue;
    let pp = queue.pop();
    this.matchLength = this.end - pp.position;
    let next = queue.top().position;
    while (this.advancePP(pp)) {
      if (this.hasRepeats && !this.advanceRepeats(pp)) break;
      if (pp.position > next) {
        // done minimising the current match length
        queue.add(pp);
        if (this.matchLength <= this.slop) return true;
        pp = queue.pop();
        next = queue.top().position;
        this.matchLength = this.end - pp.position;
      } else {
        const matchLength = this.end - pp.position;
        if (matchLength < this.matchLength) this.matchLength = matchLength;
      }
    }
    this.positioned = false;
    return this.matchLength <= this.slop;
  }

  private advancePP(pp: PhrasePositions): boolean {
    if (!pp.nextPosition()) return false;
    if (pp.position > this.end) this.end = pp.position;
    return true;
  }

  /** After `pp` moved, resolves a collision with a repeat of the same term by advancing the lesser one. */
  private advanceRepeats(pp: PhrasePositions): boolean {
    if (pp.rptGroup < 0) return true;
    const group = this.repeatGroups[pp.rptGroup]!;
    const requeue = new Set<number>();
    const k0 = pp.rptInd;
    let k: number;
    while ((k = this.collide(pp)) >= 0) {
      pp = lesser(pp, group[k]!);
      if (!this.advancePP(pp)) return false;
      if (k !== k0) requeue.add(k);
    }
    // Pop until every advanced repeat has been seen, then push everything back.
    let n = 0;
    while (requeue.size > 0) {
      const pp2 = this.queue.pop();
      this.repeatStack[n++] = pp2;
      if (pp2.rptGroup >= 0) requeue.delete(pp2.rptInd);
    }
    for (let i = n - 1; i >= 0; i--) this.queue.add(this.repeatStack[i]!);
    return true;
  }

  /** rptInd of a repeat of pp's term at the same document position, or -1. */
  private collide(pp: PhrasePositions): number {
    const position = pp.position + pp.offset;
    for (const pp2 of this.repeatGroups[pp.rptGroup]!) {
      if (pp2 !== pp && pp2.position + pp2.offset === position) return pp2.rptInd;
    }
    return -1;
  }

  private initPhrasePositions(): boolean {
    this.end = -0x80000000;
    if (!this.checkedRepeats) return this.initFirstTime();
    if (!this.hasRepeats) {
      this.initSimple();
      return true;
    }
    for (const pp of this.phrasePositions) pp.firstPosition();
    if (!this.advanceRepeatGroups()) return false;
    this.fillQueue();
    return true;
  }

  private initSimple(): void {
    this.queue.clear();
    for (const pp of this.phrasePositions) {
      pp.firstPosition();
      if (pp.position > this.end) this.end = pp.position;
      this.queue.add(pp);
    }
  }

  private fillQueue(): void {
    this.queue.clear();
    for (const pp of this.phrasePositions) {
      if (pp.position > this.end) this.end = pp.position;
      this.queue.add(pp);
    }
  }

  /** Starts each repeat group collision-free: the k-th repeat (by phrase offset) skips k positions. */
  private advanceRepeatGroups(): boolean {
    for (const group of this.repeatGroups) {
      if (this.hasMultiTermRepeats) {
        // Not every pair collides when positions hold several terms: resolve actual collisions only.
        let increment: number;
        for (let i = 0; i < group.length; i += increment) {
          increment = 1;
          const pp = group[i]!;
          let k: number;
          while ((k = this.collide(pp)) >= 0) {
            const pp2 = lesser(pp, group[k]!);
            if (!this.advancePP(pp2)) return false;
            if (pp2.rptInd < i) {
              increment = 0;
              break;
            }
          }
        }
        continue;
      }
      for (let j = 1; j < group.length; j++) {
        for (let k = 0; k < j; k++) {
          if (!group[j]!.nextPosition()) return false;
        }
      }
    }
    return true;
  }

  /** Single terms: repeats are those that sit on the same document position in the first candidate doc. */
  private singleTermGroups(repeating: readonly PhrasePositions[]): PhrasePositions[][] {
    const groups: PhrasePositions[][] = [];
    for (let i = 0; i < repeating.length; i++) {
      const pp = repeating[i]!;
      if (pp.rptGroup >= 0) continue;
      const position = pp.position + pp.offset;
      for (let j = i + 1; j < repeating.length; j++) {
        const pp2 = repeating[j]!;
        if (pp2.rptGroup >= 0 || pp2.offset === pp.offset || pp2.position + pp2.offset !== position) continue;
        let group = pp.rptGroup;
        if (group < 0) {
          group = groups.length;
          pp.rptGroup = group;
          groups.push([pp]);
        }
        pp2.rptGroup = group;
        groups[group]!.push(pp2);
      }
    }
    return groups;
  }

  /** First candidate doc: detect repeated terms and build their groups (done once per segment). */
  private initFirstTime(): boolean {
    this.checkedRepeats = true;
    for (const pp of this.phrasePositions) pp.firstPosition();
    const counts = new Map<string, number>();
    for (const pp of this.phrasePositions) for (const term of pp.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const repeatsTerm = (pp: PhrasePositions): boolean => pp.terms.some((term) => counts.get(term)! > 1);
    const repeating = this.phrasePositions.filter(repeatsTerm);
    this.hasRepeats = repeating.length > 0;
    if (this.hasRepeats) {
      this.repeatStack = new Array<PhrasePositions>(this.phrasePositions.length);
      this.hasMultiTermRepeats = repeating.some((pp) => pp.terms.length > 1);
      const groups = this.hasMultiTermRepeats ? multiTermGroups(repeating, counts) : this.singleTermGroups(repeating);
      this.repeatGroups = groups.map((group) => {
        const sorted = [...group].sort((a, b) => a.offset - b.offset);
        sorted.forEach((pp, index) => (pp.rptInd = index));
        return sorted;
      });
      if (!this.advanceRepeatGroups()) return false;
    }
    this.fillQueue();
    return true;
  }
}

/**
 * Multi-term positions: the repeated terms are grouped when some position holds both (union of the
 * positions' term sets, transitively), and each position joins the group of its repeated terms.
 */
function multiTermGroups(repeating: readonly PhrasePositions[], counts: ReadonlyMap<string, number>): PhrasePositions[][] {
  const parent = new Map<string, string>();
  const find = (term: string): string => {
    let root = term;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(term, root);
    return root;
  };
  for (const pp of repeating) {
    const repeated = pp.terms.filter((term) => counts.get(term)! > 1);
    for (const term of repeated) if (!parent.has(term)) parent.set(term, term);
    for (let i = 1; i < repeated.length; i++) parent.set(find(repeated[i]!), find(repeated[0]!));
  }
  const groupOf = new Map<string, number>();
  const groups: PhrasePositions[][] = [];
  for (const pp of repeating) {
    const root = find(pp.terms.find((term) => counts.get(term)! > 1)!);
    let group = groupOf.get(root);
    if (group === undefined) {
      group = groups.length;
      groupOf.set(root, group);
      groups.push([]);
    }
    pp.rptGroup = group;
    groups[group]!.push(pp);
  }
  return groups;
}

function lesser(pp: PhrasePositions, pp2: PhrasePositions): PhrasePositions {
  return pp.position < pp2.position || (pp.position === pp2.position && pp.offset < pp2.offset) ? pp : pp2;
}
