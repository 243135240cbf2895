/**
 * The scanner of Lucene's SimpleQueryParser, as a list of events per (sub)query: operators (`+` AND, `|`
 * OR), branches (terms, prefixes, fuzzy terms, phrases, groups) with the count of `-` right before them,
 * and resets (an empty `""` or `()` cancels the pending operator). Whether an operator applies depends on
 * whether a non-empty branch came before it, which only analysis can tell, so the builder replays the
 * events (SimpleQueryParser.buildQueryTree). Every operator can be switched off by a flag; the grammar
 * never fails.
 */

export const SQS = {
  AND: 1 << 0,
  NOT: 1 << 1,
  OR: 1 << 2,
  PREFIX: 1 << 3,
  PHRASE: 1 << 4,
  PRECEDENCE: 1 << 5,
  ESCAPE: 1 << 6,
  WHITESPACE: 1 << 7,
  FUZZY: 1 << 8,
  NEAR: 1 << 9,
} as const;

export type SqsBranch =
  | { readonly kind: 'term'; readonly text: string }
  | { readonly kind: 'prefix'; readonly text: string }
  | { readonly kind: 'fuzzy'; readonly text: string; readonly edits: number }
  | { readonly kind: 'phrase'; readonly text: string; readonly slop: number }
  | { readonly kind: 'group'; readonly node: SqsNode };

export type SqsEvent =
  | { readonly kind: 'operator'; readonly occur: 'must' | 'should' }
  | { readonly kind: 'reset' }
  | { readonly kind: 'branch'; readonly branch: SqsBranch; readonly negations: number };

export interface SqsNode {
  readonly events: readonly SqsEvent[];
}

/** LevenshteinAutomata.MAXIMUM_SUPPORTED_DISTANCE. */
const MAX_EDITS = 2;

class State {
  index: number;
  not = 0;
  readonly events: SqsEvent[] = [];

  constructor(
    readonly data: string,
    start: number,
    readonly length: number,
  ) {
    this.index = start;
  }
}

/** Characters scanned between two offers to pause (the caller's pause yields only once its slice is spent). */
const CHARACTERS_PER_STEP = 4096;

/**
 * The scan as a generator that offers to pause every few thousand characters: a query of 50,000 terms took
 * ~35 ms of CPU to scan in one piece, on top of building it (which pauses on its own).
 */
export function* parseSimpleQueryStringSteps(text: string, flags: number): Generator<void, SqsNode> {
  const state = new State(text, 0, text.length);
  yield* parseSubQuery(state, flags);
  return { events: state.events };
}

function has(flags: number, flag: number): boolean {
  return (flags & flag) !== 0;
}

function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function* parseSubQuery(state: State, flags: number): Generator<void, void> {
  let pausedAt = state.index;
  while (state.index < state.length) {
    if (state.index - pausedAt >= CHARACTERS_PER_STEP) {
      pausedAt = state.index;
      yield;
    }
    const c = state.data[state.index]!;
    if (c === '(' && has(flags, SQS.PRECEDENCE)) {
      yield* consumeSubQuery(state, flags);
    } else if (c === ')' && has(flags, SQS.PRECEDENCE)) {
      // An extraneous closing parenthesis is ignored.
      state.index++;
    } else if (c === '"' && has(flags, SQS.PHRASE)) {
      consumePhrase(state, flags);
    } else if (c === '+' && has(flags, SQS.AND)) {
      state.events.push({ kind: 'operator', occur: 'must' });
      state.index++;
    } else if (c === '|' && has(flags, SQS.OR)) {
      state.events.push({ kind: 'operator', occur: 'should' });
      state.index++;
    } else if (c === '-' && has(flags, SQS.NOT)) {
      // Two negations in a row cancel out; the count is kept until the next branch.
      state.not++;
      state.index++;
      continue;
    } else if (isWhitespace(c) && has(flags, SQS.WHITESPACE)) {
      state.index++;
    } else {
      consumeToken(state, flags);
    }
    // Even whitespace between `-` and a term cancels the negation.
    state.not = 0;
  }
}

function pushBranch(state: State, branch: SqsBranch): void {
  state.events.push({ kind: 'branch', branch, negations: state.not });
}

function* consumeSubQuery(state: State, flags: number): Generator<void, void> {
  const start = ++state.index;
  let precedence = 1;
  let escaped = false;
  while (state.index < state.length) {
    if (!escaped) {
      const c = state.data[state.index];
      if (c === '\\' && has(flags, SQS.ESCAPE)) {
        escaped = true;
        state.index++;
        continue;
      } else if (c === '(') {
        precedence++;
      } else if (c === ')') {
        precedence--;
        if (precedence === 0) break;
      }
    }
    escaped = false;
    state.index++;
  }
  if (state.index === state.length) {
    // No closing parenthesis: the opening one is ignored.
    state.index = start;
  } else if (state.index === start) {
    // "()": the pending operator was meant for this empty group.
    state.events.push({ kind: 'reset' });
    state.index++;
  } else {
    const sub = new State(state.data, start, state.index);
    yield* parseSubQuery(sub, flags);
    pushBranch(state, { kind: 'group', node: { events: sub.events } });
    state.index++;
  }
}

function consumePhrase(state: State, flags: number): void {
  const start = ++state.index;
  let buffer = '';
  let escaped = false;
  let hasSlop = false;
  while (state.index < state.length) {
    if (!escaped) {
      const c = state.data[state.index];
      if (c === '\\' && has(flags, SQS.ESCAPE)) {
        escaped = true;
        state.index++;
        continue;
      } else if (c === '"') {
        if (state.length > state.index + 1 && state.data[state.index + 1] === '~' && has(flags, SQS.NEAR)) {
          state.index++;
          if (state.length > state.index + 1) hasSlop = true;
        }
        break;
      }
    }
    escaped = false;
    buffer += state.data[state.index++];
  }
  if (state.index === state.length) {
    // No closing quote: the opening one is ignored.
    state.index = start;
  } else if (state.index === start) {
    state.events.push({ kind: 'reset' });
    state.index++;
  } else {
    const slop = hasSlop ? parseFuzziness(state, flags) : 0;
    pushBranch(state, { kind: 'phrase', text: buffer, slop });
    state.index++;
  }
}

function consumeToken(state: State, flags: number): void {
  let buffer = '';
  let escaped = false;
  let prefix = false;
  let fuzzy = false;
  while (state.index < state.length) {
    if (!escaped) {
      const c = state.data[state.index]!;
      if (c === '\\' && has(flags, SQS.ESCAPE)) {
        escaped = true;
        prefix = false;
        state.index++;
        continue;
      } else if (tokenFinished(state, flags)) {
        break;
      } else if (buffer.length > 0 && c === '~' && has(flags, SQS.FUZZY)) {
        fuzzy = true;
        break;
      }
      // A trailing unescaped `*` after at least one character makes a prefix.
      prefix = buffer.length > 0 && c === '*' && has(flags, SQS.PREFIX);
    }
    escaped = false;
    buffer += state.data[state.index++];
  }
  if (buffer.length === 0) return;
  if (fuzzy && has(flags, SQS.FUZZY)) {
    const edits = Math.min(parseFuzziness(state, flags), MAX_EDITS);
    pushBranch(state, edits === 0 ? { kind: 'term', text: buffer } : { kind: 'fuzzy', text: buffer, edits });
  } else if (prefix) {
    pushBranch(state, { kind: 'prefix', text: buffer.slice(0, -1) });
  } else {
    pushBranch(state, { kind: 'term', text: buffer });
  }
}

/** The number after `~` (empty means 2; garbage means 0; negative means 0); leaves the index after it. */
function parseFuzziness(state: State, flags: number): number {
  let slop = '';
  if (state.data[state.index] !== '~') return 0;
  while (state.index < state.length) {
    state.index++;
    if (state.index < state.length) {
      if (tokenFinished(state, flags)) break;
      slop += state.data[state.index];
    }
  }
  let fuzziness = 0;
  if (slop === '') fuzziness = 2;
  else if (/^[+-]?\d+$/.test(slop) && Math.abs(Number(slop)) <= 2147483647) fuzziness = Number(slop);
  return Math.max(fuzziness, 0);
}

function tokenFinished(state: State, flags: number): boolean {
  const c = state.data[state.index]!;
  return (
    (c === '"' && has(flags, SQS.PHRASE)) ||
    (c === '|' && has(flags, SQS.OR)) ||
    (c === '+' && has(flags, SQS.AND)) ||
    (c === '(' && has(flags, SQS.PRECEDENCE)) ||
    (c === ')' && has(flags, SQS.PRECEDENCE)) ||
    (isWhitespace(c) && has(flags, SQS.WHITESPACE))
  );
}
