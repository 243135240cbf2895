import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConcreteIndexNames } from '../../../src/cluster/index-name-resolver.js';
import {
  LENIENT_EXPAND_OPEN,
  LENIENT_EXPAND_OPEN_CLOSED_HIDDEN,
  STRICT_EXPAND_OPEN,
  STRICT_EXPAND_OPEN_CLOSED,
  STRICT_EXPAND_OPEN_FORBID_CLOSED,
  indicesOptionsFromParams,
  parseExpandWildcards,
  splitCommaLikeJava,
  type IndicesOptions,
} from '../../../src/cluster/indices-options.js';
import { EsError } from '../../../src/common/errors.js';
import { errorBody } from '../../../src/http/error-response.js';
import { clusterState, greenIndex } from '../../helpers/cluster-state-builder.js';

const state = clusterState({
  indices: [
    greenIndex('logs-1', 1, 0, { aliases: ['logs'] }),
    greenIndex('logs-2', 1, 0, { aliases: ['logs', 'current'] }),
    greenIndex('logs-old', 1, 0, { closed: true, aliases: ['logs'] }),
    greenIndex('metrics', 1),
    greenIndex('.secret', 1, 0, { hidden: true }),
    greenIndex('hidden-data', 1, 0, { hidden: true }),
  ],
});

function resolve(options: IndicesOptions, ...expressions: string[]): string[] {
  return resolveConcreteIndexNames(state, options, expressions).sort();
}

function options(params: Record<string, string>, defaults = LENIENT_EXPAND_OPEN_CLOSED_HIDDEN): IndicesOptions {
  return indicesOptionsFromParams((name) => params[name], defaults);
}

function esError(type: string, reason?: string) {
  return (err: unknown) => err instanceof EsError && err.type === type && (reason === undefined || err.reason === reason);
}

describe('all indices', () => {
  test('no expression, _all and * follow the wildcard states', () => {
    const everything = ['.secret', 'hidden-data', 'logs-1', 'logs-2', 'logs-old', 'metrics'];
    assert.deepEqual(resolve(LENIENT_EXPAND_OPEN_CLOSED_HIDDEN), everything);
    assert.deepEqual(resolve(LENIENT_EXPAND_OPEN_CLOSED_HIDDEN, '_all'), everything);
    assert.deepEqual(resolve(LENIENT_EXPAND_OPEN_CLOSED_HIDDEN, '*'), everything);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN_CLOSED), ['logs-1', 'logs-2', 'logs-old', 'metrics']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN), ['logs-1', 'logs-2', 'metrics']);
    assert.deepEqual(resolve(options({ expand_wildcards: 'closed' })), ['logs-old']);
    assert.deepEqual(resolve(options({ expand_wildcards: 'none' })), []);
    assert.deepEqual(resolve(LENIENT_EXPAND_OPEN, '*', '-*'), []);
  });

  test('nothing at all with allow_no_indices=false is index_not_found for _all', () => {
    const empty = clusterState();
    assert.throws(
      () => resolveConcreteIndexNames(empty, { ...STRICT_EXPAND_OPEN, allowNoIndices: false }, []),
      esError('index_not_found_exception', 'no such index [_all] and no indices exist'),
    );
  });
});

describe('wildcards', () => {
  test('match index and alias names, filtered by open/closed', () => {
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, 'logs-*'), ['logs-1', 'logs-2']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN_CLOSED, 'logs-*'), ['logs-1', 'logs-2', 'logs-old']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, 'cur*'), ['logs-2']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, '*-1', 'met*'), ['logs-1', 'metrics']);
  });

  test('hidden indices need expand_wildcards=hidden, except a dot pattern for a dot index', () => {
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, 'hidden*'), []);
    assert.deepEqual(resolve(options({ expand_wildcards: 'open,hidden' }), 'hidden*'), ['hidden-data']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, '.sec*'), ['.secret']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, '*cret'), []);
  });

  test('exclusions apply after a wildcard; before one, -name is a literal name', () => {
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, 'logs-*', '-logs-2'), ['logs-1']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN_CLOSED, 'logs-*', '-*-old'), ['logs-1', 'logs-2']);
    assert.deepEqual(resolve(LENIENT_EXPAND_OPEN, '-logs-2'), []);
    assert.throws(
      () => resolve(STRICT_EXPAND_OPEN, 'metrics', '-logs-2'),
      esError(
        'index_not_found_exception',
        'no such index [-logs-2] and if you intended to exclude this index, ensure that you use wildcards that include it before explicitly excluding it',
      ),
    );
  });

  test('a wildcard matching nothing fails only without allow_no_indices', () => {
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, 'nope-*'), []);
    assert.throws(() => resolve({ ...STRICT_EXPAND_OPEN, allowNoIndices: false }, 'nope-*'), esError('index_not_found_exception', 'no such index [nope-*]'));
  });

  test('with expand_wildcards=none a pattern is a literal name', () => {
    assert.deepEqual(resolve(options({ expand_wildcards: 'none' }), 'logs-*'), []);
    assert.throws(() => resolve(options({ expand_wildcards: 'none', ignore_unavailable: 'false' }), 'logs-*'), esError('index_not_found_exception', 'no such index [logs-*]'));
  });
});

describe('concrete names and aliases', () => {
  test('names resolve whatever their state or visibility; aliases to their indices', () => {
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, 'logs-old'), ['logs-old']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, 'hidden-data'), ['hidden-data']);
    assert.deepEqual(resolve(STRICT_EXPAND_OPEN, 'logs'), ['logs-1', 'logs-2', 'logs-old']);
    assert.deepEqual(resolveConcreteIndexNames(state, STRICT_EXPAND_OPEN, ['metrics', 'logs-1', 'metrics']), ['metrics', 'logs-1']);
  });

  test('a missing name fails unless ignore_unavailable; several expressions report them all', () => {
    assert.throws(() => resolve(STRICT_EXPAND_OPEN, 'nope'), esError('index_not_found_exception', 'no such index [nope]'));
    assert.deepEqual(resolve(LENIENT_EXPAND_OPEN, 'nope', 'metrics'), ['metrics']);
    assert.throws(() => resolve({ ...LENIENT_EXPAND_OPEN, allowNoIndices: false }, 'nope', 'other'), esError('index_not_found_exception', 'no such index [null]'));
    try {
      resolve(STRICT_EXPAND_OPEN, 'nope');
      assert.fail('expected an error');
    } catch (err) {
      assert.deepEqual(errorBody(err as EsError), {
        error: {
          root_cause: [{ type: 'index_not_found_exception', reason: 'no such index [nope]', 'resource.type': 'index_or_alias', 'resource.id': 'nope', index_uuid: '_na_', index: 'nope' }],
          type: 'index_not_found_exception',
          reason: 'no such index [nope]',
          'resource.type': 'index_or_alias',
          'resource.id': 'nope',
          index_uuid: '_na_',
          index: 'nope',
        },
        status: 404,
      });
    }
  });

  test('closed indices are dropped or refused when the options forbid them', () => {
    assert.deepEqual(resolve({ ...STRICT_EXPAND_OPEN_FORBID_CLOSED, ignoreUnavailable: true }, 'logs'), ['logs-1', 'logs-2']);
    assert.throws(() => resolve(STRICT_EXPAND_OPEN_FORBID_CLOSED, 'logs-old'), esError('index_closed_exception', 'closed'));
  });

  test('an alias of several indices is refused when the options require one index', () => {
    assert.throws(
      () => resolve({ ...STRICT_EXPAND_OPEN, allowAliasesToMultipleIndices: false }, 'current', 'logs'),
      esError('illegal_argument_exception', "alias [logs] has more than one index associated with it [logs-1, logs-2, logs-old], can't execute a single index op"),
    );
  });

  test('reserved, empty and remote names', () => {
    assert.throws(() => resolve(LENIENT_EXPAND_OPEN, '_foo'), esError('invalid_index_name_exception', "Invalid index name [_foo], must not start with '_'."));
    assert.throws(() => resolve(LENIENT_EXPAND_OPEN, 'metrics', ''), esError('index_not_found_exception', 'no such index []'));
    assert.deepEqual(resolve(LENIENT_EXPAND_OPEN, 'remote:logs'), []);
    assert.throws(
      () => resolve(STRICT_EXPAND_OPEN, 'a:b', 'metrics', 'c:d'),
      esError('illegal_argument_exception', 'Cross-cluster calls are not supported in this context but remote indices were requested: [a:b, c:d]'),
    );
  });
});

describe('indices options parameters', () => {
  test('absent parameters keep the defaults; expand_wildcards replaces the states', () => {
    assert.equal(options({}), LENIENT_EXPAND_OPEN_CLOSED_HIDDEN);
    assert.deepEqual(parseExpandWildcards('open'), { expandOpen: true, expandClosed: false, expandHidden: false });
    assert.deepEqual(parseExpandWildcards('all'), { expandOpen: true, expandClosed: true, expandHidden: true });
    assert.deepEqual(parseExpandWildcards('all,none,closed'), { expandOpen: false, expandClosed: true, expandHidden: false });
    assert.deepEqual(parseExpandWildcards(''), { expandOpen: false, expandClosed: false, expandHidden: false });
    const parsed = options({ ignore_unavailable: 'false', allow_no_indices: 'false' });
    assert.equal(parsed.ignoreUnavailable, false);
    assert.equal(parsed.allowNoIndices, false);
    assert.equal(parsed.expandClosed, true, 'states keep their defaults');
  });

  test('bad values are ES errors', () => {
    assert.throws(() => parseExpandWildcards('open, closed'), esError('illegal_argument_exception', 'No valid expand wildcard value [ closed]'));
    assert.throws(() => parseExpandWildcards('foo'), esError('illegal_argument_exception', 'No valid expand wildcard value [foo]'));
    assert.throws(
      () => options({ allow_no_indices: 'yes' }),
      (err: unknown) =>
        err instanceof EsError &&
        err.reason === 'Could not convert [allow_no_indices] to boolean' &&
        err.causedBy?.reason === 'Failed to parse value [yes] as only [true] or [false] are allowed.',
    );
  });

  test('comma lists split like Java String.split', () => {
    assert.deepEqual(splitCommaLikeJava('a,b'), ['a', 'b']);
    assert.deepEqual(splitCommaLikeJava('a,,b,,'), ['a', '', 'b']);
    assert.deepEqual(splitCommaLikeJava(''), []);
    assert.deepEqual(splitCommaLikeJava(','), []);
    assert.deepEqual(splitCommaLikeJava(' a'), [' a']);
  });
});
