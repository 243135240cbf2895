/**
 * A Lucene regular expression as a DFA over code points, built the way Lucene's RegExp.toAutomaton and
 * Operations.determinize build it, with their work limit: the powerset construction adds the size of every
 * state set it expands to its effort, and once that reaches ten times `max_determinized_states` (Lucene 9's
 * LUCENE-9981 conversion from a state limit to an effort limit) it gives up with Lucene's
 * TooComplexToDeterminizeException message. A regexp that would need 2^31 states (`.*a.{30}`) or an
 * explosion of repeats (`[a-z]{1,50}{1,50}`) is refused in milliseconds instead of matched for minutes.
 *
 * The NFA is Thompson's (epsilon moves, a fragment per tree node), made epsilon-free before the powerset
 * construction as Lucene's automata are; complement and intersection determinize their operands first, as
 * Lucene does. The limit falls where Lucene's does for ordinary expressions; the exact boundary can differ by
 * construction details (Lucene 9 also minimizes sub-expressions).
 *
 * The DFA matches a term in one pass, and when a term dies at its k-th code point every term sharing those k
 * code points dies too: `deadPrefixBytes` lets the term walk seek past them (as AutomatonTermsEnum skips).
 */
import { EsError } from '../../../common/errors.js';
import type { RegexpNode } from './lucene-regexp.js';

export const MAX_CODE_POINT = 0x10ffff;
/** Lucene's Operations.DEFAULT_DETERMINIZE_WORK_LIMIT, ES's `max_determinized_states` default. */
export const DEFAULT_DETERMINIZE_WORK_LIMIT = 10_000;

/** Lucene's TooComplexToDeterminizeException, worded as RegExp rethrows it (naming the expression). */
export function tooComplexToDeterminize(pattern: string, workLimit: number): EsError {
  return new EsError('too_complex_to_determinize_exception', `Determinizing ${pattern} would require more than ${workLimit} effort.`);
}

class TooComplex extends Error {}

/** An epsilon-NFA under construction: per state, character ranges to targets and epsilon targets. */
class Nfa {
  readonly ranges: number[][] = []; // per state: [min, max, to, min, max, to, ...]
  readonly epsilons: number[][] = [];
  readonly accept: boolean[] = [];

  constructor(private readonly maxStates: number) {}

  state(): number {
    if (this.ranges.length >= this.maxStates) throw new TooComplex();
    this.ranges.push([]);
    this.epsilons.push([]);
    this.accept.push(false);
    return this.ranges.length - 1;
  }

  range(from: number, min: number, max: number, to: number): void {
    this.ranges[from]!.push(min, max, to);
  }

  epsilon(from: number, to: number): void {
    this.epsilons[from]!.push(to);
  }
}

interface Fragment {
  readonly start: number;
  readonly end: number;
}

/** A deterministic automaton: per state, sorted disjoint ranges and their targets; -1 is the dead state. */
export class Dfa {
  constructor(
    readonly mins: readonly (readonly number[])[],
    readonly maxs: readonly (readonly number[])[],
    readonly targets: readonly (readonly number[])[],
    readonly accept: Uint8Array,
  ) {}

  get size(): number {
    return this.accept.length;
  }

  step(state: number, codePoint: number): number {
    const mins = this.mins[state]!;
    let low = 0;
    let high = mins.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if (mins[mid]! > codePoint) high = mid - 1;
      else if (this.maxs[state]![mid]! < codePoint) low = mid + 1;
      else return this.targets[state]![mid]!;
    }
    return -1;
  }

  /**
   * Runs the automaton over a term's UTF-8 bytes: 1 when it accepts, 0 when it ends in a live state that does
   * not accept, or -(n + 1) when it died after reading the first n bytes' code point (every term starting with
   * those n bytes is rejected too).
   */
  run(term: Uint8Array): number {
    let state = 0;
    let i = 0;
    while (i < term.length) {
      const b0 = term[i]!;
      let codePoint: number;
      let width: number;
      if (b0 < 0x80) {
        codePoint = b0;
        width = 1;
      } else if (b0 < 0xe0) {
        codePoint = ((b0 & 0x1f) << 6) | (term[i + 1]! & 0x3f);
        width = 2;
      } else if (b0 < 0xf0) {
        codePoint = ((b0 & 0x0f) << 12) | ((term[i + 1]! & 0x3f) << 6) | (term[i + 2]! & 0x3f);
        width = 3;
      } else {
        codePoint = ((b0 & 0x07) << 18) | ((term[i + 1]! & 0x3f) << 12) | ((term[i + 2]! & 0x3f) << 6) | (term[i + 3]! & 0x3f);
        width = 4;
      }
      i += width;
      state = this.step(state, codePoint);
      if (state < 0) return -(i + 1);
    }
    return this.accept[state] === 1 ? 1 : 0;
  }
}

/** The smallest byte string after every string that starts with `prefix` (null when there is none). */
export function prefixSuccessor(prefix: Uint8Array): Buffer | null {
  const out = Buffer.from(prefix);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) {
      out[i]!++;
      return out.subarray(0, i + 1);
    }
  }
  return null;
}

/** Lucene's ASCII_CASE_INSENSITIVE: an ASCII letter also matches its other case. */
function otherCase(code: number): number | undefined {
  if (code >= 0x61 && code <= 0x7a) return code - 32;
  if (code >= 0x41 && code <= 0x5a) return code + 32;
  return undefined;
}

interface Limits {
  readonly effortLimit: number;
}

class Builder {
  constructor(
    private readonly nfa: Nfa,
    private readonly caseInsensitive: boolean,
    private readonly limits: Limits,
  ) {}

  private char(from: number, code: number, to: number): void {
    this.nfa.range(from, code, code, to);
    if (this.caseInsensitive) {
      const other = otherCase(code);
      if (other !== undefined) this.nfa.range(from, other, other, to);
    }
  }

  /** A generator: it pauses between the copies of a repetition, so a caller on the event loop can let others run. */
  *build(node: RegexpNode): Generator<void, Fragment> {
    const nfa = this.nfa;
    switch (node.kind) {
      case 'string': {
        const start = nfa.state();
        let current = start;
        for (const code of node.codePoints) {
          const next = nfa.state();
          this.char(current, code, next);
          current = next;
        }
        return { start, end: current };
      }
      case 'range': {
        const start = nfa.state();
        const end = nfa.state();
        // Lucene folds single characters, not ranges (makeCharRange ignores ASCII_CASE_INSENSITIVE).
        nfa.range(start, node.from, node.to, end);
        return { start, end };
      }
      case 'anychar': {
        const start = nfa.state();
        const end = nfa.state();
        nfa.range(start, 0, MAX_CODE_POINT, end);
        return { start, end };
      }
      case 'anystring': {
        const start = nfa.state();
        nfa.range(start, 0, MAX_CODE_POINT, start);
        return { start, end: start };
      }
      case 'empty':
        return { start: nfa.state(), end: nfa.state() };
      case 'union': {
        const start = nfa.state();
        const end = nfa.state();
        for (const part of [node.left, node.right]) {
          const fragment = yield* this.build(part);
          nfa.epsilon(start, fragment.start);
          nfa.epsilon(fragment.end, end);
        }
        return { start, end };
      }
      case 'concat': {
        const left = yield* this.build(node.left);
        const right = yield* this.build(node.right);
        nfa.epsilon(left.end, right.start);
        return { start: left.start, end: right.end };
      }
      case 'optional': {
        const inner = yield* this.build(node.inner);
        const start = nfa.state();
        const end = nfa.state();
        nfa.epsilon(start, inner.start);
        nfa.epsilon(start, end);
        nfa.epsilon(inner.end, end);
        return { start, end };
      }
      case 'star':
        return yield* this.star(node.inner);
      case 'repeat':
        return yield* this.repeat(node.inner, node.min, node.max);
      case 'interval':
        return this.interval(node.min, node.max, node.digits);
      case 'complement':
        return this.embed(complement(this.subDfa(node.inner)));
      case 'intersection':
        return this.embed(intersection(this.subDfa(node.left), this.subDfa(node.right)));
    }
  }

  private *star(inner: RegexpNode): Generator<void, Fragment> {
    const fragment = yield* this.build(inner);
    const start = this.nfa.state();
    const end = this.nfa.state();
    this.nfa.epsilon(start, fragment.start);
    this.nfa.epsilon(start, end);
    this.nfa.epsilon(fragment.end, fragment.start);
    this.nfa.epsilon(fragment.end, end);
    return { start, end };
  }

  /** Operations.repeat: `min` copies, then `max - min` optional ones (or a star when unbounded). */
  private *repeat(inner: RegexpNode, min: number, max: number): Generator<void, Fragment> {
    const nfa = this.nfa;
    if (max !== -1 && min > max) return { start: nfa.state(), end: nfa.state() };
    const start = nfa.state();
    let end = start;
    for (let i = 0; i < min; i++) {
      yield;
      const copy = yield* this.build(inner);
      nfa.epsilon(end, copy.start);
      end = copy.end;
    }
    if (max === -1) {
      const tail = yield* this.star(inner);
      nfa.epsilon(end, tail.start);
      return { start, end: tail.end };
    }
    const final = nfa.state();
    nfa.epsilon(end, final);
    for (let i = min; i < max; i++) {
      yield;
      const copy = yield* this.build(inner);
      nfa.epsilon(end, copy.start);
      nfa.epsilon(copy.end, final);
      end = copy.end;
    }
    return { start, end: final };
  }

  /**
   * Automata.makeDecimalInterval: decimal numbers in [min, max]; with `digits` > 0 exactly that many digits
   * (zero-padded), otherwise any number of leading zeros.
   */
  private interval(min: number, max: number, digits: number): Fragment {
    const nfa = this.nfa;
    const start = nfa.state();
    const end = nfa.state();
    if (digits > 0) {
      this.paddedRange(start, end, min, max, digits);
      return { start, end };
    }
    // Leading zeros, then the number without them ("0" for zero).
    const afterZeros = nfa.state();
    nfa.epsilon(start, afterZeros);
    nfa.range(afterZeros, 0x30, 0x30, afterZeros);
    if (min === 0) nfa.range(start, 0x30, 0x30, end);
    const lowest = Math.max(min, 1);
    for (let length = String(lowest).length; length <= String(max).length; length++) {
      const low = Math.max(lowest, length === 1 ? 1 : 10 ** (length - 1));
      const high = Math.min(max, 10 ** length - 1);
      if (low <= high) this.paddedRange(afterZeros, end, low, high, length);
    }
    return { start, end };
  }

  /** Strings of exactly `length` digits whose value is in [low, high] (both fit in `length` digits). */
  private paddedRange(from: number, to: number, low: number, high: number, length: number): void {
    const nfa = this.nfa;
    const lowText = String(low).padStart(length, '0');
    const highText = String(high).padStart(length, '0');
    // States per position: still equal to low's prefix, to high's prefix, to both, or strictly between.
    const states = new Map<string, number>();
    const stateFor = (position: number, tightLow: boolean, tightHigh: boolean): number => {
      if (position === length) return to;
      const key = `${position}:${tightLow ? 1 : 0}${tightHigh ? 1 : 0}`;
      let state = states.get(key);
      if (state === undefined) {
        state = nfa.state();
        states.set(key, state);
        const lowDigit = tightLow ? lowText.charCodeAt(position) - 48 : 0;
        const highDigit = tightHigh ? highText.charCodeAt(position) - 48 : 9;
        for (let digit = lowDigit; digit <= highDigit; digit++) {
          nfa.range(state, 48 + digit, 48 + digit, stateFor(position + 1, tightLow && digit === lowDigit, tightHigh && digit === highDigit));
        }
      }
      return state;
    };
    nfa.epsilon(from, stateFor(0, true, true));
  }

  /** A sub-expression determinized on its own (what complement and intersection work on). */
  private subDfa(node: RegexpNode): Dfa {
    const nfa = new Nfa(this.limits.effortLimit);
    const fragment = drain(new Builder(nfa, this.caseInsensitive, this.limits).build(node));
    nfa.accept[fragment.end] = true;
    return determinizeNfa(nfa, fragment.start, this.limits.effortLimit);
  }

  /** Copies a DFA into the NFA as a fragment (its accepting states lead to the fragment's end). */
  private embed(dfa: Dfa): Fragment {
    const nfa = this.nfa;
    const base: number[] = [];
    for (let i = 0; i < dfa.size; i++) base.push(nfa.state());
    const end = nfa.state();
    for (let i = 0; i < dfa.size; i++) {
      const mins = dfa.mins[i]!;
      for (let k = 0; k < mins.length; k++) nfa.range(base[i]!, mins[k]!, dfa.maxs[i]![k]!, base[dfa.targets[i]![k]!]!);
      if (dfa.accept[i] === 1) nfa.epsilon(base[i]!, end);
    }
    return { start: base[0]!, end };
  }
}

/** Runs a sliced step generator to its end at once (the synchronous paths). */
function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The NFA without epsilon moves, as Lucene's automata are: a state consuming characters (or the start) takes
 * the character moves and the acceptance of every state its epsilon moves reach. Only those states remain,
 * renumbered (the start is 0). Closures are costly for pathological nestings, so their total size is bounded.
 */
function* epsilonFree(nfa: Nfa, start: number, effortLimit: number): Generator<void, { moves: number[][]; accept: boolean[] }> {
  const closures = new Map<number, number[]>();
  let closureWork = 0;
  const mark = new Int32Array(nfa.ranges.length);
  let stamp = 0;
  const closureOf = (state: number): number[] => {
    let known = closures.get(state);
    if (known !== undefined) return known;
    known = [];
    stamp++;
    const stack = [state];
    mark[state] = stamp;
    while (stack.length > 0) {
      const next = stack.pop()!;
      known.push(next);
      for (const target of nfa.epsilons[next]!) {
        if (mark[target] !== stamp) {
          mark[target] = stamp;
          stack.push(target);
        }
      }
    }
    closureWork += known.length;
    if (closureWork > effortLimit * 10) throw new TooComplex();
    closures.set(state, known);
    return known;
  };
  const ids = new Map<number, number>([[start, 0]]);
  const order = [start];
  const moves: number[][] = [];
  const accept: boolean[] = [];
  let workAtPause = 0;
  for (let i = 0; i < order.length; i++) {
    // Closures of a pathological nesting cost up to ten times the effort limit: they pause as determinization does.
    if (closureWork - workAtPause >= EFFORT_PER_STEP) {
      workAtPause = closureWork;
      yield;
    }
    const out: number[] = [];
    let accepting = false;
    for (const member of closureOf(order[i]!)) {
      if (nfa.accept[member]) accepting = true;
      const ranges = nfa.ranges[member]!;
      for (let k = 0; k < ranges.length; k += 3) {
        const target = ranges[k + 2]!;
        let id = ids.get(target);
        if (id === undefined) {
          id = order.length;
          ids.set(target, id);
          order.push(target);
        }
        out.push(ranges[k]!, ranges[k + 1]!, id);
      }
    }
    moves.push(out);
    accept.push(accepting);
  }
  return { moves, accept };
}

/** Sorts small arrays of integers in place (no comparator call per step). */
function sortNumbers(values: number[]): void {
  if (values.length > 64) {
    const sorted = Int32Array.from(values).sort();
    for (let i = 0; i < values.length; i++) values[i] = sorted[i]!;
    return;
  }
  for (let i = 1; i < values.length; i++) {
    const value = values[i]!;
    let j = i - 1;
    while (j >= 0 && values[j]! > value) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = value;
  }
}

/**
 * Effort (NFA states of expanded sets) between two offers to pause of a sliced determinization. The caller's
 * pause only yields once its time slice is spent, so small steps cost a check, not a turn of the loop.
 */
const EFFORT_PER_STEP = 256;
/** States of the epsilon-free NFA the determinization's setup walks between two offers to pause. */
const SETUP_STATES_PER_STEP = 512;

/**
 * Operations.determinize: the powerset construction over the epsilon-free NFA, adding each expanded set's size
 * to the effort and failing once the effort reaches the limit (before the set is expanded, as Lucene). The code
 * point space is cut once into the classes no range of the NFA splits, so a set's moves are gathered per class.
 * A generator: it pauses every few hundred states, so a caller on the event loop can let others run.
 */
function* determinizeSteps(nfa: Nfa, start: number, effortLimit: number): Generator<void, Dfa> {
  const { moves, accept: nfaAccept } = yield* epsilonFree(nfa, start, effortLimit);
  const boundSet = new Set<number>();
  for (let state = 0; state < moves.length; state++) {
    // The setup walks every state of the epsilon-free NFA (up to the effort limit): it pauses too.
    if (state % SETUP_STATES_PER_STEP === SETUP_STATES_PER_STEP - 1) yield;
    const ranges = moves[state]!;
    for (let k = 0; k < ranges.length; k += 3) boundSet.add(ranges[k]!).add(ranges[k + 1]! + 1);
  }
  const bounds = Int32Array.from(boundSet).sort();
  const classOf = (point: number): number => {
    let low = 0;
    let high = bounds.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (bounds[mid]! <= point) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  // Per state: [first class, last class, target] triples.
  const spans: number[][] = [];
  for (let state = 0; state < moves.length; state++) {
    if (state % SETUP_STATES_PER_STEP === SETUP_STATES_PER_STEP - 1) yield;
    const ranges = moves[state]!;
    const out: number[] = [];
    for (let k = 0; k < ranges.length; k += 3) out.push(classOf(ranges[k]!), classOf(ranges[k + 1]! + 1) - 1, ranges[k + 2]!);
    spans.push(out);
  }
  const buckets: number[][] = Array.from({ length: bounds.length }, () => []);
  const bucketStamp = new Int32Array(bounds.length);
  const ids = new Map<string, number>([['0', 0]]);
  const sets: number[][] = [[0]];
  const mins: number[][] = [];
  const maxs: number[][] = [];
  const targets: number[][] = [];
  const accept: number[] = [];
  let effort = 0;
  let effortAtPause = 0;
  for (let current = 0; current < sets.length; current++) {
    // A pause every few thousand units of effort: large state sets cost in proportion to their size.
    if (effort - effortAtPause >= EFFORT_PER_STEP) {
      effortAtPause = effort;
      yield;
    }
    const set = sets[current]!;
    effort += set.length;
    if (effort >= effortLimit) throw new TooComplex();
    let isAccepting = false;
    const touched: number[] = [];
    for (const state of set) {
      if (nfaAccept[state]) isAccepting = true;
      const stateSpans = spans[state]!;
      for (let k = 0; k < stateSpans.length; k += 3) {
        const target = stateSpans[k + 2]!;
        for (let c = stateSpans[k]!; c <= stateSpans[k + 1]!; c++) {
          if (bucketStamp[c] !== current + 1) {
            bucketStamp[c] = current + 1;
            buckets[c]!.length = 0;
            touched.push(c);
          }
          buckets[c]!.push(target);
        }
      }
    }
    accept.push(isAccepting ? 1 : 0);
    sortNumbers(touched);
    const stateMins: number[] = [];
    const stateMaxs: number[] = [];
    const stateTargets: number[] = [];
    for (const c of touched) {
      const reached = buckets[c]!;
      sortNumbers(reached);
      let unique = 0;
      for (let i = 0; i < reached.length; i++) if (i === 0 || reached[i] !== reached[i - 1]) reached[unique++] = reached[i]!;
      reached.length = unique;
      const key = reached.join(',');
      let target = ids.get(key);
      if (target === undefined) {
        target = sets.length;
        ids.set(key, target);
        sets.push(reached.slice());
      }
      const low = bounds[c]!;
      const high = bounds[c + 1]! - 1;
      const last = stateTargets.length - 1;
      // Adjacent classes with the same target become one range.
      if (last >= 0 && stateTargets[last] === target && stateMaxs[last] === low - 1) stateMaxs[last] = high;
      else {
        stateMins.push(low);
        stateMaxs.push(high);
        stateTargets.push(target);
      }
    }
    mins.push(stateMins);
    maxs.push(stateMaxs);
    targets.push(stateTargets);
  }
  return new Dfa(mins, maxs, targets, Uint8Array.from(accept));
}

/** Runs a sliced determinization to its end. */
function determinizeNfa(nfa: Nfa, start: number, effortLimit: number): Dfa {
  return drain(determinizeSteps(nfa, start, effortLimit));
}

/** Every code point leads somewhere: missing ranges go to a new dead state (Operations.totalize). */
function totalize(dfa: Dfa): Dfa {
  const dead = dfa.size;
  const mins: number[][] = [];
  const maxs: number[][] = [];
  const targets: number[][] = [];
  for (let state = 0; state < dfa.size; state++) {
    const m: number[] = [];
    const x: number[] = [];
    const t: number[] = [];
    let next = 0;
    for (let k = 0; k < dfa.mins[state]!.length; k++) {
      const min = dfa.mins[state]![k]!;
      if (min > next) m.push(next), x.push(min - 1), t.push(dead);
      m.push(min), x.push(dfa.maxs[state]![k]!), t.push(dfa.targets[state]![k]!);
      next = dfa.maxs[state]![k]! + 1;
    }
    if (next <= MAX_CODE_POINT) m.push(next), x.push(MAX_CODE_POINT), t.push(dead);
    mins.push(m);
    maxs.push(x);
    targets.push(t);
  }
  mins.push([0]);
  maxs.push([MAX_CODE_POINT]);
  targets.push([dead]);
  const accept = new Uint8Array(dfa.size + 1);
  accept.set(dfa.accept);
  return new Dfa(mins, maxs, targets, accept);
}

function complement(dfa: Dfa): Dfa {
  const total = totalize(dfa);
  const accept = total.accept.map((flag) => (flag === 1 ? 0 : 1));
  return new Dfa(total.mins, total.maxs, total.targets, accept);
}

/** The product automaton of two DFAs (Operations.intersection), reachable pairs only. */
function intersection(left: Dfa, right: Dfa): Dfa {
  const ids = new Map<number, number>();
  const pairs: [number, number][] = [];
  const idOf = (a: number, b: number): number => {
    const key = a * right.size + b;
    let id = ids.get(key);
    if (id === undefined) {
      id = pairs.length;
      ids.set(key, id);
      pairs.push([a, b]);
    }
    return id;
  };
  idOf(0, 0);
  const mins: number[][] = [];
  const maxs: number[][] = [];
  const targets: number[][] = [];
  const accept: number[] = [];
  for (let current = 0; current < pairs.length; current++) {
    const [a, b] = pairs[current]!;
    accept.push(left.accept[a] === 1 && right.accept[b] === 1 ? 1 : 0);
    const m: number[] = [];
    const x: number[] = [];
    const t: number[] = [];
    let i = 0;
    let j = 0;
    const am = left.mins[a]!;
    const ax = left.maxs[a]!;
    const bm = right.mins[b]!;
    const bx = right.maxs[b]!;
    while (i < am.length && j < bm.length) {
      const low = Math.max(am[i]!, bm[j]!);
      const high = Math.min(ax[i]!, bx[j]!);
      if (low <= high) {
        m.push(low);
        x.push(high);
        t.push(idOf(left.targets[a]![i]!, right.targets[b]![j]!));
      }
      if (ax[i]! < bx[j]!) i++;
      else j++;
    }
    mins.push(m);
    maxs.push(x);
    targets.push(t);
  }
  return new Dfa(mins, maxs, targets, Uint8Array.from(accept));
}

/** Compiled expressions (or their refusal) by pattern and options: a repeated request pays once. */
const compiled = new Map<string, Dfa | EsError>();
const COMPILED_CACHE_SIZE = 128;

function cacheKey(pattern: string, flags: number, caseInsensitive: boolean, workLimit: number): string {
  return `${flags}:${caseInsensitive ? 1 : 0}:${workLimit}:${pattern}`;
}

function remember(key: string, outcome: Dfa | EsError): void {
  if (compiled.size >= COMPILED_CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, outcome);
}

function unwrap(outcome: Dfa | EsError): Dfa {
  if (outcome instanceof EsError) throw outcome;
  return outcome;
}

/** The NFA of an expression and then its DFA, as one generator of slices (the NFA of `[a-z]{1,50}{1,50}` alone took ~4 ms). */
function* compileSteps(root: RegexpNode, caseInsensitive: boolean, effortLimit: number): Generator<void, Dfa> {
  const nfa = new Nfa(effortLimit);
  const fragment = yield* new Builder(nfa, caseInsensitive, { effortLimit }).build(root);
  nfa.accept[fragment.end] = true;
  return yield* determinizeSteps(nfa, fragment.start, effortLimit);
}

/** LUCENE-9981: the work limit, once a state count, converts to ten units of effort per state. */
function effortLimitOf(workLimit: number): number {
  return Math.max(1, workLimit * 10);
}

/**
 * The DFA of a parsed expression, or Lucene's TooComplexToDeterminizeException (naming `pattern`) when building
 * it would take more than `workLimit` (ES's `max_determinized_states`). `flags` only keys the cache.
 */
export function compileRegexpDfa(root: RegexpNode, pattern: string, caseInsensitive: boolean, workLimit = DEFAULT_DETERMINIZE_WORK_LIMIT, flags = 0): Dfa {
  const key = cacheKey(pattern, flags, caseInsensitive, workLimit);
  const known = compiled.get(key);
  if (known !== undefined) return unwrap(known);
  let outcome: Dfa | EsError;
  try {
    outcome = drain(compileSteps(root, caseInsensitive, effortLimitOf(workLimit)));
  } catch (err) {
    if (!(err instanceof TooComplex)) throw err;
    outcome = tooComplexToDeterminize(pattern, workLimit);
  }
  remember(key, outcome);
  return unwrap(outcome);
}

/**
 * compileRegexpDfa in slices: `pause` runs between slices of the powerset construction (a search phase's
 * checkpoint, which yields the event loop and checks cancellation). The outcome, refusal included, is cached,
 * so the query built afterwards finds it at once. Resolves either way: the refusal is thrown where the query is
 * built, where ES reports it.
 */
export async function precompileRegexpDfa(
  root: RegexpNode,
  pattern: string,
  caseInsensitive: boolean,
  workLimit: number,
  flags: number,
  pause: () => Promise<void>,
): Promise<void> {
  const key = cacheKey(pattern, flags, caseInsensitive, workLimit);
  if (compiled.has(key)) return;
  let outcome: Dfa | EsError;
  try {
    const steps = compileSteps(root, caseInsensitive, effortLimitOf(workLimit));
    for (;;) {
      const step = steps.next();
      if (step.done === true) {
        outcome = step.value;
        break;
      }
      await pause();
    }
  } catch (err) {
    if (!(err instanceof TooComplex)) throw err;
    outcome = tooComplexToDeterminize(pattern, workLimit);
  }
  remember(key, outcome);
}
