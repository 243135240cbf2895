/**
 * A tiny regular-expression-to-DFA compiler over character classes, with JFlex's matching rule: the
 * longest match wins, and among equally long matches the rule listed first. The standard tokenizer's
 * grammar is written with it (standard-grammar.ts) so the scanner is built from Lucene's own rules rather
 * than hand-translated into branching code, where one misread rule would silently change tokens.
 *
 * The alphabet is the set of character-class ids (a few dozen); a regex leaf is a set of class ids.
 */

export type Regex =
  | { readonly kind: 'set'; readonly classes: readonly number[] }
  | { readonly kind: 'seq'; readonly parts: readonly Regex[] }
  | { readonly kind: 'alt'; readonly options: readonly Regex[] }
  | { readonly kind: 'star'; readonly inner: Regex };

export const set = (classes: readonly number[]): Regex => ({ kind: 'set', classes });
export const seq = (...parts: Regex[]): Regex => ({ kind: 'seq', parts });
export const alt = (...options: Regex[]): Regex => ({ kind: 'alt', options });
export const star = (inner: Regex): Regex => ({ kind: 'star', inner });
export const plus = (inner: Regex): Regex => seq(inner, star(inner));
export const opt = (inner: Regex): Regex => alt(inner, seq());

/** A compiled scanner: state 0 is the start; a transition to -1 means no match can continue. */
export interface Dfa {
  readonly numClasses: number;
  /** transitions[state * numClasses + class] = next state or -1. */
  readonly transitions: Int32Array;
  /** accepting rule index of each state, or -1. */
  readonly accept: Int32Array;
  /**
   * 1 for a state with no way out. JFlex's scanner stops on such a state without looking at the next
   * character (its NOLOOK attribute), and Lucene's input buffering makes that observable, so we keep it.
   */
  readonly terminal: Uint8Array;
}

interface NfaState {
  readonly epsilon: number[];
  readonly edges: { classes: readonly number[]; to: number }[];
  rule: number;
}

/** Thompson construction of every rule into one NFA, then subset construction into a DFA. */
export function compileRules(rules: readonly Regex[], numClasses: number): Dfa {
  const nfa: NfaState[] = [];
  const newState = (): number => nfa.push({ epsilon: [], edges: [], rule: -1 }) - 1;

  // Returns the end state of the fragment built from `from`.
  const build = (re: Regex, from: number): number => {
    switch (re.kind) {
      case 'set': {
        const to = newState();
        nfa[from]!.edges.push({ classes: re.classes, to });
        return to;
      }
      case 'seq': {
        let at = from;
        for (const part of re.parts) at = build(part, at);
        return at;
      }
      case 'alt': {
        const end = newState();
        for (const option of re.options) {
          const start = newState();
          nfa[from]!.epsilon.push(start);
          nfa[build(option, start)]!.epsilon.push(end);
        }
        return end;
      }
      case 'star': {
        const loop = newState();
        nfa[from]!.epsilon.push(loop);
        const innerStart = newState();
        nfa[loop]!.epsilon.push(innerStart);
        nfa[build(re.inner, innerStart)]!.epsilon.push(loop);
        return loop;
      }
    }
  };

  const nfaStart = newState();
  rules.forEach((rule, index) => {
    const ruleStart = newState();
    nfa[nfaStart]!.epsilon.push(ruleStart);
    nfa[build(rule, ruleStart)]!.rule = index;
  });

  const closure = (states: Iterable<number>): number[] => {
    const seen = new Set<number>();
    const stack = [...states];
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (seen.has(s)) continue;
      seen.add(s);
      for (const next of nfa[s]!.epsilon) stack.push(next);
    }
    return [...seen].sort((a, b) => a - b);
  };

  const dfaStates: number[][] = [];
  const index = new Map<string, number>();
  const transitions: number[] = [];
  const accept: number[] = [];
  const add = (subset: number[]): number => {
    const key = subset.join(',');
    let id = index.get(key);
    if (id === undefined) {
      id = dfaStates.push(subset) - 1;
      index.set(key, id);
      let rule = -1;
      for (const s of subset) {
        const r = nfa[s]!.rule;
        if (r >= 0 && (rule < 0 || r < rule)) rule = r;
      }
      accept[id] = rule;
    }
    return id;
  };

  add(closure([nfaStart]));
  for (let d = 0; d < dfaStates.length; d++) {
    const targets: Set<number>[] = Array.from({ length: numClasses }, () => new Set<number>());
    for (const s of dfaStates[d]!) {
      for (const edge of nfa[s]!.edges) {
        for (const c of edge.classes) targets[c]!.add(edge.to);
      }
    }
    for (let c = 0; c < numClasses; c++) {
      transitions[d * numClasses + c] = targets[c]!.size === 0 ? -1 : add(closure(targets[c]!));
    }
  }
  const terminal = new Uint8Array(dfaStates.length);
  for (let d = 0; d < dfaStates.length; d++) {
    let exits = false;
    for (let c = 0; c < numClasses && !exits; c++) exits = transitions[d * numClasses + c]! >= 0;
    terminal[d] = exits ? 0 : 1;
  }
  return { numClasses, transitions: Int32Array.from(transitions), accept: Int32Array.from(accept), terminal };
}
