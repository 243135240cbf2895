/**
 * Runs the highlight phase the way the search API will: a mapping, the request's `highlight` section and
 * query as ES JSON, one hit's source; returns `highlight` as a plain object (in ES's key order).
 */
import type { AnalysisRegistry } from '../../../../src/analysis/index.js';
import { parseMapping } from '../../../../src/mapping/index.js';
import type { JsonValue } from '../../../../src/search/dsl/ast/query-ast.js';
import { parseTopLevelQuery } from '../../../../src/search/dsl/parse/inner-query.js';
import { XContentParser } from '../../../../src/search/dsl/xcontent/xcontent-parser.js';
import { parseSource } from '../../../../src/search/fetch/source-tree.js';
import { HighlightPhase } from '../../../../src/search/highlight/highlight-phase.js';
import { parseHighlight } from '../../../../src/search/highlight/highlight-options.js';

export interface HighlightCase {
  readonly mapping: unknown;
  readonly query?: unknown;
  readonly highlight: { [key: string]: JsonValue };
  readonly analysis?: AnalysisRegistry;
  readonly maxAnalyzedOffset?: number;
  /** index.highlight.weight_matches_mode.enabled */
  readonly weightMatchesEnabled?: boolean;
}

export function phaseFor(testCase: HighlightCase): HighlightPhase {
  const ast = testCase.query === undefined ? undefined : parseTopLevelQuery(XContentParser.fromString(JSON.stringify(testCase.query)));
  return HighlightPhase.create(
    { index: 'test', mapping: parseMapping(testCase.mapping), analysis: testCase.analysis, maxAnalyzedOffset: testCase.maxAnalyzedOffset, weightMatchesEnabled: testCase.weightMatchesEnabled },
    parseHighlight(testCase.highlight),
    { ast },
  );
}

/** The hit's highlight section as [field, fragments] pairs in output order; undefined when absent. */
export function highlight(testCase: HighlightCase, source: unknown, id = '1'): Array<[string, string[]]> | undefined {
  const result = phaseFor(testCase).highlight(parseSource(Buffer.from(JSON.stringify(source))), { id });
  return result === undefined ? undefined : [...result];
}

/** The fragments of one field, for cases highlighting a single field. */
export function fragments(testCase: HighlightCase, source: unknown): string[] | undefined {
  const result = highlight(testCase, source);
  if (result === undefined) return undefined;
  if (result.length !== 1) throw new Error(`expected one highlighted field, got ${result.map(([name]) => name).join(', ')}`);
  return result[0]![1];
}
