import assert from 'node:assert/strict';
import { EsError } from '../../../src/common/errors.js';
import { JsonFloat } from '../../../src/common/json-float.js';
import {
  EMPTY_ROOT,
  parseDocument,
  parseMapping,
  serializeMapping,
  type IndexableField,
  type MappingSettings,
  type ParsedDocument,
  type RootMapping,
} from '../../../src/mapping/index.js';

export function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v instanceof JsonFloat ? v.value : typeof v === 'bigint' ? `${v}n` : v)));
}

export function doc(source: unknown, mapping: unknown = undefined, settings?: MappingSettings, id = '1'): ParsedDocument {
  const root: RootMapping = mapping === undefined ? EMPTY_ROOT : parseMapping(mapping);
  return parseDocument({ source: typeof source === 'string' ? source : JSON.stringify(source), id, mapping: root, settings });
}

/** The dynamic mapping update of a document, in GET _mapping shape. */
export function update(source: unknown, mapping?: unknown, settings?: MappingSettings): unknown {
  const parsed = doc(source, mapping, settings);
  return parsed.mappingUpdate === undefined ? undefined : plain(serializeMapping(parsed.mappingUpdate));
}

/** field -> values, in document order, for compact assertions. */
export function values(parsed: ParsedDocument): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const f of parsed.fields) (out[f.field] ??= []).push(fieldValue(f));
  return out;
}

function fieldValue(f: IndexableField): unknown {
  switch (f.kind) {
    case 'date':
      return f.epochMillis;
    case 'date_nanos':
      return f.epochNanos;
    case 'long':
      return f.value;
    default:
      return f.value;
  }
}

export interface ExpectedError {
  type: string;
  reason: string;
  cause?: { type: string; reason: string; cause?: { type: string; reason: string } };
}

export function expectError(fn: () => unknown, expected: ExpectedError): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof EsError, `not an EsError: ${String(err)}`);
    assert.equal(err.type, expected.type);
    assert.equal(err.reason, expected.reason);
    if (expected.cause) {
      assert.equal(err.causedBy?.type, expected.cause.type, 'caused_by type');
      assert.equal(err.causedBy?.reason, expected.cause.reason, 'caused_by reason');
      if (expected.cause.cause) {
        assert.equal(err.causedBy?.causedBy?.type, expected.cause.cause.type);
        assert.equal(err.causedBy?.causedBy?.reason, expected.cause.cause.reason);
      }
    }
    assert.equal(err.status, 400, 'HTTP status');
    return true;
  });
}
