/**
 * `wait_for_nodes`: a node-count condition, as TransportClusterHealthAction reads it: `N`, `>=N`, `<=N`,
 * `>N`, `<N`, `ge(N)`, `le(N)`, `gt(N)`, `lt(N)`, with N parsed by Java's Integer.parseInt (so a bad number
 * is ES's number_format_exception, 400).
 */
import { errors } from '../../common/errors.js';

export type NodeCountComparison = 'eq' | 'ge' | 'le' | 'gt' | 'lt';

export interface NodeCountCondition {
  comparison: NodeCountComparison;
  expected: number;
}

/** Prefixes in the order ES tests them (`>=` before `>`, `<=` before `<`). */
const OPERATORS: ReadonlyArray<[string, NodeCountComparison, boolean]> = [
  ['>=', 'ge', false],
  ['ge(', 'ge', true],
  ['<=', 'le', false],
  ['le(', 'le', true],
  ['>', 'gt', false],
  ['gt(', 'gt', true],
  ['<', 'lt', false],
  ['lt(', 'lt', true],
];

/** Parses a non-empty `wait_for_nodes` value. */
export function parseWaitForNodes(expression: string): NodeCountCondition {
  for (const [prefix, comparison, parenthesised] of OPERATORS) {
    if (!expression.startsWith(prefix)) continue;
    // ES takes the text between `(` and the last character without checking that it is `)`. For `ge(` it would
    // fail with a 500 string_index_out_of_bounds_exception; Gannet reports the empty number as a 400 instead.
    const number = parenthesised ? expression.slice(prefix.length, Math.max(prefix.length, expression.length - 1)) : expression.slice(prefix.length);
    return { comparison, expected: parseJavaInt(number) };
  }
  return { comparison: 'eq', expected: parseJavaInt(expression) };
}

export function nodeCountMatches(condition: NodeCountCondition, numberOfNodes: number): boolean {
  switch (condition.comparison) {
    case 'eq':
      return numberOfNodes === condition.expected;
    case 'ge':
      return numberOfNodes >= condition.expected;
    case 'le':
      return numberOfNodes <= condition.expected;
    case 'gt':
      return numberOfNodes > condition.expected;
    case 'lt':
      return numberOfNodes < condition.expected;
  }
}

/** Java's Integer.parseInt(text): an optional sign, ASCII digits, within 32-bit range; nothing is trimmed. */
export function parseJavaInt(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw errors.numberFormat(text);
  const value = Number(text);
  if (value < -2147483648 || value > 2147483647) throw errors.numberFormat(text);
  return value;
}
