/**
 * The `ip` field type over HTTP, as ES 8 answers: IPv4 and IPv6 in one field, term/terms/CIDR/range/exists
 * queries, the ip_range aggregation (ranges, masks, keys, keyed) and terms on ip, sorting with search_after,
 * docvalue_fields and fields, ignore_malformed and null_value, errors, and field caps.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

const DOCS: Record<string, unknown> = {
  v4a: { ip: '192.168.0.1' },
  v4b: { ip: '192.168.0.7' },
  v4c: { ip: '10.0.0.1' },
  v6a: { ip: '::1' },
  v6b: { ip: '2001:db8::1' },
  multi: { ip: ['2001:db8:1::7', '192.168.1.3'] },
  mapped: { ip: '::ffff:172.16.0.9' },
  none: { other: 1 },
  bad: { ip_lenient: 'not-an-ip' },
  nulled: { ip_lenient: null },
};

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'ip-node' } });
  const created = await node.request('PUT', '/ips', {
    body: {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: {
        properties: {
          ip: { type: 'ip' },
          ip_lenient: { type: 'ip', ignore_malformed: true, null_value: '0.0.0.1' },
          ip_dv_only: { type: 'ip', index: false },
          ip_nothing: { type: 'ip', index: false, doc_values: false },
          other: { type: 'long' },
        },
      },
    },
  });
  assert.equal(created.status, 200, created.text);
  const lines = Object.entries(DOCS).flatMap(([id, source]) => [JSON.stringify({ index: { _id: id } }), JSON.stringify(source)]);
  const bulk = await node.request('POST', '/ips/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false, bulk.text);
});

after(async () => {
  await node.stop();
});

async function ids(query: unknown): Promise<string[]> {
  const res = await node.request('POST', '/ips/_search', { body: { query, size: 100, _source: false } });
  assert.equal(res.status, 200, res.text);
  return res.body.hits.hits.map((hit: { _id: string }) => hit._id).sort();
}

test('term: an address, IPv4 in any spelling matches its IPv4-mapped form', async () => {
  assert.deepEqual(await ids({ term: { ip: '192.168.0.1' } }), ['v4a']);
  assert.deepEqual(await ids({ term: { ip: '::ffff:192.168.0.1' } }), ['v4a']);
  assert.deepEqual(await ids({ term: { ip: '172.16.0.9' } }), ['mapped']);
  assert.deepEqual(await ids({ term: { ip: '2001:0db8:0:0:0:0:0:1' } }), ['v6b']);
  assert.deepEqual(await ids({ match: { ip: '::1' } }), ['v6a']);
});

test('term with CIDR masks, IPv4 and IPv6', async () => {
  assert.deepEqual(await ids({ term: { ip: '192.168.0.0/16' } }), ['multi', 'v4a', 'v4b']);
  assert.deepEqual(await ids({ term: { ip: '192.168.0.0/24' } }), ['v4a', 'v4b']);
  assert.deepEqual(await ids({ term: { ip: '2001:db8::/32' } }), ['multi', 'v6b']);
  assert.deepEqual(await ids({ term: { ip: '0.0.0.0/0' } }), ['mapped', 'multi', 'v4a', 'v4b', 'v4c']);
  assert.deepEqual(await ids({ term: { ip: '::/0' } }), ['mapped', 'multi', 'v4a', 'v4b', 'v4c', 'v6a', 'v6b']);
});

test('terms: addresses and masks together', async () => {
  assert.deepEqual(await ids({ terms: { ip: ['::1', '10.0.0.1', '2001:db8:1::/48'] } }), ['multi', 'v4c', 'v6a']);
});

test('range: inclusive and exclusive bounds in address order (IPv4-mapped addresses sort inside IPv6)', async () => {
  assert.deepEqual(await ids({ range: { ip: { gte: '192.168.0.1', lte: '192.168.0.7' } } }), ['v4a', 'v4b']);
  assert.deepEqual(await ids({ range: { ip: { gt: '192.168.0.1', lt: '192.168.0.7' } } }), []);
  assert.deepEqual(await ids({ range: { ip: { gt: '192.168.0.1' } } }), ['multi', 'v4b', 'v6b']);
  assert.deepEqual(await ids({ range: { ip: { lt: '10.0.0.2' } } }), ['v4c', 'v6a']);
  assert.deepEqual(await ids({ range: { ip: { gte: '::', lt: '::2' } } }), ['v6a']);
  // A field with doc values only is searched through them, as ES does since 8.1.
  assert.equal((await node.request('POST', '/ips/_search', { body: { query: { range: { ip_dv_only: { gte: '::' } } } } })).status, 200);
});

test('exists, ignore_malformed records _ignored, null_value is indexed', async () => {
  assert.deepEqual(await ids({ exists: { field: 'ip' } }), ['mapped', 'multi', 'v4a', 'v4b', 'v4c', 'v6a', 'v6b']);
  assert.deepEqual(await ids({ exists: { field: 'ip_lenient' } }), ['nulled']);
  assert.deepEqual(await ids({ term: { _ignored: 'ip_lenient' } }), ['bad']);
  assert.deepEqual(await ids({ term: { ip_lenient: '0.0.0.1' } }), ['nulled']);
});

test('errors: malformed values and masks, unsearchable fields, prefix queries, documents', async () => {
  const error = async (query: unknown) => (await node.request('POST', '/ips/_search', { body: { query } })).body.error;
  let err = await error({ term: { ip: 'foo' } });
  assert.equal(err.type, 'search_phase_execution_exception');
  assert.deepEqual(err.root_cause[0].type, 'query_shard_exception');
  assert.equal(err.root_cause[0].reason, "failed to create query: 'foo' is not an IP string literal.");
  assert.equal(err.failed_shards[0].reason.caused_by.reason, "'foo' is not an IP string literal.");
  err = await error({ term: { ip: '1.2.3.4/33' } });
  assert.equal(err.root_cause[0].reason, 'failed to create query: Illegal prefix length [33] in [1.2.3.4/33]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges');
  err = await error({ term: { ip: '::ffff:1.2.3.4/8' } });
  assert.match(err.root_cause[0].reason, /^failed to create query: CIDR notation is not allowed with IPv6-mapped IPv4 address \[::ffff:1\.2\.3\.4 as/);
  err = await error({ range: { ip: { gte: '10.0.0.0/8' } } });
  assert.equal(err.root_cause[0].reason, "failed to create query: '10.0.0.0/8' is not an IP string literal.");
  err = await error({ term: { ip_nothing: '1.2.3.4' } });
  assert.equal(err.root_cause[0].reason, 'failed to create query: Cannot search on field [ip_nothing] since it is not indexed nor has doc values.');
  err = await error({ prefix: { ip: '192' } });
  assert.equal(err.root_cause[0].reason, 'Can only use prefix queries on keyword, text and wildcard fields - not on [ip] which is of type [ip]');

  const res = await node.request('PUT', '/ips/_doc/broken', { body: { ip: '300.1.1.1' } });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.type, 'document_parsing_exception');
  assert.equal(res.body.error.reason, "[1:7] failed to parse field [ip] of type [ip] in document with id 'broken'. Preview of field's value: '300.1.1.1'");
  assert.deepEqual(res.body.error.caused_by, { type: 'illegal_argument_exception', reason: "'300.1.1.1' is not an IP string literal." });
});

test('ip_range: from/to ranges and masks, sorted as ES sorts them, keys as ES prints them', async () => {
  const res = await node.request('POST', '/ips/_search', {
    body: {
      size: 0,
      aggs: {
        r: {
          ip_range: {
            field: 'ip',
            ranges: [{ from: '192.169.0.0' }, { to: '192.168.0.0' }, { from: '192.168.0.0', to: '192.169.0.0' }, { mask: '::/24' }, { mask: '192.168.0.0/16', key: 'lan' }, { mask: '0.0.0.0/0' }],
          },
        },
      },
    },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.aggregations.r.buckets, [
    { key: '*-192.168.0.0', to: '192.168.0.0', doc_count: 3 },
    { key: '::/24', to: '0:100::', doc_count: 6 },
    { key: '0.0.0.0/0', from: '0.0.0.0', to: '::1:0:0:0', doc_count: 5 },
    { key: '192.168.0.0-192.169.0.0', from: '192.168.0.0', to: '192.169.0.0', doc_count: 3 },
    { key: 'lan', from: '192.168.0.0', to: '192.169.0.0', doc_count: 3 },
    { key: '192.169.0.0-*', from: '192.169.0.0', doc_count: 2 },
  ]);
});

test('ip_range: keyed, sub-aggregations, missing, typed_keys, and its parse errors', async () => {
  const res = await node.request('POST', '/ips/_search?typed_keys=true', {
    body: {
      size: 0,
      aggs: {
        r: {
          ip_range: { field: 'ip', keyed: true, missing: '10.0.0.5', ranges: [{ to: '10.0.1.0' }, { mask: '10.0.0.0/8' }] },
          aggs: { n: { value_count: { field: 'ip' } } },
        },
      },
    },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.aggregations['ip_range#r'].buckets, {
    '*-10.0.1.0': { to: '10.0.1.0', doc_count: 5, 'value_count#n': { value: 2 } },
    '10.0.0.0/8': { from: '10.0.0.0', to: '11.0.0.0', doc_count: 4, 'value_count#n': { value: 1 } },
  });
  const bad = async (aggs: unknown) => (await node.request('POST', '/ips/_search', { body: { size: 0, aggs } })).body.error;
  let err = await bad({ r: { ip_range: { field: 'ip', ranges: [{ from: 'nope' }] } } });
  assert.equal(err.type, 'x_content_parse_exception');
  assert.equal(err.reason, '[ip_range] failed to parse field [ranges]');
  assert.deepEqual(err.caused_by, { type: 'illegal_argument_exception', reason: "'nope' is not an IP string literal." });
  err = await bad({ r: { ip_range: { field: 'ip', ranges: [{ form: '1.2.3.4' }] } } });
  assert.equal(err.caused_by.reason, 'Unexpected ip range parameter: [form]');
  err = await bad({ r: { ip_range: { field: 'ip' } } });
  assert.equal(err.reason, 'No [ranges] specified for the [r] aggregation');
  err = await bad({ r: { ip_range: { field: 'other', ranges: [{ to: '1.2.3.4' }] } } });
  assert.equal(err.root_cause[0].reason, 'Field [other] of type [long] is not supported for aggregation [ip_range]');
});

test('terms on ip: keys printed as addresses, ordered by bytes for _key, include by address', async () => {
  const res = await node.request('POST', '/ips/_search', {
    body: {
      size: 0,
      aggs: {
        byCount: { terms: { field: 'ip', size: 3 } },
        byKey: { terms: { field: 'ip', order: { _key: 'asc' } } },
        picked: { terms: { field: 'ip', include: ['192.168.0.7', '::1'] } },
        distinct: { cardinality: { field: 'ip' } },
      },
    },
  });
  assert.equal(res.status, 200, res.text);
  const keys = (agg: { buckets: Array<{ key: string }> }) => agg.buckets.map((b) => b.key);
  assert.deepEqual(keys(res.body.aggregations.byKey), ['::1', '10.0.0.1', '172.16.0.9', '192.168.0.1', '192.168.0.7', '192.168.1.3', '2001:db8::1', '2001:db8:1::7']);
  assert.deepEqual(keys(res.body.aggregations.byCount), ['::1', '10.0.0.1', '172.16.0.9']);
  assert.deepEqual(keys(res.body.aggregations.picked), ['::1', '192.168.0.7']);
  assert.equal(res.body.aggregations.distinct.value, 8);
  assert.equal(res.body.aggregations.byKey.buckets[0].key_as_string, undefined);
});

test('sort: byte order, min/max of several values, missing last, sort values and search_after as addresses', async () => {
  const search = async (body: unknown) => {
    const res = await node.request('POST', '/ips/_search', { body });
    assert.equal(res.status, 200, res.text);
    return res.body.hits.hits.map((hit: { _id: string; sort: unknown[] }) => [hit._id, hit.sort[0]]);
  };
  assert.deepEqual(await search({ size: 4, sort: [{ ip: 'asc' }], _source: false }), [
    ['v6a', '::1'],
    ['v4c', '10.0.0.1'],
    ['mapped', '172.16.0.9'],
    ['v4a', '192.168.0.1'],
  ]);
  assert.deepEqual(await search({ size: 3, sort: [{ ip: 'desc' }], _source: false }), [
    ['multi', '2001:db8:1::7'],
    ['v6b', '2001:db8::1'],
    ['v4b', '192.168.0.7'],
  ]);
  assert.deepEqual(await search({ size: 3, sort: [{ ip: 'asc' }], search_after: ['192.168.0.1'], _source: false }), [
    ['v4b', '192.168.0.7'],
    ['multi', '192.168.1.3'],
    ['v6b', '2001:db8::1'],
  ]);
  const last = await search({ size: 20, sort: [{ ip: 'asc' }], _source: false });
  assert.deepEqual(last.slice(-3).map((entry: unknown[]) => entry[1]), [null, null, null]);
});

test('docvalue_fields in byte order and fields in source order, both as ES prints addresses', async () => {
  const res = await node.request('POST', '/ips/_search', {
    body: { query: { ids: { values: ['multi', 'mapped'] } }, docvalue_fields: ['ip'], _source: false, sort: ['_doc'] },
  });
  const byId = Object.fromEntries(res.body.hits.hits.map((hit: { _id: string; fields: unknown }) => [hit._id, hit.fields]));
  assert.deepEqual(byId['multi'], { ip: ['192.168.1.3', '2001:db8:1::7'] });
  assert.deepEqual(byId['mapped'], { ip: ['172.16.0.9'] });
  const fetched = await node.request('POST', '/ips/_search', { body: { query: { ids: { values: ['multi', 'mapped', 'nulled'] } }, fields: ['ip*'], _source: false } });
  const fields = Object.fromEntries(fetched.body.hits.hits.map((hit: { _id: string; fields: unknown }) => [hit._id, hit.fields]));
  assert.deepEqual(fields['multi'], { ip: ['2001:db8:1::7', '192.168.1.3'] });
  assert.deepEqual(fields['mapped'], { ip: ['172.16.0.9'] });
  assert.deepEqual(fields['nulled'], { ip_lenient: ['0.0.0.1'] });
  const formatted = await node.request('POST', '/ips/_search', { body: { docvalue_fields: [{ field: 'ip', format: 'x' }] } });
  assert.equal(formatted.body.error.root_cause[0].reason, 'Field [ip] of type [ip] does not support custom formats');
});

test('_field_caps reports ip, searchable and aggregatable as its doc values allow', async () => {
  const res = await node.request('GET', '/ips/_field_caps?fields=ip*');
  assert.deepEqual(res.body.fields.ip, { ip: { type: 'ip', metadata_field: false, searchable: true, aggregatable: true } });
  assert.deepEqual(res.body.fields.ip_dv_only, { ip: { type: 'ip', metadata_field: false, searchable: true, aggregatable: true } });
  assert.deepEqual(res.body.fields.ip_nothing, { ip: { type: 'ip', metadata_field: false, searchable: false, aggregatable: false } });
});
