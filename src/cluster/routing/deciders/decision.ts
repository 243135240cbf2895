/**
 * A decider's answer about one shard copy and one node (ES's Decision): YES, THROTTLE (allowed, but not now) or
 * NO, with the decider's name and an explanation in words. The same values drive allocation and are printed by
 * `_cluster/allocation/explain` and `_cluster/reroute?explain`, so what the master does and what it says agree.
 */
export type DecisionType = 'YES' | 'THROTTLE' | 'NO';

export interface Decision {
  readonly decider: string;
  readonly type: DecisionType;
  readonly explanation: string;
}

/** Every decider's answer and their combination: any NO is NO, else any THROTTLE is THROTTLE, else YES. */
export interface Decisions {
  readonly type: DecisionType;
  readonly decisions: readonly Decision[];
}

export function decision(decider: string, type: DecisionType, explanation: string): Decision {
  return { decider, type, explanation };
}

export function combine(decisions: readonly Decision[]): Decisions {
  const type = decisions.some((d) => d.type === 'NO') ? 'NO' : decisions.some((d) => d.type === 'THROTTLE') ? 'THROTTLE' : 'YES';
  return { type, decisions };
}

/** ES's Decision.Multi toString, as reroute's error messages print it: `[NO(why)][YES(why)]`. */
export function decisionsToString(decisions: Decisions): string {
  return decisions.decisions.map((d) => `[${d.type}(${d.explanation})]`).join('');
}
