/**
 * The `date_nanos` field type over HTTP, nanoseconds end to end as ES 8 answers (its YAML test 240_date_nanos
 * and DateFieldMapper at Resolution.NANOSECONDS): parsing, range queries with date math, sort values as long
 * nanoseconds (exact past 2^53), aggregations at millisecond resolution, docvalue_fields/fields printing,
 * a date and a date_nanos index sorted and aggregated together (numeric_type too), and the range errors.
 * JSON numbers beyond 2^53 are checked in the response text: JSON.parse would round them.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

async function bulk(lines: unknown[]): Promise<void> {
  // A string is a raw line (JSON.stringify would reprint a number like 1540815132123.4567 with other digits).
  const body = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
  const res = await node.request('POST', '/_bulk?refresh=true', { raw: body, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.body.errors, false, res.text);
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'nanos-node' } });
  for (const [index, type] of [['date_ns', 'date_nanos'], ['date_ms', 'date']] as const) {
    const res = await node.request('PUT', `/${index}`, { body: { settings: { number_of_shards: 3 }, mappings: { properties: { date: { type }, field: { type: 'long' } } } } });
    assert.equal(res.status, 200, res.text);
  }
  await bulk([
    { index: { _index: 'date_ns', _id: 'first' } },
    { date: '2018-10-29T12:12:12.123456789Z', field: 1 },
    { index: { _index: 'date_ns', _id: 'second' } },
    { date: '2018-10-29T12:12:12.987654321Z', field: 2 },
    { index: { _index: 'date_ns', _id: 'third' } },
    { date: '2018-10-30T12:12:12.123456789Z', field: 3 },
    { index: { _index: 'date_ns', _id: 'millis' } },
    '{"date":1540815132123.4567,"field":4}',
    { index: { _index: 'date_ms', _id: 'date_ms_1' } },
    { date: '2018-10-29T12:12:12.987Z' },
    { index: { _index: 'date_ms', _id: 'date_ms_2' } },
    { date: '2018-10-30T12:12:12.987Z' },
  ]);
});

after(async () => {
  await node.stop();
});

/** [id, raw sort value text] of each hit, read from the response text so nanoseconds stay exact. */
async function sorted(index: string, body: unknown): Promise<Array<[string, string]>> {
  const res = await node.request('POST', `/${index}/_search`, { body });
  assert.equal(res.status, 200, res.text);
  const out: Array<[string, string]> = [];
  for (const match of res.text.matchAll(/"_id":"([^"]+)".*?"sort":\[([^\]]*)\]/g)) out.push([match[1]!, match[2]!]);
  return out;
}

test('sorting on date_nanos: sort values are the long nanoseconds, exactly (240_date_nanos)', async () => {
  assert.deepEqual(await sorted('date_ns', { sort: [{ date: 'desc' }], _source: false }), [
    ['third', '1540901532123456789'],
    ['second', '1540815132987654321'],
    ['first', '1540815132123456789'],
    ['millis', '1540815132123456700'],
  ]);
  assert.deepEqual(await sorted('date_ns', { sort: [{ date: 'asc' }], _source: false, size: 2 }), [
    ['millis', '1540815132123456700'],
    ['first', '1540815132123456789'],
  ]);
  // search_after with an exact long: only what sorts strictly after it.
  assert.deepEqual(await sorted('date_ns', { sort: [{ date: 'asc' }], _source: false, search_after: ['1540815132123456700'] }), [
    ['first', '1540815132123456789'],
    ['second', '1540815132987654321'],
    ['third', '1540901532123456789'],
  ]);
  assert.deepEqual(await sorted('date_ns', { sort: [{ date: { order: 'asc', format: 'strict_date_optional_time_nanos' } }], _source: false, size: 2 }), [
    ['millis', '"2018-10-29T12:12:12.1234567Z"'],
    ['first', '"2018-10-29T12:12:12.123456789Z"'],
  ]);
});

test('range queries compare every nanosecond; rounding and date math as ES at nanosecond resolution', async () => {
  const ids = async (range: unknown) => {
    const res = await node.request('POST', '/date_ns/_search', { body: { query: { range: { date: range } }, _source: false } });
    assert.equal(res.status, 200, res.text);
    return res.body.hits.hits.map((hit: { _id: string }) => hit._id).sort();
  };
  assert.deepEqual(await ids({ gt: '2018-10-29T12:12:12.123456700Z', lte: '2018-10-29T12:12:12.123456789Z' }), ['first']);
  // An exclusive lower bound rounds up first: gt .1234567 means after .123456799.
  assert.deepEqual(await ids({ gt: '2018-10-29T12:12:12.1234567Z', lte: '2018-10-29T12:12:12.123456789Z' }), []);
  assert.deepEqual(await ids({ gte: '2018-10-29T12:12:12.123456789Z', lt: '2018-10-29T12:12:12.987654321Z' }), ['first']);
  assert.deepEqual(await ids({ gte: '2018-10-29T12:12:12.123456790Z' }), ['second', 'third']);
  // A date without its nanoseconds, rounded up for lte: the whole second up to .999999999.
  assert.deepEqual(await ids({ lte: '2018-10-29T12:12:12' }), ['first', 'millis', 'second']);
  assert.deepEqual(await ids({ gt: '2018-10-29T12:12:12.123' }), ['second', 'third']);
  assert.deepEqual(await ids({ gte: '2018-10-29||/d', lte: '2018-10-29||/d' }), ['first', 'millis', 'second']);
  assert.deepEqual(await ids({ gte: '2018-10-29T12:12:12.123456789Z||+1d' }), ['third']);
  assert.deepEqual(await ids({ gte: '1540815132987', format: 'epoch_millis' }), ['second', 'third']);
  assert.deepEqual(await ids({ gte: 'now-20y' }), ['first', 'millis', 'second', 'third']);
  const term = await node.request('POST', '/date_ns/_search', { body: { query: { term: { date: '2018-10-29T12:12:12.987654321Z' } } } });
  assert.deepEqual(term.body.hits.hits.map((hit: { _id: string }) => hit._id), ['second']);
});

test('out of range dates are refused with DateUtils\' words, in documents and in queries', async () => {
  const doc = await node.request('PUT', '/date_ns/_doc/old', { body: { date: '1969-12-31T23:59:59Z' } });
  assert.equal(doc.status, 400);
  assert.equal(doc.body.error.reason, "[1:9] failed to parse field [date] of type [date_nanos] in document with id 'old'. Preview of field's value: '1969-12-31T23:59:59Z'");
  assert.deepEqual(doc.body.error.caused_by, {
    type: 'illegal_argument_exception',
    reason: 'date[1969-12-31T23:59:59Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution',
  });
  const late = await node.request('PUT', '/date_ns/_doc/late', { body: { date: '2262-04-11T23:47:16.854775808Z' } });
  assert.equal(late.body.error.caused_by.reason, 'date[2262-04-11T23:47:16.854775808Z] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution');
  const query = await node.request('POST', '/date_ns/_search', { body: { query: { range: { date: { gte: '1960-01-01' } } } } });
  assert.equal(query.status, 400);
  assert.equal(
    query.body.error.root_cause[0].reason,
    'failed to create query: date[1960-01-01T00:00:00Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution',
  );
});

test('docvalue_fields across a date and a date_nanos index (240_date_nanos), and fields at nanosecond resolution', async () => {
  const fields = async (format: string) => {
    const res = await node.request('POST', '/date*/_search', { body: { query: { ids: { values: ['first', 'date_ms_1'] } }, docvalue_fields: [{ field: 'date', format }], sort: [{ date: 'desc' }] } });
    assert.equal(res.status, 200, res.text);
    return res.body.hits.hits.map((hit: { _id: string; fields: { date: string[] } }) => [hit._id, hit.fields.date]);
  };
  // Raw longs compare as they are: the nanosecond value sorts first, as in ES.
  assert.deepEqual(await fields('strict_date_optional_time'), [['first', ['2018-10-29T12:12:12.123Z']], ['date_ms_1', ['2018-10-29T12:12:12.987Z']]]);
  assert.deepEqual(await fields('epoch_millis'), [['first', ['1540815132123.456789']], ['date_ms_1', ['1540815132987']]]);
  assert.deepEqual(await fields("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSX"), [['first', ['2018-10-29T12:12:12.123456789Z']], ['date_ms_1', ['2018-10-29T12:12:12.987000000Z']]]);
  const res = await node.request('POST', '/date_ns/_search', { body: { query: { ids: { values: ['first', 'millis'] } }, fields: ['date'], docvalue_fields: [{ field: 'field' }], sort: [{ field: 'asc' }], _source: false } });
  assert.deepEqual(res.body.hits.hits.map((hit: { fields: { date: string[] } }) => hit.fields.date), [['2018-10-29T12:12:12.123456789Z'], ['2018-10-29T12:12:12.1234568Z']]);
  // (the source's 1540815132123.4567 is read back as the double Jackson parses, printed with its shortest digits, as ES does)
});

test('sorting a date and a date_nanos index together: raw longs, or one resolution with numeric_type', async () => {
  assert.deepEqual((await sorted('date*', { sort: [{ date: 'asc' }], _source: false })).map(([id]) => id), ['date_ms_1', 'date_ms_2', 'millis', 'first', 'second', 'third']);
  assert.deepEqual(await sorted('date*', { sort: [{ date: { order: 'desc', numeric_type: 'date_nanos' } }], _source: false, size: 4 }), [
    ['date_ms_2', '1540901532987000000'],
    ['third', '1540901532123456789'],
    ['second', '1540815132987654321'],
    ['date_ms_1', '1540815132987000000'],
  ]);
  assert.deepEqual(await sorted('date*', { sort: [{ date: { order: 'asc', numeric_type: 'date' } }, { field: 'asc' }], _source: false, size: 4 }), [
    ['first', '1540815132123,1'],
    ['millis', '1540815132123,4'],
    ['second', '1540815132987,2'],
    ['date_ms_1', '1540815132987,9223372036854775807'],
  ]);
  const bad = await node.request('POST', '/date_ns/_search', { body: { sort: [{ date: { numeric_type: 'nanos' } }] } });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body.error), /invalid value for \[numeric_type\], must be \[long, double, date, date_nanos\], got nanos/);
});

test('aggregations see milliseconds: date_histogram keys, min/max and terms with value_as_string (240_date_nanos)', async () => {
  const res = await node.request('POST', '/date*/_search', {
    body: {
      size: 0,
      aggs: {
        date: { date_histogram: { field: 'date', calendar_interval: '1d' } },
        oldest: { min: { field: 'date' } },
        newest: { max: { field: 'date' } },
      },
    },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.aggregations.date.buckets, [
    { key_as_string: '2018-10-29T00:00:00.000Z', key: 1540771200000, doc_count: 4 },
    { key_as_string: '2018-10-30T00:00:00.000Z', key: 1540857600000, doc_count: 2 },
  ]);
  assert.deepEqual(res.body.aggregations.oldest, { value: 1540815132123, value_as_string: '2018-10-29T12:12:12.123Z' });
  assert.deepEqual(res.body.aggregations.newest, { value: 1540901532987, value_as_string: '2018-10-30T12:12:12.987Z' });
  const terms = await node.request('POST', '/date_ns/_search', { body: { size: 0, aggs: { t: { terms: { field: 'date', order: { _key: 'asc' } } } } } });
  assert.deepEqual(terms.body.aggregations.t.buckets, [
    { key: 1540815132123, key_as_string: '2018-10-29T12:12:12.123Z', doc_count: 2 },
    { key: 1540815132987, key_as_string: '2018-10-29T12:12:12.987Z', doc_count: 1 },
    { key: 1540901532123, key_as_string: '2018-10-30T12:12:12.123Z', doc_count: 1 },
  ]);
});

test('_field_caps reports date_nanos', async () => {
  const res = await node.request('GET', '/date_ns/_field_caps?fields=date');
  assert.deepEqual(res.body.fields.date, { date_nanos: { type: 'date_nanos', metadata_field: false, searchable: true, aggregatable: true } });
});

test('numeric_type date_nanos on a date before 1970 fails the search as DateUtils.toNanoSeconds does', async () => {
  const created = await node.request('PUT', '/date_old', { body: { settings: { number_of_shards: 1 }, mappings: { properties: { date: { type: 'date' } } } } });
  assert.equal(created.status, 200, created.text);
  await bulk([{ index: { _index: 'date_old', _id: 'before' } }, { date: '1969-12-31T23:59:59.999Z' }, { index: { _index: 'date_old', _id: 'after' } }, { date: '2000-01-01' }]);
  const res = await node.request('POST', '/date_old/_search', { body: { sort: [{ date: { numeric_type: 'date_nanos' } }] } });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.type, 'search_phase_execution_exception');
  assert.equal(res.body.error.root_cause[0].type, 'illegal_argument_exception');
  assert.equal(res.body.error.root_cause[0].reason, 'milliSeconds [-1] are before the epoch in 1970 and cannot be processed in nanosecond resolution');
  // Dates inside the nanosecond range still sort, at nanosecond resolution.
  const fine = await node.request('POST', '/date_old/_search', { body: { query: { ids: { values: ['after'] } }, sort: [{ date: { numeric_type: 'date_nanos' } }] } });
  assert.equal(fine.status, 200, fine.text);
  assert.match(fine.text, /"sort":\[946684800000000000\]/);
  await node.request('DELETE', '/date_old');
});
