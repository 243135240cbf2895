/**
 * Mapping types in request bodies over HTTP against a real node, as ES 8.19's REST layer has them: a mapping under
 * `_doc` is a 400 in create index, put mapping and legacy templates (each with its own message); `include_type_name`
 * exists only for `compatible-with=7` requests, which may name any one type and get ES's deprecation warning;
 * composable and component templates accept a `_doc` wrapper, as ES does.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess, type HttpResult } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'typed-mappings-node' } });
});
after(async () => {
  await node.stop();
});

const V7 = { accept: 'application/vnd.elasticsearch+json;compatible-with=7', 'content-type': 'application/vnd.elasticsearch+json;compatible-with=7' };
const TYPED = { _doc: { properties: { title: { type: 'keyword' } } } };
const CREATE_REFUSAL = 'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.';

function assertIllegalArgument(res: HttpResult, reason: string): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.type, 'illegal_argument_exception');
  assert.equal(res.body.error.reason, reason);
}

function assertWarning(res: HttpResult, message: string): void {
  const warning = String(res.headers['warning'] ?? '');
  assert.match(warning, /^299 Elasticsearch-\S+ "/);
  assert.ok(warning.includes(`"${message}"`), warning);
}

test('create index: a mapping under _doc is refused; include_type_name is for compatible-with=7 only', async () => {
  assertIllegalArgument(await node.request('PUT', '/typed', { body: { mappings: TYPED } }), CREATE_REFUSAL);
  assert.equal((await node.request('HEAD', '/typed')).status, 404);

  const unknownParam = await node.request('PUT', '/typed?include_type_name=true', { body: { mappings: TYPED } });
  assertIllegalArgument(unknownParam, 'request [/typed] contains unrecognized parameter: [include_type_name]');

  // A 7.x client without include_type_name gets the same refusal.
  assertIllegalArgument(await node.request('PUT', '/typed', { body: { mappings: TYPED }, headers: V7 }), CREATE_REFUSAL);

  // With it, the one type (any name) is dropped, and the request is warned about.
  const v7 = await node.request('PUT', '/typed?include_type_name=true', { body: { mappings: { my_type: { properties: { title: { type: 'keyword' } } } } }, headers: V7 });
  assert.equal(v7.status, 200, v7.text);
  assertWarning(v7, '[types removal] Using include_type_name in create index requests is deprecated. The parameter will be removed in the next major version.');
  const mapping = await node.request('GET', '/typed/_mapping');
  assert.deepEqual(mapping.body, { typed: { mappings: { properties: { title: { type: 'keyword' } } } } });

  const empty = await node.request('PUT', '/typed-empty?include_type_name=true', { body: { mappings: { '': {} } }, headers: V7 });
  assertIllegalArgument(empty, 'name cannot be empty string');
  await node.request('DELETE', '/typed');
});

test('put mapping: a mapping under _doc is refused with ES 8 and 7.x messages', async () => {
  await node.request('PUT', '/put-typed', { body: { settings: { number_of_replicas: 0 } } });
  assertIllegalArgument(await node.request('PUT', '/put-typed/_mapping', { body: TYPED }), 'Types cannot be provided in put mapping requests');
  assertIllegalArgument(
    await node.request('PUT', '/put-typed/_mapping', { body: TYPED, headers: V7 }),
    'Types cannot be provided in put mapping requests, unless the include_type_name parameter is set to true.',
  );
  assertIllegalArgument(await node.request('PUT', '/put-typed/_mapping?include_type_name=true', { body: TYPED }), 'request [/put-typed/_mapping] contains unrecognized parameter: [include_type_name]');
  const v7 = await node.request('PUT', '/put-typed/_mapping?include_type_name=true', { body: TYPED, headers: V7 });
  assert.equal(v7.status, 200, v7.text);
  assertWarning(v7, '[types removal] Specifying types in put mapping request is deprecated. Use typeless api instead');
  assert.deepEqual((await node.request('GET', '/put-typed/_mapping')).body['put-typed'].mappings, { properties: { title: { type: 'keyword' } } });

  // Only a mapping whose one key is `_doc` is typed.
  const notTyped = await node.request('PUT', '/put-typed/_mapping', { body: { properties: { other: { type: 'long' } }, dynamic: true } });
  assert.equal(notTyped.status, 200, notTyped.text);
  // PutMappingRequest: a pattern that matches nothing is a 404.
  const none = await node.request('PUT', '/put-nothing-*/_mapping', { body: { properties: { a: { type: 'long' } } } });
  assert.equal(none.status, 404, none.text);
  assert.equal(none.body.error.reason, 'no such index [put-nothing-*]');
  await node.request('DELETE', '/put-typed');
});

test('legacy templates refuse _doc as create index does; composable and component templates accept it', async () => {
  assertIllegalArgument(await node.request('PUT', '/_template/typed-legacy', { body: { index_patterns: ['tl-*'], mappings: TYPED } }), CREATE_REFUSAL);
  assert.equal((await node.request('HEAD', '/_template/typed-legacy')).status, 404);
  const v7 = await node.request('PUT', '/_template/typed-legacy?include_type_name=true', { body: { index_patterns: ['tl-*'], mappings: TYPED }, headers: V7 });
  assert.equal(v7.status, 200, v7.text);
  assertWarning(v7, '[types removal] Specifying include_type_name in put index template requests is deprecated. The parameter will be removed in the next major version.');
  assert.deepEqual((await node.request('GET', '/_template/typed-legacy')).body['typed-legacy'].mappings, { properties: { title: { type: 'keyword' } } });

  const component = await node.request('PUT', '/_component_template/typed-ct', { body: { template: { mappings: TYPED } } });
  assert.equal(component.status, 200, component.text);
  const composable = await node.request('PUT', '/_index_template/typed-it', { body: { index_patterns: ['ti-*'], template: { mappings: TYPED } } });
  assert.equal(composable.status, 200, composable.text);
  const shown = await node.request('GET', '/_index_template/typed-it');
  assert.deepEqual(shown.body.index_templates[0].index_template.template.mappings, { properties: { title: { type: 'keyword' } } });
  await node.request('DELETE', '/_index_template/typed-it');
  await node.request('DELETE', '/_component_template/typed-ct');
  await node.request('DELETE', '/_template/typed-legacy');
});
