/**
 * Any JSON key is an ordinary name: `constructor`, `__proto__`, `toString` and every other member of
 * Object.prototype, and arbitrary strings, work as field names in documents, explicit and dynamic mappings,
 * multi-fields, queries, sorts, aggregations (names and fields), `_source` filtering, `fields`, highlighting,
 * scripts (`ctx._source` and `params`), partial updates, analysis component names, alias filters and templates.
 * A fast-check property runs the whole round over generated names, with every Object.prototype member as an
 * explicit example; each run uses a fresh index on one real node.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NodeProcess, type HttpResult } from '../helpers/node-process.js';

/** Every own member of Object.prototype (`constructor`, `__proto__`, `toString`, `hasOwnProperty`, ...). */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** ES's metadata fields may not appear in a document; everything else may. */
const METADATA = new Set(['_id', '_index', '_routing', '_source', '_ignored', '_seq_no', '_version', '_field_names', '_nested_path', '_tier', '_primary_term', '_doc_count', '_feature', '_tsid', '_data_stream_timestamp', '_ignored_source']);

/**
 * Names that are legal everywhere this test puts them: no dots (a dot makes an object path), no wildcards or commas
 * (pattern and list syntax in `_source`, `fields` and URL parameters), not blank.
 */
const generatedName = fc
  .string({ minLength: 1, maxLength: 12, unit: fc.constantFrom(...'abcXYZ09_$-é字'.split(''), 'proto', 'constructor', '__', 'of') })
  .filter((name) => !METADATA.has(name) && name.trim().length > 0);

let node: NodeProcess;
let counter = 0;

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'field-names-node' } });
});
after(async () => {
  await node.stop();
});

function expectOk(res: HttpResult, what: string): void {
  assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${res.text.slice(0, 500)}`);
}

/** The whole round for one name; throws (with the name in the message) on the first wrong answer. */
async function roundTrip(name: string): Promise<void> {
  const index = `names-${++counter}`;
  const label = (what: string) => `${what} for field name ${JSON.stringify(name)}`;
  // The analysis filter and the analyzer take the name too; analyzer names may not start with '_' (ES's rule).
  const analyzerName = name.startsWith('_') ? `a${name}` : name;
  const created = await node.request('PUT', `/${index}`, {
    body: {
      settings: {
        number_of_replicas: 0,
        // Fewer fsyncs on a loaded test host; the write path is the same.
        'translog.durability': 'async',
        analysis: { filter: { [name]: { type: 'lowercase' } }, analyzer: { [analyzerName]: { type: 'custom', tokenizer: 'standard', filter: [name] } } },
      },
      mappings: {
        properties: {
          [name]: { type: 'text', analyzer: analyzerName, fields: { [name]: { type: 'keyword' } } },
          obj: { properties: { [name]: { type: 'long' } } },
        },
      },
    },
  });
  expectOk(created, label('create index'));
  const documents = [
    { [name]: 'Hello World', obj: { [name]: 3 }, dyn: { [name]: true } },
    { [name]: 'hello there', obj: { [name]: 7 }, dyn: { [name]: false } },
  ];
  const indexed = await node.request('POST', `/${index}/_bulk?refresh=true`, {
    raw: documents.map((document, i) => `{"index":{"_id":"${i + 1}"}}\n${JSON.stringify(document)}\n`).join(''),
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal(indexed.body?.errors, false, `${label('bulk index')}: ${indexed.text.slice(0, 500)}`);

  const got = await node.request('GET', `/${index}/_doc/1`);
  assert.equal(got.status, 200, label('get'));
  assert.deepEqual(got.body._source, documents[0], label('_source round trip'));

  const mapping = await node.request('GET', `/${index}/_mapping`);
  const properties = mapping.body[index].mappings.properties;
  assert.ok(Object.hasOwn(properties, name), label('mapping has the field'));
  assert.ok(Object.hasOwn(properties[name].fields, name), label('mapping has the multi-field'));
  assert.equal(properties.obj.properties[name].type, 'long', label('explicit object field'));
  assert.equal(properties.dyn.properties[name].type, 'boolean', label('dynamic field'));

  const search = async (body: unknown, what: string): Promise<any> => {
    const res = await node.request('POST', `/${index}/_search`, { body });
    assert.equal(res.status, 200, `${label(what)}: ${res.text.slice(0, 500)}`);
    return res.body;
  };
  assert.equal((await search({ query: { match: { [name]: 'HELLO' } } }, 'match')).hits.total.value, 2, label('match'));
  assert.equal((await search({ query: { term: { [`${name}.${name}`]: 'Hello World' } } }, 'term on multi-field')).hits.total.value, 1, label('term'));
  assert.equal((await search({ query: { range: { [`obj.${name}`]: { gte: 5 } } } }, 'range')).hits.total.value, 1, label('range'));
  assert.equal((await search({ query: { term: { [`dyn.${name}`]: true } } }, 'dynamic term')).hits.total.value, 1, label('dynamic term'));
  assert.equal((await search({ query: { exists: { field: `obj.${name}` } } }, 'exists')).hits.total.value, 2, label('exists'));

  const sorted = await search({ sort: [{ [`obj.${name}`]: 'desc' }] }, 'sort');
  assert.deepEqual(sorted.hits.hits.map((hit: any) => hit.sort[0]), [7, 3], label('sort'));

  const aggs = await search(
    { size: 0, aggs: { [name]: { terms: { field: `${name}.${name}`, order: { [name]: 'desc' } }, aggs: { [name]: { max: { field: `obj.${name}` } } } } } },
    'terms aggregation',
  );
  const buckets = aggs.aggregations[name].buckets;
  assert.deepEqual(buckets.map((bucket: any) => [bucket.key, bucket[name].value]), [['hello there', 7], ['Hello World', 3]], label('aggregation'));

  const filtered = await search({ query: { ids: { values: ['1'] } }, _source: { includes: [name, `obj.${name}`] } }, '_source includes');
  assert.deepEqual(filtered.hits.hits[0]._source, { [name]: 'Hello World', obj: { [name]: 3 } }, label('_source includes'));
  const excluded = await search({ query: { ids: { values: ['1'] } }, _source: { excludes: [name, 'obj'] } }, '_source excludes');
  assert.deepEqual(excluded.hits.hits[0]._source, { dyn: { [name]: true } }, label('_source excludes'));

  const fields = await search({ query: { ids: { values: ['1'] } }, fields: [name, `obj.${name}`], _source: false }, 'fields');
  assert.deepEqual(fields.hits.hits[0].fields[name], ['Hello World'], label('fields'));
  assert.deepEqual(fields.hits.hits[0].fields[`obj.${name}`], [3], label('fields (object)'));

  const highlighted = await search({ query: { match: { [name]: 'world' } }, highlight: { fields: { [name]: {} } } }, 'highlight');
  assert.deepEqual(highlighted.hits.hits[0].highlight[name], ['Hello <em>World</em>'], label('highlight'));

  const script = { source: 'ctx._source[params.k] = params[params.k]; ctx._source.obj[params.k] += 1', params: { k: name, [name]: 'scripted' } };
  const updates = [
    ['{"update":{"_id":"1"}}', JSON.stringify({ script })],
    ['{"update":{"_id":"2"}}', JSON.stringify({ doc: { obj: { [name]: 70 }, extra: { [name]: 'x' } } })],
  ];
  const updated = await node.request('POST', `/${index}/_bulk?refresh=true`, {
    raw: updates.map(([action, body]) => `${action}\n${body}\n`).join(''),
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal(updated.body?.errors, false, `${label('script and partial updates')}: ${updated.text.slice(0, 500)}`);
  const afterUpdates = await node.request('POST', `/${index}/_mget`, { body: { ids: ['1', '2'] } });
  assert.deepEqual(afterUpdates.body.docs[0]._source, { [name]: 'scripted', obj: { [name]: 4 }, dyn: { [name]: true } }, label('script result'));
  assert.deepEqual(afterUpdates.body.docs[1]._source, { ...documents[1], obj: { [name]: 70 }, extra: { [name]: 'x' } }, label('partial update result'));

  const alias = `${index}-alias`;
  const aliased = await node.request('POST', '/_aliases', { body: { actions: [{ add: { index, alias, filter: { term: { [`obj.${name}`]: 4 } } } }] } });
  expectOk(aliased, label('alias with filter'));
  const viaAlias = await node.request('POST', `/${alias}/_search`, { body: { query: { match_all: {} } } });
  assert.deepEqual(viaAlias.body.hits.hits.map((hit: any) => hit._id), ['1'], label('alias filter'));

  expectOk(await node.request('DELETE', `/${index}`), label('delete index'));
}

test('every Object.prototype member and generated names work as field names end to end', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), generatedName), async (name) => {
      await roundTrip(name);
    }),
    { numRuns: 20, examples: PROTOTYPE_NAMES.map((name) => [name]), endOnFailure: true },
  );
});

test('names used as index template, component template, legacy template and index names', async () => {
  // Index and template names are lowercase, so `constructor` is the prototype member that can collide.
  const name = 'constructor';
  expectOk(await node.request('PUT', `/_component_template/${name}`, { body: { template: { mappings: { properties: { toString: { type: 'keyword' } } } } } }), 'component template');
  expectOk(
    await node.request('PUT', `/_index_template/${name}`, { body: { index_patterns: [`${name}*`], composed_of: [name], template: { aliases: { [`${name}-alias`]: {} } } } }),
    'index template',
  );
  expectOk(await node.request('PUT', `/_template/${name}`, { body: { index_patterns: ['legacy-constructor*'], mappings: { properties: { valueOf: { type: 'long' } } } } }), 'legacy template');
  const template = await node.request('GET', `/_index_template/${name}`);
  assert.equal(template.body.index_templates[0].name, name);
  assert.ok(Object.hasOwn((await node.request('GET', `/_template/${name}`)).body, name));
  for (const missing of ['tostring', 'valueof', 'hasownproperty']) {
    assert.equal((await node.request('GET', `/_index_template/${missing}`)).status, 404, missing);
    assert.equal((await node.request('GET', `/_template/${missing}`)).status, 404, missing);
    assert.equal((await node.request('GET', `/_component_template/${missing}`)).status, 404, missing);
    assert.equal((await node.request('GET', `/${missing}`)).status, 404, missing);
  }
  expectOk(await node.request('PUT', `/${name}/_doc/1?refresh=true`, { body: { toString: 'x' } }), 'auto-created index');
  const mapping = await node.request('GET', `/${name}/_mapping`);
  assert.equal(mapping.body[name].mappings.properties.toString.type, 'keyword');
  assert.equal((await node.request('GET', `/${name}-alias/_count`)).body.count, 1);
  expectOk(await node.request('PUT', '/legacy-constructor-1/_doc/1', { body: { valueOf: 5 } }), 'legacy template index');
  assert.equal((await node.request('GET', '/legacy-constructor-1/_mapping')).body['legacy-constructor-1'].mappings.properties.valueOf.type, 'long');
  const health = await node.request('GET', `/_cluster/health/${name}?level=indices`);
  assert.ok(Object.hasOwn(health.body.indices, name));
});

test('a setting, analysis group or cluster setting named like a prototype member is an ordinary (unknown) key', async () => {
  expectOk(await node.request('PUT', '/settings-names'), 'create index');
  for (const name of PROTOTYPE_NAMES) {
    const index = await node.request('PUT', '/settings-names/_settings', { body: { [name]: 'x' } });
    assert.equal(index.status, 400, `${name}: ${index.text}`);
    assert.match(index.body.error.reason, /unknown setting \[index\./);
    const cluster = await node.request('PUT', '/_cluster/settings', { body: { persistent: { [name]: 'x' } } });
    assert.equal(cluster.status, 400, `${name}: ${cluster.text}`);
    assert.equal(cluster.body.error.type, 'illegal_argument_exception');
    assert.match(cluster.body.error.reason, new RegExp(`persistent setting \\[${name.replace(/[$_]/g, '\\$&')}\\], not recognized`));
  }
  // `__proto__` in a dotted settings key used to walk into Object.prototype and pollute every object in the node.
  const polluting = await node.request('PUT', '/polluter', {
    body: { settings: { 'index.analysis.analyzer.__proto__.type': 'custom', 'index.analysis.analyzer.__proto__.tokenizer': 'standard' } },
  });
  assert.equal(polluting.status, 400, polluting.text);
  const clean = await node.request('PUT', '/after-polluter', { body: { mappings: { properties: { a: { type: 'keyword' } } } } });
  assert.equal(clean.status, 200, `a later index creation still works: ${clean.text}`);
  const doc = await node.request('PUT', '/after-polluter/_doc/1', { body: { a: 'x' } });
  assert.equal(doc.status, 201, doc.text);
});

test('a prototype-member name where ES expects a known one is refused exactly as any unknown name is', async () => {
  expectOk(await node.request('PUT', '/registry-names', { body: { mappings: { properties: { k: { type: 'keyword' }, d: { type: 'date' } } } } }), 'create');
  const probes: Array<[string, (name: string) => Promise<HttpResult>]> = [
    ['query type', (name) => node.request('POST', '/registry-names/_search', { body: { query: { [name]: {} } } })],
    ['aggregation type', (name) => node.request('POST', '/registry-names/_search', { body: { aggs: { a: { [name]: {} } } } })],
    ['msearch header key', (name) => node.request('POST', '/registry-names/_msearch', { raw: `${JSON.stringify({ [name]: 'x' })}\n{}\n`, headers: { 'content-type': 'application/x-ndjson' } })],
    ['calendar interval', (name) => node.request('POST', '/registry-names/_search', { body: { aggs: { h: { date_histogram: { field: 'd', calendar_interval: name } } } } })],
    ['multi_match type', (name) => node.request('POST', '/registry-names/_search', { body: { query: { multi_match: { query: 'x', fields: ['k'], type: name } } } })],
    ['regexp flag', (name) => node.request('POST', '/registry-names/_search', { body: { query: { regexp: { k: { value: 'x', flags: name } } } } })],
    ['date format', (name) => node.request('PUT', '/registry-names/_mapping', { body: { properties: { [`d_${Math.random().toString(36).slice(2)}`]: { type: 'date', format: name } } } })],
    ['field type', (name) => node.request('PUT', '/registry-names/_mapping', { body: { properties: { z: { type: name } } } })],
    ['mapping parameter', (name) => node.request('PUT', '/registry-names/_mapping', { body: { properties: { k: { type: 'keyword', [name]: true } } } })],
    ['search body key', (name) => node.request('POST', '/registry-names/_search', { body: { [name]: 1 } })],
    ['highlight option', (name) => node.request('POST', '/registry-names/_search', { body: { highlight: { fields: { k: { [name]: 1 } } } } })],
    ['content type', (name) => node.request('POST', '/registry-names/_search', { raw: '{}', headers: { 'content-type': `application/${name.toLowerCase().replace(/_/g, '')}` } })],
    ['cat bytes unit', (name) => node.request('GET', `/_cat/indices?bytes=${encodeURIComponent(name)}`)],
  ];
  for (const [what, send] of probes) {
    const reference = await send('nosuchname');
    for (const name of PROTOTYPE_NAMES) {
      const res = await send(name);
      assert.equal(res.status, reference.status, `${what} [${name}]: ${res.text.slice(0, 300)}`);
      assert.equal(res.body?.error?.type, reference.body?.error?.type, `${what} [${name}]: ${res.text.slice(0, 300)}`);
      assert.ok(res.status < 500, `${what} [${name}] is a client error: ${res.text.slice(0, 300)}`);
    }
  }
});
