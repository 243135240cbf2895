/** Shared helpers for the DSL tests: parse with errors as plain objects, an index context to build against. */
import assert from 'node:assert/strict';
import { AnalysisRegistry } from '../../../../src/analysis/index.js';
import { EsError } from '../../../../src/common/errors.js';
import { parseMapping } from '../../../../src/mapping/index.js';
import { buildContext, FieldLookup, parseQuery, type BuildContext, type QueryAst } from '../../../../src/search/dsl/index.js';

export interface ErrorShape {
  type: string;
  reason: string;
  line?: number;
  col?: number;
  caused_by?: ErrorShape;
}

/** An EsError as ES renders it (type, reason, metadata, caused_by), for exact comparisons. */
export function errorShape(err: unknown): ErrorShape {
  assert.ok(err instanceof EsError, `expected an EsError, got ${String(err)}`);
  const shape: ErrorShape = { type: err.type, reason: err.reason, ...(err.metadata as { line?: number; col?: number }) };
  if (err.causedBy !== undefined) shape.caused_by = errorShape(err.causedBy);
  return shape;
}

export function parseError(json: string): ErrorShape {
  try {
    parseQuery(json);
  } catch (err) {
    return errorShape(err);
  }
  assert.fail(`expected ${json} to fail`);
}

export function thrown(fn: () => unknown): ErrorShape {
  try {
    fn();
  } catch (err) {
    return errorShape(err);
  }
  assert.fail('expected a failure');
}

/** A JSON object literal as the parser would read it (numbers as JS numbers). */
export function q(json: string): QueryAst {
  return parseQuery(json);
}

export const MAPPING = {
  properties: {
    title: { type: 'text', fields: { raw: { type: 'keyword' } } },
    body: { type: 'text', analyzer: 'english' },
    nopos: { type: 'text', index_options: 'freqs' },
    tag: { type: 'keyword' },
    lower: { type: 'keyword', normalizer: 'lowercase' },
    age: { type: 'integer' },
    count: { type: 'long' },
    price: { type: 'double' },
    ratio: { type: 'float' },
    scaled: { type: 'scaled_float', scaling_factor: 100 },
    date: { type: 'date' },
    day: { type: 'date', format: 'yyyy-MM-dd' },
    flag: { type: 'boolean' },
    user: { properties: { name: { type: 'keyword' }, email: { type: 'keyword' } } },
  },
} as const;

export const NOW = Date.UTC(2020, 0, 15, 12, 30, 0);

export function context(overrides: Partial<Parameters<typeof buildContext>[0]> = {}): BuildContext {
  return buildContext({
    indexName: 'test',
    indexUuid: 'uuid-1',
    fields: new FieldLookup(parseMapping(MAPPING)),
    analysis: AnalysisRegistry.global(),
    now: () => NOW,
    ...overrides,
  });
}
