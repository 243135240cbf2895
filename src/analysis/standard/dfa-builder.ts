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

  // Epsilon closure of each NFA state, computed once; a subset's closure is the union of its members'.
  const closureOf: number[][] = nfa.map((_, start) => {
    const seen = new Set<number>([start]);
    const stack = [start];
    while (stack.length > 0) {
      for (const next of nfa[stack.pop()!]!.epsilon) {
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    // Only states that consume input or accept matter for identity: keeping just those makes equal
    // subsets compare equal and keeps the keys short.
    return [...seen].filter((t) => nfa[t]!.edges.length > 0 || nfa[t]!.rule >= 0);
  });
  const stamp = new Int32Array(nfa.length);
  let generation = 0;
  const closure = (states: readonly number[]): number[] => {
    generation++;
    const out: number[] = [];
    for (const s of states) {
      for (const t of closureOf[s]!) {
        if (stamp[t] !== generation) {
          stamp[t] = generation;
          out.push(t);
        }
      }
    }
    return out.sort((x, y) => x - y);
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
    const targets: number[][] = Array.from({ length: numClasses }, () => []);
    for (const s of dfaStates[d]!) {
      for (const edge of nfa[s]!.edges) {
        for (const c of edge.classes) targets[c]!.push(edge.to);
      }
    }
    for (let c = 0; c < numClasses; c++) {
      transitions[d * numClasses + c] = targets[c]!.length === 0 ? -1 : add(closure(targets[c]!));
    }
  }
  return minimize(numClasses, transitions, accept);
}

/**
 * Moore's partition refinement: merges states that accept the same rule and move to equivalent states on
 * every class. Subset construction leaves many duplicates; a smaller table keeps the scanner's hot loop in
 * cache. State 0 stays the start state.
 */
function minimize(numClasses: number, transitions: readonly number[], accept: readonly number[]): Dfa {
  const count = accept.length;
  let block = accept.map((rule) => rule + 1);
  let blockCount = 0;
  while (true) {
    const signatures = new Map<string, number>();
    const next: number[] = new Array(count);
    for (let s = 0; s < count; s++) {
      let signature = String(block[s]);
      for (let c = 0; c < numClasses; c++) {
        const target = transitions[s * numClasses + c]!;
        signature += ',' + (target < 0 ? -1 : block[target]);
      }
      let id = signatures.get(signature);
      if (id === undefined) {
        id = signatures.size;
        signatures.set(signature, id);
      }
      next[s] = id;
    }
    block = next;
    if (signatures.size === blockCount) break;
    blockCount = signatures.size;
  }
  // Renumber so the start state's block is 0.
  const order = new Map<number, number>([[block[0]!, 0]]);
  for (let s = 0; s < count; s++) if (!order.has(block[s]!)) order.set(block[s]!, order.size);
  const size = order.size;
  const minimized = new Int32Array(size * numClasses).fill(-1);
  const minimizedAccept = new Int32Array(size);
  for (let s = 0; s < count; s++) {
    const b = order.get(block[s]!)!;
    minimizedAccept[b] = accept[s]!;
    for (let c = 0; c < numClasses; c++) {
      const target = transitions[s * numClasses + c]!;
      minimized[b * numClasses + c] = target < 0 ? -1 : order.get(block[target]!)!;
    }
  }
  const terminal = new Uint8Array(size);
  for (let b = 0; b < size; b++) {
    let exits = false;
    for (let c = 0; c < numClasses && !exits; c++) exits = minimized[b * numClasses + c]! >= 0;
    terminal[b] = exits ? 0 : 1;
  }
  return { numClasses, transitions: minimized, accept: minimizedAccept, terminal };
}
