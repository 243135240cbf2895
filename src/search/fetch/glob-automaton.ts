/**
 * Regex.simpleMatchToAutomaton run one character at a time, as ES's unmapped-field fetcher walks the source
 * (CharacterRunAutomaton.step): a state says which positions of which `*` patterns the input so far can
 * stand at, so a dead state (null) means no key below this path can match and the walk can stop.
 */
export type GlobState = readonly (readonly number[])[] | null;

export class GlobAutomaton {
  constructor(private readonly patterns: readonly string[]) {}

  /** The state before any input: every pattern at its start (with leading `*`s skippable). */
  start(): GlobState {
    return this.patterns.map((pattern) => closure(pattern, [0]));
  }

  /** Feeds `text` character by character; null once no pattern can match any more. */
  step(state: GlobState, text: string): GlobState {
    let current = state;
    for (let i = 0; current !== null && i < text.length; i++) current = this.stepChar(current, text[i]!);
    return current;
  }

  isAccept(state: GlobState): boolean {
    if (state === null) return false;
    return state.some((positions, index) => positions.includes(this.patterns[index]!.length));
  }

  private stepChar(state: readonly (readonly number[])[], char: string): GlobState {
    let alive = false;
    const next = state.map((positions, index) => {
      const pattern = this.patterns[index]!;
      const reached: number[] = [];
      for (const position of positions) {
        if (position >= pattern.length) continue;
        if (pattern[position] === '*') reached.push(position);
        else if (pattern[position] === char) reached.push(position + 1);
      }
      const closed = closure(pattern, reached);
      if (closed.length > 0) alive = true;
      return closed;
    });
    return alive ? next : null;
  }
}

/** Adds the positions reachable by letting a `*` match nothing. */
function closure(pattern: string, positions: readonly number[]): number[] {
  const out = new Set<number>();
  for (let position of positions) {
    out.add(position);
    while (position < pattern.length && pattern[position] === '*') out.add(++position);
  }
  return [...out].sort((a, b) => a - b);
}
