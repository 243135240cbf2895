/** Index analysis settings -> registry, and Elasticsearch's error messages for bad configurations. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../src/common/errors.js';
import { AnalysisRegistry } from '../../../src/analysis/index.js';
import { collect, terms } from './helpers.js';

function rejects(build: () => unknown, reason: string): void {
  assert.throws(build, (err: unknown) => {
    assert.ok(err instanceof EsError, String(err));
    assert.equal(err.type, 'illegal_argument_exception');
    assert.equal(err.status, 400);
    assert.equal(err.reason, reason);
    return true;
  });
}

describe('index analysis settings', () => {
  test('custom analyzer with configured tokenizer and filters', () => {
    const registry = AnalysisRegistry.forIndex({
      analyzer: {
        my_analyzer: { type: 'custom', tokenizer: 'my_tokenizer', filter: ['lowercase', 'my_stop', 'asciifolding'] },
      },
      tokenizer: { my_tokenizer: { type: 'standard', max_token_length: 5 } },
      filter: { my_stop: { type: 'stop', stopwords: ['the', 'over'] } },
    });
    const out = collect(registry.analyzer('my_analyzer').tokenStream("The 2 QUICK Brown-Foxes jumped over the lazy dog's bône."));
    assert.deepEqual(out.terms, ['2', 'quick', 'brown', 'foxes', 'jumpe', 'd', 'lazy', "dog's", 'bone']);
    assert.deepEqual(out.increments, [2, 1, 1, 1, 1, 1, 3, 1, 1]);
    assert.equal(registry.analyzer('my_analyzer').positionIncrementGap, 100);
  });

  test('a custom analyzer needs no type when it names a tokenizer; settings may be strings or dotted keys', () => {
    const registry = AnalysisRegistry.forIndex({
      'analyzer.folding.tokenizer': 'whitespace',
      'analyzer.folding.filter': 'lowercase, asciifolding',
      'analyzer.folding.position_increment_gap': '10',
    });
    assert.deepEqual(terms(registry.analyzer('folding'), 'Ça VA'), ['ca', 'va']);
    assert.equal(registry.analyzer('folding').positionIncrementGap, 10);
  });

  test('configured built-in analyzer types and stop word lists', () => {
    const registry = AnalysisRegistry.forIndex({
      analyzer: {
        std_english: { type: 'standard', stopwords: '_english_' },
        std_mixed: { type: 'standard', stopwords: ['_english_', 'quick'] },
        eng: { type: 'english', stem_exclusion: ['jumped'] },
        stp: { type: 'stop', stopwords: '_none_' },
      },
    });
    assert.deepEqual(terms(registry.analyzer('std_english'), 'The quick fox'), ['quick', 'fox']);
    assert.deepEqual(terms(registry.analyzer('std_mixed'), 'The quick fox'), ['fox']);
    assert.deepEqual(terms(registry.analyzer('eng'), 'jumped jumping'), ['jumped', 'jump']);
    assert.deepEqual(terms(registry.analyzer('stp'), 'the fox'), ['the', 'fox']);
  });

  test('stop filter with ignore_case, stemmer languages, length, keyword_marker, asciifolding preserve_original', () => {
    const registry = AnalysisRegistry.forIndex({
      analyzer: {
        a: {
          tokenizer: 'whitespace',
          filter: ['my_stop', 'possessive', 'my_length', 'protect', 'lowercase', 'porter', 'fold'],
        },
      },
      filter: {
        my_stop: { type: 'stop', stopwords: ['THE'], ignore_case: true },
        possessive: { type: 'stemmer', language: 'possessive_english' },
        my_length: { type: 'length', min: 2 },
        protect: { type: 'keyword_marker', keywords: ['Running'] },
        porter: { type: 'stemmer', language: 'english' },
        fold: { type: 'asciifolding', preserve_original: 'true' },
      },
    });
    const out = collect(registry.analyzer('a').tokenStream("the Running dog's x jumping café"));
    assert.deepEqual(out.terms, ['running', 'dog', 'jump', 'cafe', 'café']);
    assert.deepEqual(out.increments, [2, 1, 2, 1, 0]);
  });

  test('default analyzers', () => {
    const plain = AnalysisRegistry.forIndex({});
    assert.deepEqual(terms(plain.defaultAnalyzer, 'The Fox'), ['the', 'fox']);
    assert.equal(plain.defaultSearchAnalyzer, plain.defaultAnalyzer);
    const configured = AnalysisRegistry.forIndex({
      analyzer: { default: { type: 'whitespace' }, default_search: { type: 'keyword' } },
    });
    assert.deepEqual(terms(configured.defaultAnalyzer, 'The Fox'), ['The', 'Fox']);
    assert.deepEqual(terms(configured.defaultSearchAnalyzer, 'The Fox'), ['The Fox']);
    assert.equal(configured.defaultSearchQuotedAnalyzer, configured.defaultSearchAnalyzer);
  });

  test('built-in analyzers are available by name in every index', () => {
    const registry = AnalysisRegistry.forIndex(undefined);
    for (const name of ['standard', 'simple', 'whitespace', 'keyword', 'stop', 'english']) assert.ok(registry.findAnalyzer(name), name);
    assert.equal(registry.findAnalyzer('nope'), undefined);
  });
});

describe('Elasticsearch error messages', () => {
  test('unknown names and types', () => {
    rejects(() => AnalysisRegistry.forIndex({ analyzer: { a: { type: 'custom', tokenizer: 't' } } }), 'Custom Analyzer [a] failed to find tokenizer under name [t]');
    rejects(
      () => AnalysisRegistry.forIndex({ analyzer: { a: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'nope'] } } }),
      'Custom Analyzer [a] failed to find filter under name [nope]',
    );
    rejects(
      () => AnalysisRegistry.forIndex({ analyzer: { a: { tokenizer: 'standard', char_filter: ['html_strip'] } } }),
      'Custom Analyzer [a] failed to find char_filter under name [html_strip]',
    );
    rejects(() => AnalysisRegistry.forIndex({ analyzer: { a: { type: 'custom' } } }), 'Custom Analyzer [a] must be configured with a tokenizer');
    rejects(() => AnalysisRegistry.forIndex({ analyzer: { a: { filter: ['lowercase'] } } }), 'analyzer [a] must specify either an analyzer type, or a tokenizer');
    rejects(() => AnalysisRegistry.forIndex({ analyzer: { a: { type: 'klingon' } } }), 'Unknown analyzer type [klingon] for [a]');
    rejects(() => AnalysisRegistry.forIndex({ tokenizer: { t: { type: 'nope' } } }), 'Unknown tokenizer type [nope] for [t]');
    rejects(() => AnalysisRegistry.forIndex({ filter: { f: { stopwords: ['a'] } } }), 'filter [f] must specify either an analyzer type, or a tokenizer');
    rejects(() => AnalysisRegistry.forIndex({ analyzer: { _a: { type: 'standard' } } }), `analyzer name must not start with '_'. got "_a"`);
  });

  test('bad parameter values', () => {
    rejects(() => AnalysisRegistry.forIndex({ tokenizer: { t: { type: 'standard', max_token_length: 0 } } }), 'maxTokenLength must be greater than zero');
    rejects(() => AnalysisRegistry.forIndex({ tokenizer: { t: { type: 'standard', max_token_length: 'x' } } }), 'Failed to parse value [x] for setting [max_token_length]');
    rejects(() => AnalysisRegistry.forIndex({ filter: { f: { type: 'stop', ignore_case: 'yes' } } }), 'Failed to parse value [yes] as only [true] or [false] are allowed.');
    rejects(() => AnalysisRegistry.forIndex({ filter: { f: { type: 'length', min: 5, max: 2 } } }), 'maximum length must not be greater than minimum length');
    rejects(
      () => AnalysisRegistry.forIndex({ filter: { f: { type: 'stop', stopwords: '_french_' } } }),
      'stop words list [_french_] is not supported yet: only [_english_] and [_none_] are',
    );
  });

  test('looking up analyzers', () => {
    rejects(() => AnalysisRegistry.forIndex({}).analyzer('x'), 'failed to find analyzer [x]');
    rejects(() => AnalysisRegistry.global().analyzer('x'), 'failed to find global analyzer [x]');
  });
});

describe('normalizers (keyword fields)', () => {
  test('built-in lowercase and custom normalizers keep the whole value as one token', () => {
    const registry = AnalysisRegistry.forIndex({
      normalizer: { folded: { type: 'custom', filter: ['lowercase', 'asciifolding', 'trim'] } },
    });
    assert.deepEqual(terms(registry.findNormalizer('lowercase')!, 'New York'), ['new york']);
    assert.deepEqual(terms(registry.findNormalizer('folded')!, ' Ça Va '), ['ca va']);
    assert.equal(registry.findNormalizer('nope'), undefined);
  });
  test('Elasticsearch errors for bad normalizers', () => {
    rejects(() => AnalysisRegistry.forIndex({ normalizer: { n: { filter: ['porter_stem'] } } }), 'Custom normalizer [n] may not use filter [porter_stem]');
    rejects(() => AnalysisRegistry.forIndex({ normalizer: { n: { filter: ['nope'] } } }), 'Custom Analyzer [n] failed to find filter under name [nope]');
    rejects(() => AnalysisRegistry.forIndex({ normalizer: { n: { tokenizer: 'standard' } } }), 'Custom normalizer [n] cannot configure a tokenizer');
    rejects(() => AnalysisRegistry.forIndex({ normalizer: { n: { type: 'fancy' } } }), 'Unknown normalizer type [fancy] for [n]');
  });
});

describe('transient analyzers for _analyze', () => {
  test('tokenizer and filters by name or inline definition', () => {
    const registry = AnalysisRegistry.global();
    const analyzer = registry.transientAnalyzer({ tokenizer: 'whitespace', filter: ['lowercase', { type: 'stop', stopwords: ['a', 'is', 'this'] }] });
    assert.deepEqual(terms(analyzer, 'this is a test'), ['test']);
    assert.equal(analyzer.positionIncrementGap, 0);
    const inline = registry.transientAnalyzer({ tokenizer: { type: 'standard', max_token_length: 3 } });
    assert.deepEqual(terms(inline, 'abcdef'), ['abc', 'def']);
  });
  test('filters without a tokenizer run over the keyword tokenizer, normalizing filters only', () => {
    assert.deepEqual(terms(AnalysisRegistry.global().transientAnalyzer({ filter: ['lowercase'] }), 'New York'), ['new york']);
    rejects(() => AnalysisRegistry.global().transientAnalyzer({ filter: ['porter_stem'] }), 'Custom normalizer may not use filter [porter_stem]');
  });
  test('index-defined components are visible to the index registry only', () => {
    const registry = AnalysisRegistry.forIndex({ filter: { my_stop: { type: 'stop', stopwords: ['x'] } } });
    assert.deepEqual(terms(registry.transientAnalyzer({ tokenizer: 'standard', filter: ['my_stop'] }), 'x y'), ['y']);
    rejects(() => AnalysisRegistry.global().transientAnalyzer({ tokenizer: 'standard', filter: ['my_stop'] }), 'failed to find global filter under [my_stop]');
    rejects(() => registry.transientAnalyzer({ tokenizer: 'nope' }), 'failed to find tokenizer under [nope]');
    rejects(() => registry.transientAnalyzer({ tokenizer: { max_token_length: 3 } }), 'Missing [type] setting for anonymous tokenizer: {"max_token_length":3}');
    rejects(() => registry.transientAnalyzer({ tokenizer: { type: 'nope' } }), 'failed to find global tokenizer under [nope]');
  });
});
