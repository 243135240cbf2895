/**
 * Parsing the `aggs` object: typed specs, defaults, and Elasticsearch's errors for malformed requests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../../src/common/errors.js';
import { AggregationsCollector, parseAggregations } from '../../../../src/search/aggregations/index.js';
import { testContext } from './fixture.js';

function fails(aggs: unknown, type: string, message: string | RegExp, status?: number): void {
  assert.throws(
    () => parseAggregations(aggs),
    (err: unknown) => {
      assert.ok(err instanceof EsError, String(err));
      assert.equal(err.type, type);
      if (typeof message === 'string') assert.equal(err.message, message);
      else assert.match(err.message, message);
      if (status !== undefined) assert.equal(err.status, status);
      return true;
    },
  );
}

function causedBy(aggs: unknown, outer: string, inner: string): void {
  assert.throws(
    () => parseAggregations(aggs),
    (err: unknown) => {
      assert.ok(err instanceof EsError, String(err));
      assert.equal(err.type, 'x_content_parse_exception');
      assert.equal(err.message, outer);
      assert.equal(err.causedBy?.message, inner);
      return true;
    },
  );
}

test('specs carry defaults, meta and sub-aggregations in request order', () => {
  const [terms, histo] = parseAggregations({
    t: { terms: { field: 'cat' }, meta: { a: 1 }, aggs: { m: { max: { field: 'n' } }, s: { sum: { field: 'n' } } } },
    h: { date_histogram: { field: 'ts', calendar_interval: 'month' } },
  });
  assert.ok(terms !== undefined && terms.type === 'terms');
  assert.equal(terms.size, 10);
  assert.equal(terms.shardSize, -1);
  assert.equal(terms.minDocCount, 1);
  assert.deepEqual(terms.order.elements, [{ kind: 'count', asc: false }, { kind: 'key', asc: true }]);
  assert.deepEqual(terms.meta, { a: 1 });
  assert.deepEqual(terms.subAggregations.map((s) => s.name), ['m', 's']);
  assert.ok(histo !== undefined && histo.type === 'date_histogram');
  assert.equal(histo.minDocCount, 0);
  assert.deepEqual(histo.interval, { kind: 'calendar', unit: 'month', text: 'month' });
  const [ordered] = parseAggregations({ t: { terms: { field: 'cat', order: [{ 'a.b': 'DESC' }, { _count: 'asc' }] } } });
  assert.deepEqual(ordered!.type === 'terms' && ordered.order.elements, [
    { kind: 'path', path: 'a.b', asc: false },
    { kind: 'count', asc: true },
    { kind: 'key', asc: true },
  ]);
});

test('structural errors of the aggs object', () => {
  fails({ 'a>b': { max: { field: 'n' } } }, 'parsing_exception', "Invalid aggregation name [a>b]. Aggregation names can contain any character except '[', ']', and '>'", 400);
  fails({ a: 'max' }, 'parsing_exception', 'Aggregation definition for [a starts with a [VALUE_STRING], expected a [START_OBJECT].');
  fails({ a: { max: 1 } }, 'parsing_exception', 'Expected [START_OBJECT] under [max], but got a [VALUE_NUMBER] in [a]');
  fails({ a: {} }, 'parsing_exception', 'Missing definition for aggregation [a]');
  fails({ a: { meta: {} } }, 'parsing_exception', 'Missing definition for aggregation [a]');
  fails({ a: { max: { field: 'n' }, min: { field: 'n' } } }, 'parsing_exception', 'Found two aggregation type definitions in [a]: [max] and [min]');
  fails({ a: { terms: { field: 'cat' }, aggs: {}, aggregations: {} } }, 'parsing_exception', 'Found two sub aggregation definitions under [a]');
  fails({ a: { termz: { field: 'cat' } } }, 'parsing_exception', 'Unknown aggregation type [termz] did you mean [terms]?');
  fails({ a: { bogus: {} } }, 'parsing_exception', 'Unknown aggregation type [bogus]');
  fails({ a: { composite: {} } }, 'illegal_argument_exception', "The [composite] aggregation is not supported by Gannet's aggregations");
  fails(
    { a: { avg: { field: 'n' }, aggs: { b: { max: { field: 'n' } } } } },
    'aggregation_initialization_exception',
    'Aggregator [a] of type [avg] cannot accept sub-aggregations',
    500,
  );
  fails({ a: { top_hits: {}, aggs: {} } }, 'aggregation_initialization_exception', 'Aggregator [a] of type [top_hits] cannot accept sub-aggregations');
  fails({ a: { avg: {} } }, 'illegal_argument_exception', 'Required one of fields [field, script], but none were specified. ');
});

test('ObjectParser errors inside aggregation bodies', () => {
  fails({ a: { terms: { field: 'cat', sizes: 3 } } }, 'x_content_parse_exception', '[terms] unknown field [sizes] did you mean [size]?');
  fails({ a: { avg: { field: 'n', bogus: true } } }, 'x_content_parse_exception', '[avg] unknown field [bogus]');
  fails({ a: { terms: { field: 5 } } }, 'x_content_parse_exception', "[terms] field doesn't support values of type: VALUE_NUMBER");
  causedBy({ a: { terms: { field: 'cat', size: 0 } } }, '[terms] failed to parse field [size]', '[size] must be greater than 0. Found [0] in [a]');
  causedBy({ a: { terms: { field: 'cat', size: 'x' } } }, '[terms] failed to parse field [size]', 'For input string: "x"');
  causedBy({ a: { terms: { field: 'cat', min_doc_count: -1 } } }, '[terms] failed to parse field [min_doc_count]', '[minDocCount] must be greater than or equal to 0. Found [-1] in [a]');
  causedBy({ a: { terms: { field: 'cat', order: { _count: 'up' } } } }, '[terms] failed to parse field [order]', 'Unknown order direction [up]');
  causedBy({ a: { terms: { field: 'cat', order: {} } } }, '[terms] failed to parse field [order]', 'Must specify at least one field for [order]');
  causedBy({ a: { terms: { field: 'cat', include: { partition: 3, num_partitions: 2 } } } }, '[terms] failed to parse field [include]', 'Partition must be >=0 and < numPartition which is 2');
  causedBy({ a: { terms: { field: 'cat', include: { partition: 0, num_partitions: 2 }, exclude: ['x'] } } }, '[terms] failed to parse field [exclude]', 'Cannot specify any excludes when using a partition-based include');
  causedBy({ a: { histogram: { field: 'n', interval: -1 } } }, '[histogram] failed to parse field [interval]', '[interval] must be >0 for histogram aggregation [a]');
  causedBy({ a: { extended_stats: { field: 'n', sigma: -1 } } }, '[extended_stats] failed to parse field [sigma]', '[sigma] must be greater than or equal to 0. Found [-1.0] in [a]');
  causedBy({ a: { cardinality: { field: 'n', precision_threshold: -5 } } }, '[cardinality] failed to parse field [precision_threshold]', '[precisionThreshold] must be greater than or equal to 0. Found [-5] in [a]');
  fails({ a: { range: { field: 'n' } } }, 'illegal_argument_exception', 'No [ranges] specified for the [a] aggregation');
  causedBy({ a: { percentiles: { field: 'n', percents: [101] } } }, 'Failed to build [percentiles] after last required field arrived', 'percent must be in [0,100], got [101.0]: [a]');
  causedBy({ a: { percentiles: { field: 'n', percents: [] } } }, 'Failed to build [percentiles] after last required field arrived', '[percents] must not be empty: [a]');
});

test('date_histogram interval errors', () => {
  causedBy(
    { a: { date_histogram: { field: 'ts', calendar_interval: '2d' } } },
    '[date_histogram] failed to parse field [calendar_interval]',
    'The supplied interval [2d] could not be parsed as a calendar interval.',
  );
  causedBy(
    { a: { date_histogram: { field: 'ts', calendar_interval: '1d', fixed_interval: '1h' } } },
    '[date_histogram] failed to parse field [fixed_interval]',
    'Cannot use [fixed_interval] with [calendar_interval] configuration option.',
  );
  causedBy(
    { a: { date_histogram: { field: 'ts', fixed_interval: '1h', calendar_interval: '1d' } } },
    '[date_histogram] failed to parse field [calendar_interval]',
    'Cannot use [calendar_interval] with [fixed_interval] configuration option.',
  );
  causedBy(
    { a: { date_histogram: { field: 'ts', fixed_interval: '1y' } } },
    '[date_histogram] failed to parse field [fixed_interval]',
    'failed to parse setting [date_histogram.fixedInterval] with value [1y] as a time value: unit is missing or unrecognized',
  );
  fails({ a: { date_histogram: { field: 'ts', interval: '1d' } } }, 'x_content_parse_exception', /^\[date_histogram\] unknown field \[interval\]/);
  causedBy({ a: { date_histogram: { field: 'ts', calendar_interval: 'day', time_zone: 'Mars/Olympus' } } }, '[date_histogram] failed to parse field [time_zone]', 'Unknown time-zone ID: Mars/Olympus');
  // Neither interval: ES fails when building the aggregator.
  const specs = parseAggregations({ a: { date_histogram: { field: 'ts' } } });
  assert.throws(() => new AggregationsCollector(specs, testContext()), { type: 'illegal_argument_exception', message: 'Invalid interval specified, must be non-null and non-empty' });
});

test('field type errors when aggregators are created', () => {
  const create = (aggs: unknown) => () => new AggregationsCollector(parseAggregations(aggs), testContext());
  assert.throws(create({ a: { avg: { field: 'cat' } } }), { type: 'illegal_argument_exception', message: 'Field [cat] of type [keyword] is not supported for aggregation [avg]' });
  assert.throws(create({ a: { histogram: { field: 'ts', interval: 10 } } }), { message: 'Field [ts] of type [date] is not supported for aggregation [histogram]' });
  assert.throws(create({ a: { terms: { field: 'body' } } }), { type: 'illegal_argument_exception', message: /^Fielddata is disabled on \[body\] in \[test\]\. Text fields are not optimised/ });
  assert.throws(create({ a: { terms: { field: 'n', include: 'a.*' } } }), { message: /cannot support regular expression style include\/exclude settings/ });
  // Unmapped fields are fine: they produce empty results.
  create({ a: { avg: { field: 'nope' } }, b: { terms: { field: 'nope' } } })();
});
