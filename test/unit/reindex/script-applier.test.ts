/** The per-hit script step (ES's ScriptApplier, ReindexScriptApplier, UpdateByQueryScriptApplier). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scriptApplier, type ScrollHit, type WriteRequest } from '../../../src/reindex/index.js';
import { compileScript } from '../../../src/script/index.js';
import { EsError } from '../../../src/common/errors.js';

const HIT: ScrollHit = { index: 'src', id: '7', version: 3, seqNo: 11, primaryTerm: 1, routing: 'r1', source: '{"n":1,"f":"x"}' };

const UBQ_WRITE: WriteRequest = {
  op: 'index',
  index: 'src',
  id: '7',
  routing: 'r1',
  version: undefined,
  versionType: 'internal',
  ifSeqNo: 11,
  ifPrimaryTerm: 1,
  source: HIT.source,
  requireAlias: false,
};

const REINDEX_WRITE: WriteRequest = { ...UBQ_WRITE, index: 'dest', routing: undefined, ifSeqNo: undefined, ifPrimaryTerm: undefined };

function applier(source: string, kind: 'reindex' | 'update_by_query', params: Record<string, unknown> = {}, versionsFetched = false) {
  return scriptApplier(compileScript({ source, lang: 'painless', params }), { kind, versionsFetched, nowMillis: () => 1234 });
}

test('update_by_query: the script changes the source; the write keeps its seq_no guard', () => {
  const out = applier('ctx._source.n += params.k; ctx._source.remove("f")', 'update_by_query', { k: 4 })(UBQ_WRITE, HIT);
  assert.deepEqual(out, { ...UBQ_WRITE, source: '{"n":5}' });
});

test('ctx metadata the script sees: the hit\'s index, id, routing, _now, op "index"; _version -1 unless fetched', () => {
  const source = 'ctx._source.meta = [ctx._index, ctx._id, ctx._version, ctx._routing, ctx._now, ctx.op]';
  assert.equal(applier(source, 'update_by_query')(UBQ_WRITE, HIT)!.source, '{"n":1,"f":"x","meta":["src","7",-1,"r1",1234,"index"]}');
  assert.equal(applier(source, 'update_by_query', {}, true)(UBQ_WRITE, HIT)!.source, '{"n":1,"f":"x","meta":["src","7",3,"r1",1234,"index"]}');
  // A reindex script sees the source hit's metadata, not the destination's.
  assert.equal(applier(source, 'reindex')(REINDEX_WRITE, HIT)!.source, '{"n":1,"f":"x","meta":["src","7",-1,"r1",1234,"index"]}');
});

test("ctx.op 'noop' drops the write; 'delete' turns it into an unguarded delete of the same document", () => {
  assert.equal(applier("ctx.op = 'noop'", 'update_by_query')(UBQ_WRITE, HIT), undefined);
  assert.deepEqual(applier("ctx.op = 'delete'", 'update_by_query')(UBQ_WRITE, HIT), {
    ...UBQ_WRITE,
    op: 'delete',
    source: undefined,
    ifSeqNo: undefined,
    ifPrimaryTerm: undefined,
  });
  assert.deepEqual(applier("ctx.op = 'delete'", 'reindex')(REINDEX_WRITE, HIT), { ...REINDEX_WRITE, op: 'delete', source: undefined });
});

test('reindex: changed _index, _id, _routing and _version reach the write; unchanged ones leave it alone', () => {
  const unchanged = applier("ctx._index = 'src'; ctx._routing = 'r1'", 'reindex')(REINDEX_WRITE, HIT);
  assert.deepEqual(unchanged, REINDEX_WRITE);
  const changed = applier("ctx._index = 'other'; ctx._id = 'x' + ctx._id; ctx._routing = null", 'reindex')({ ...REINDEX_WRITE, routing: 'kept' }, HIT);
  assert.deepEqual(changed, { ...REINDEX_WRITE, index: 'other', id: 'x7', routing: undefined });
  const routed = applier("ctx._routing = 'r2'", 'reindex')(REINDEX_WRITE, HIT);
  assert.equal(routed!.routing, 'r2');
  // _id null: the destination generates one.
  assert.equal(applier('ctx._id = null', 'reindex')(REINDEX_WRITE, HIT)!.id, undefined);
  // _version: a number is used with the request's version type; null means internal versioning.
  const external: WriteRequest = { ...REINDEX_WRITE, version: 3, versionType: 'external' };
  assert.deepEqual(applier('ctx._version = ctx._version + 10', 'reindex', {}, true)(external, HIT), { ...external, version: 13 });
  assert.deepEqual(applier('ctx._version = null', 'reindex', {}, true)(external, HIT), { ...external, version: undefined, versionType: 'internal' });
});

test('metadata rules: update_by_query may not change _id; op must be index, noop or delete; _source must stay a map', () => {
  const failure = (run: () => unknown): EsError => {
    try {
      run();
    } catch (err) {
      assert.ok(err instanceof EsError);
      return err;
    }
    assert.fail('expected a failure');
  };
  const readOnly = failure(() => applier("ctx._id = 'y'", 'update_by_query')(UBQ_WRITE, HIT));
  assert.equal(readOnly.type, 'script_exception');
  assert.equal(readOnly.message, 'runtime error');
  const badOp = failure(() => applier("ctx.op = 'create'", 'reindex')(REINDEX_WRITE, HIT));
  assert.equal(badOp.type, 'script_exception');
  const notMap = failure(() => applier("ctx._source = 'text'", 'update_by_query')(UBQ_WRITE, HIT));
  // CtxMap refuses the replacement inside the script (ES 8.5+), so it is the script's runtime error.
  assert.equal(notMap.type, 'script_exception');
  assert.equal(notMap.causedBy!.reason, 'Expected [_source] to be a Map, not [text] with type [java.lang.String]');
});

test('params are shared by every hit and read-only to the script', () => {
  const apply = applier('ctx._source.n += params.k', 'update_by_query', { k: 2 });
  assert.equal(apply(UBQ_WRITE, HIT)!.source, '{"n":3,"f":"x"}');
  assert.equal(apply({ ...UBQ_WRITE, source: '{"n":10}' }, HIT)!.source, '{"n":12}');
});
