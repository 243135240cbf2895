/** ES 8's ctx metadata rules per write context (Metadata.FieldProperty), applied when a table is given. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REINDEX_METADATA, UPDATE_BY_QUERY_METADATA, UPDATE_METADATA, compileScript, type CtxMetadata, type ScriptContext } from '../../../src/script/index.js';
import { EsError } from '../../../src/common/errors.js';

const updateCtx = (): ScriptContext => ({ op: 'index', _index: 'i', _type: '_doc', _id: '1', _version: 3, _routing: null, _source: { a: 1 }, _now: 1_700_000_000_000 });

function causeOf(source: string, metadata: CtxMetadata, ctx: ScriptContext = updateCtx(), type = 'illegal_argument_exception'): string | undefined {
  try {
    compileScript({ source, lang: 'painless', params: {} }).execute(ctx, metadata);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof EsError && err.type === 'script_exception' && err.reason === 'runtime error', String(err));
    assert.equal(err.causedBy!.type, type);
    return err.causedBy!.reason;
  }
}

test('update: metadata keys are read-only except op, which only needs to be a string (or null)', () => {
  assert.equal(causeOf("ctx._id = 'x'", UPDATE_METADATA), '_id cannot be updated');
  assert.equal(causeOf("ctx['_index'] = 'x'", UPDATE_METADATA), '_index cannot be updated');
  assert.equal(causeOf('ctx._version++', UPDATE_METADATA), '_version cannot be updated');
  assert.equal(causeOf("ctx.put('_now', 1)", UPDATE_METADATA), '_now cannot be updated');
  assert.equal(causeOf("ctx.remove('_id')", UPDATE_METADATA), '_id cannot be removed');
  assert.equal(causeOf('ctx.op = 1', UPDATE_METADATA), 'op [1] is wrong type, expected assignable to [java.lang.String], not [java.lang.Integer]');
  assert.equal(causeOf("ctx.op = 'whatever'; ctx.op = null; ctx.remove('op')", UPDATE_METADATA), undefined);
  assert.equal(causeOf("ctx._source = ['b': 2]", UPDATE_METADATA), undefined);
});

test('a write ctx holds its metadata and _source only (ES 8.5+ CtxMap): other keys are refused, _source stays a map', () => {
  for (const metadata of [UPDATE_METADATA, REINDEX_METADATA, UPDATE_BY_QUERY_METADATA]) {
    assert.equal(causeOf("ctx.junk = 'stuff'", metadata), 'Cannot put key [junk] with value [stuff] into ctx');
    assert.equal(causeOf("ctx['junk'] = [1, 2]", metadata), 'Cannot put key [junk] with value [[1, 2]] into ctx');
    assert.equal(causeOf("ctx.put('junk', 1)", metadata), 'Cannot put key [junk] with value [1] into ctx');
    assert.equal(causeOf("ctx.putAll(['junk': 1])", metadata), 'Cannot put key [junk] with value [1] into ctx');
    assert.equal(causeOf("ctx._source = 'x'", metadata), 'Expected [_source] to be a Map, not [x] with type [java.lang.String]');
    assert.equal(causeOf('ctx._source = null', metadata), 'Expected [_source] to be a Map, not [null]');
    assert.equal(causeOf("ctx.remove('junk')", metadata, updateCtx(), 'unsupported_operation_exception'), 'Cannot remove key junk from ctx');
    assert.equal(causeOf("ctx.remove('_source')", metadata, updateCtx(), 'unsupported_operation_exception'), 'Cannot remove key _source from ctx');
    // Reading an unknown key is fine (null), as is replacing _source by another map.
    assert.equal(causeOf("if (ctx.junk == null) { ctx._source = ['b': 2] }", metadata), undefined);
  }
});

test('reindex: index, id, version and routing are writable with their types; op must be delete, index or noop', () => {
  const ctx = (): ScriptContext => ({ op: 'index', _index: 'src', _id: '1', _version: 2, _routing: null, _source: {}, _now: 1 });
  const out = ctx();
  assert.equal(causeOf("ctx._index = 'dest'; ctx._id = null; ctx._version = 7L; ctx._routing = 'r'; ctx.op = 'noop'", REINDEX_METADATA, out), undefined);
  assert.deepEqual([out._index, out._id, String(out._version), out._routing, out.op], ['dest', null, '7', 'r', 'noop']);
  assert.equal(causeOf("ctx.op = 'none'", REINDEX_METADATA, ctx()), '[op] must be one of delete, index, noop, not [none]');
  assert.equal(causeOf('ctx._index = null', REINDEX_METADATA, ctx()), '_index cannot be null');
  assert.equal(causeOf('ctx._version = 1.5', REINDEX_METADATA, ctx()), '_version may only be set to an int or a long but was [1.5] with type [java.lang.Double]');
  assert.equal(causeOf("ctx._version = 'x'", REINDEX_METADATA, ctx()), '_version [x] is wrong type, expected assignable to [java.lang.Number], not [java.lang.String]');
  assert.equal(causeOf('ctx._now = 5', REINDEX_METADATA, ctx()), '_now cannot be updated');
});

test('update_by_query: only op may change', () => {
  const ctx = (): ScriptContext => ({ op: 'index', _index: 'i', _id: '1', _version: 2, _routing: null, _source: {}, _now: 1 });
  assert.equal(causeOf("ctx._index = 'other'", UPDATE_BY_QUERY_METADATA, ctx()), '_index cannot be updated');
  assert.equal(causeOf("ctx.op = 'delete'", UPDATE_BY_QUERY_METADATA, ctx()), undefined);
});

test('without a table ctx is a plain map', () => {
  const ctx = updateCtx();
  compileScript({ source: "ctx._id = 'changed'; ctx.remove('_now')", lang: 'painless', params: {} }).execute(ctx);
  assert.equal(ctx._id, 'changed');
  assert.equal('_now' in ctx, false);
});
