/**
 * Issue 17's search mismatches on the shard fan-out, over HTTP on a real node, after ES's YAML tests
 * (search/30_limits, 120_batch_reduce_size, 140_pre_filter_search_shards): `index.max_regex_length` for regexp and
 * query_string; `batched_reduce_size` validated and batched reduces reported as `num_reduce_phases`;
 * `pre_filter_shard_size` validated before the indices are resolved, and the can-match phase skipping the shards a
 * date range cannot match (`_shards.skipped`), all but one when none can.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await node.request(method, path, body === undefined ? {} : { body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.text}`);
  return res.body;
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'search-shards-compat' } });
  for (const [index, date] of [['index_1', '2016-01-01'], ['index_2', '2017-01-01'], ['index_3', '2018-01-01']] as const) {
    await ok('PUT', `/${index}`, { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { created_at: { type: 'date', format: 'yyyy-MM-dd' } } } });
    await ok('PUT', `/${index}/_doc/${index.slice(-1)}`, { created_at: date });
  }
  await ok('PUT', '/five', { settings: { number_of_shards: 5, number_of_replicas: 0 }, mappings: { properties: { str: { type: 'keyword' }, n: { type: 'long' } } } });
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ str: ['abc', 'bcd', 'cde'][i % 3], n: i }));
  const bulk = await node.request('POST', '/five/_bulk', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false, bulk.text);
  await ok('POST', '/_refresh');
});
after(async () => {
  await node.stop();
});

test('index.max_regex_length bounds regexp and query_string regexes with ES\'s messages', async () => {
  const regex = 'a'.repeat(1110);
  const regexp = await node.request('POST', '/five/_search', { body: { query: { regexp: { str: regex } } } });
  assert.equal(regexp.status, 400, regexp.text);
  assert.equal(regexp.body.error.type, 'search_phase_execution_exception');
  assert.equal(
    regexp.body.error.root_cause[0].reason,
    'failed to create query: The length of regex [1110] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
  );
  const queryString = await node.request('POST', '/five/_search', { body: { query: { query_string: { query: `/${regex}/`, default_field: 'str' } } } });
  assert.equal(queryString.status, 400, queryString.text);
  assert.equal(queryString.body.error.root_cause[0].type, 'query_shard_exception');
  assert.equal(
    queryString.body.error.root_cause[0].reason,
    'failed to create query: The length of regex [1110] used in the [query_string] has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
  );
  // The limit is the index's own setting.
  await ok('PUT', '/five/_settings', { index: { max_regex_length: 2000 } });
  try {
    for (const query of [{ regexp: { str: regex } }, { query_string: { query: `/${regex}/`, default_field: 'str' } }]) {
      const res = await node.request('POST', '/five/_search', { body: { query } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.hits.total.value, 0);
    }
  } finally {
    await ok('PUT', '/five/_settings', { index: { max_regex_length: null } });
  }
});

test('batched_reduce_size: at least 2, checked before the indices; more than one reduce is reported as num_reduce_phases', async () => {
  for (const [param, reason] of [
    ['batched_reduce_size=1', 'batchedReduceSize must be >= 2'],
    ['pre_filter_shard_size=0', 'preFilterShardSize must be >= 1'],
    ['max_concurrent_shard_requests=0', 'maxConcurrentShardRequests must be >= 1'],
  ]) {
    const res = await node.request('POST', `/no_such_index/_search?${param}`);
    assert.equal(res.status, 400, `${param}: ${res.text}`);
    assert.equal(res.body.error.type, 'illegal_argument_exception');
    assert.equal(res.body.error.reason, reason);
  }
  const body = { size: 3, sort: [{ n: 'desc' }], aggs: { str_terms: { terms: { field: 'str' } }, total: { sum: { field: 'n' } } } };
  const batched = await node.request('POST', '/five/_search?batched_reduce_size=2', { body });
  assert.equal(batched.status, 200, batched.text);
  assert.equal(batched.body.num_reduce_phases, 4);
  assert.deepEqual(Object.keys(batched.body).slice(0, 4), ['took', 'timed_out', 'num_reduce_phases', '_shards']);
  const once = await node.request('POST', '/five/_search', { body });
  assert.equal('num_reduce_phases' in once.body, false, once.text);
  assert.deepEqual(batched.body.hits, once.body.hits);
  assert.deepEqual(batched.body.aggregations, once.body.aggregations);
  assert.deepEqual(batched.body.aggregations.str_terms.buckets.map((bucket: any) => [bucket.key, bucket.doc_count]), [['abc', 14], ['bcd', 13], ['cde', 13]]);
  assert.deepEqual(batched.body.hits.hits.map((hit: any) => hit._id), ['39', '38', '37']);
  // Nothing to merge (size 0, no aggregations): one reduce whatever the batch size.
  const counted = await node.request('POST', '/five/_search?batched_reduce_size=2&size=0');
  assert.equal('num_reduce_phases' in counted.body, false, counted.text);
});

test('pre_filter_shard_size: the can-match phase skips shards whose date range cannot match, as ES counts them', async () => {
  const range = (gte: string, lt?: string) => ({ range: { created_at: { gte, ...(lt !== undefined && { lt }) } } });
  const search = async (params: string, body: unknown): Promise<any> => {
    const res = await node.request('POST', `/index_*/_search?rest_total_hits_as_int=true${params}`, { body });
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const cases: [string, unknown, number, number][] = [
    // Three shards are below the default threshold (128): nothing is pre-filtered.
    ['', { size: 0, query: range('2016-02-01', '2018-02-01') }, 0, 2],
    // No query is match_all: nothing can be skipped.
    ['&pre_filter_shard_size=1', {}, 0, 3],
    ['&pre_filter_shard_size=1', { size: 0, query: range('2016-02-01', '2018-02-01') }, 1, 2],
    // No shard can match: all but one are skipped, so the response still comes from a shard.
    ['&pre_filter_shard_size=1', { size: 0, query: range('2019-02-01', '2020-02-01') }, 2, 0],
    // Inside a bool filter the range still rewrites to match_none on the shards it misses.
    ['&pre_filter_shard_size=1', { size: 0, query: { bool: { filter: [range('2017-06-01')] } } }, 2, 1],
    // terms with min_doc_count 0 must visit every shard.
    ['&pre_filter_shard_size=1', { size: 0, query: range('2016-02-01', '2018-02-01'), aggs: { idx: { terms: { field: 'created_at', min_doc_count: 0 } } } }, 0, 2],
    ['&pre_filter_shard_size=1', { size: 0, query: range('2016-02-01', '2018-02-01'), aggs: { idx: { terms: { field: 'created_at' } } } }, 1, 2],
    // An unmapped field rewrites to match_none on every shard.
    ['&pre_filter_shard_size=1', { query: { term: { missing_field: 'x' } } }, 2, 0],
  ];
  for (const [params, body, skipped, total] of cases) {
    const res = await search(params, body);
    assert.deepEqual(res._shards, { total: 3, successful: 3, skipped, failed: 0 }, `${params} ${JSON.stringify(body)}`);
    assert.equal(res.hits.total, total, `${params} ${JSON.stringify(body)}`);
  }
  // The hits and aggregations are the same as without the pre-filter.
  const body = { query: range('2016-02-01', '2018-02-01'), aggs: { days: { date_histogram: { field: 'created_at', calendar_interval: 'year' } } } };
  const filtered = await search('&pre_filter_shard_size=1', body);
  const plain = await search('', body);
  assert.equal(filtered._shards.skipped, 1);
  assert.deepEqual(filtered.hits.hits.map((hit: any) => hit._id).sort(), ['2', '3']);
  assert.deepEqual(filtered.aggregations, plain.aggregations);
  // A write-blocked index lowers the default threshold to one shard, as ES's hasReadOnlyIndices.
  await ok('PUT', '/index_1/_settings', { index: { 'blocks.write': true } });
  try {
    const blocked = await search('', { size: 0, query: range('2016-02-01', '2018-02-01') });
    assert.equal(blocked._shards.skipped, 1);
  } finally {
    await ok('PUT', '/index_1/_settings', { index: { 'blocks.write': false } });
  }
});

test('doubles in error messages print as Java prints them (Found [-1.0], not [-1])', async () => {
  const causeOf = async (method: string, path: string, body: unknown): Promise<string> => {
    const res = await node.request(method, path, { body });
    assert.equal(res.status, 400, res.text);
    return res.body.error.caused_by?.reason ?? res.body.error.reason;
  };
  assert.equal(await causeOf('POST', '/five/_search', { size: 0, aggs: { s: { extended_stats: { field: 'n', sigma: -1 } } } }), '[sigma] must be greater than or equal to 0. Found [-1.0] in [s]');
  assert.equal(await causeOf('POST', '/five/_search', { size: 0, aggs: { s: { percentiles: { field: 'n', tdigest: { compression: -1 } } } } }), '[compression] must be greater than or equal to 0. Found [-1.0]');
  assert.equal(await causeOf('POST', '/five/_search', { size: 0, aggs: { s: { percentiles: { field: 'n', percents: [101] } } } }), 'percent must be in [0,100], got [101.0]: [s]');
  assert.equal(
    await causeOf('POST', '/five/_search', { size: 0, aggs: { s: { histogram: { field: 'n', interval: 1, extended_bounds: { min: 10, max: 1 } } } } }),
    '[extended_bounds.min][10.0] cannot be greater than [extended_bounds.max][1.0] for histogram aggregation [s]',
  );
  assert.equal(
    await causeOf('POST', '/five/_search', { size: 0, aggs: { s: { histogram: { field: 'n', interval: 1, extended_bounds: { min: 0, max: 10 }, hard_bounds: { min: 1 } } } } }),
    'Extended bounds have to be inside hard bounds, hard bounds: [1.0--], extended bounds: [0.0--10.0]',
  );
  assert.equal(await causeOf('PUT', '/scaled_bad', { mappings: { properties: { p: { type: 'scaled_float', scaling_factor: -1 } } } }), '[scaling_factor] must be a positive number, got [-1.0]');
  await ok('PUT', '/scaled', { mappings: { properties: { p: { type: 'scaled_float', scaling_factor: 10 } } } });
  const conflict = await node.request('PUT', '/scaled/_mapping', { body: { properties: { p: { type: 'scaled_float', scaling_factor: 20 } } } });
  assert.equal(conflict.status, 400, conflict.text);
  assert.equal(conflict.body.error.reason, 'Mapper for [p] conflicts with existing mapper:\n\tCannot update parameter [scaling_factor] from [10.0] to [20.0]');
  // The same value again is no conflict (the stored mapping's doubles read back as numbers).
  await ok('PUT', '/scaled/_mapping', { properties: { p: { type: 'scaled_float', scaling_factor: 10 } } });
});

test('a date mapping\'s locale parses and prints month and day names as Java\'s CLDR data has them', async () => {
  const format = 'E, d MMM yyyy HH:mm:ss Z';
  await ok('PUT', '/dates_fr', { mappings: { properties: { date_field: { type: 'date', format, locale: 'fr' } } } });
  await ok('PUT', '/dates_fr/_doc/1', { date_field: 'mer., 6 déc. 2000 02:55:00 -0800' });
  await ok('PUT', '/dates_fr/_doc/2?refresh=true', { date_field: 'jeu., 7 déc. 2000 02:55:00 -0800' });
  const count = async (index: string, gte: string, lte: string): Promise<number> => (await ok('POST', `/${index}/_count`, { query: { range: { date_field: { gte, lte } } } })).count;
  assert.equal(await count('dates_fr', 'mar., 5 déc. 2000 02:55:00 -0800', 'jeu., 7 déc. 2000 00:00:00 -0800'), 1);
  assert.equal(await count('dates_fr', 'mar., 5 déc. 2000 02:55:00 -0800', 'ven., 8 déc. 2000 00:00:00 -0800'), 2);
  // German CLDR abbreviations carry a dot (ES 7's JDK COMPAT data had "Di, 05 Dez 2000"); de_DE reads as de.
  await ok('PUT', '/dates_de', { mappings: { properties: { date_field: { type: 'date', format: 'EEE, dd MMM yyyy', locale: 'de_DE' } } } });
  await ok('PUT', '/dates_de/_doc/1?refresh=true', { date_field: 'Di., 05 Dez. 2000' });
  const compat = await node.request('PUT', '/dates_de/_doc/2', { body: { date_field: 'Di, 05 Dez 2000' } });
  assert.equal(compat.status, 400, compat.text);
  assert.equal(compat.body.error.caused_by.reason, 'failed to parse date field [Di, 05 Dez 2000] with format [EEE, dd MMM yyyy]');
  // Printing uses the locale too, also for a format the request asks for.
  const hit = await ok('POST', '/dates_de/_search', { docvalue_fields: ['date_field', { field: 'date_field', format: 'EEEE d MMMM yyyy' }] });
  assert.deepEqual(hit.hits.hits[0].fields.date_field, ['Di., 05 Dez. 2000', 'Dienstag 5 Dezember 2000']);
  const mapping = await ok('GET', '/dates_de/_mapping');
  assert.equal(mapping.dates_de.mappings.properties.date_field.locale, 'de_DE');
  for (const [locale, text] of [['es', 'mar, 5 dic 2000'], ['it', 'mar, 5 dic 2000'], ['nl', 'di, 5 dec. 2000'], ['pt', 'ter., 5 dez. 2000'], ['ROOT', 'Tue, 5 Dec 2000']]) {
    const index = `dates_${locale.toLowerCase()}`;
    await ok('PUT', `/${index}`, { mappings: { properties: { d: { type: 'date', format: 'EEE, d MMM yyyy', locale } } } });
    const res = await node.request('PUT', `/${index}/_doc/1?refresh=true`, { body: { d: text } });
    assert.equal(res.status, 201, `${locale}: ${res.text}`);
    const back = await ok('POST', `/${index}/_search`, { docvalue_fields: ['d'] });
    assert.deepEqual(back.hits.hits[0].fields.d, [text], locale);
  }
  const bad = await node.request('PUT', '/dates_bad', { body: { mappings: { properties: { d: { type: 'date', locale: 'a_b_c_d' } } } } });
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.error.caused_by.reason, 'Locales can have at most 3 parts but got 4: [a, b, c, d]');
});
