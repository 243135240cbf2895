/** The bulk action line read without JSON.parse: exactly the plain form, and the same items as the general reader. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPlainActionLine } from '../../../../src/actions/documents/plain-action-line.js';
import { parseBulkBody, type BulkDefaults } from '../../../../src/actions/documents/bulk-request-parser.js';

const read = (line: string) => readPlainActionLine(Buffer.from(line, 'utf8'));

test('the plain form: each action, _index, _id and routing in any order, or none', () => {
  assert.deepEqual(read('{"index":{"_index":"logs","_id":"42"}}'), { action: 'index', index: 'logs', id: '42', routing: undefined });
  assert.deepEqual(read('{"create":{"_id":"a-1","_index":"x.y"}}'), { action: 'create', index: 'x.y', id: 'a-1', routing: undefined });
  assert.deepEqual(read('{"delete":{"routing":"r","_id":"7"}}'), { action: 'delete', index: undefined, id: '7', routing: 'r' });
  assert.deepEqual(read('{"update":{"_id":"u"}}'), { action: 'update', index: undefined, id: 'u', routing: undefined });
  assert.deepEqual(read('{"index":{}}'), { action: 'index', index: undefined, id: undefined, routing: undefined });
  assert.deepEqual(read('{"index":{"_id":""}}'), { action: 'index', index: undefined, id: '', routing: undefined });
  assert.deepEqual(read('{"index":{"_id":"a}}b, c:{"}}'), { action: 'index', index: undefined, id: 'a}}b, c:{', routing: undefined });
});

test('anything else is left to the general reader', () => {
  for (const line of [
    '{"index": {"_id":"1"}}',
    '{"index":{"_id":"1"} }',
    '{"index":{"_id":1}}',
    '{"index":{"_id":"\\u0041"}}',
    '{"index":{"_id":"é"}}',
    '{"index":{"_id":"a\tb"}}',
    '{"index":{"_id":"1","_id":"2"}}',
    '{"index":{"_id":"1","version":3}}',
    '{"index":{"_id":"1",}}',
    '{"index":{"_id":"1"}',
    '{"index":{"_id":"1"}}}',
    '{"index":{"_id":"1"},"delete":{}}',
    '{"upsert":{"_id":"1"}}',
    '{"indexx":{}}',
    '{"index":{"_id":"1""}}',
    '{"index":{"_id"}}',
    '{"index":null}',
    '[]',
    '',
  ]) {
    assert.equal(read(line), undefined, line);
  }
});

test('a bulk body of plain lines gives the items the general reader gives for the same lines', () => {
  const defaults: BulkDefaults = { index: 'dflt', routing: 'dr', fetchSource: { fetch: false, includes: [], excludes: [] }, requireAlias: true };
  const lines: string[] = [];
  const names = ['_index', '_id', 'routing'];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 300; i++) {
    const action = ['index', 'create', 'delete', 'update'][random(4)]!;
    const fields = names.filter(() => random(3) > 0);
    const printable = ' !#$%&\'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}~';
    const value = () => Array.from({ length: random(12) }, () => printable[random(printable.length)]).join('');
    const meta = fields.map((name) => `"${name}":"${value()}"`).join(',');
    lines.push(`{"${action}":{${meta}}}`);
    if (action === 'update') lines.push('{"doc":{"x":1}}');
    else if (action !== 'delete') lines.push(`{"n":${i}}`);
  }
  const plainBody = `${lines.join('\n')}\n`;
  // A space after the first brace keeps every action line off the plain path.
  const generalBody = `${lines.map((line) => (line.startsWith('{"') && !line.startsWith('{"doc"') && !line.startsWith('{"n"') ? `{ ${line.slice(1)}` : line)).join('\n')}\n`;
  assert.ok(lines.every((line) => line.startsWith('{"doc"') || line.startsWith('{"n"') || read(line) !== undefined), 'every generated action line is plain');
  const plain = parseBulkBody(Buffer.from(plainBody), defaults);
  const general = parseBulkBody(Buffer.from(generalBody), defaults);
  assert.equal(plain.length, general.length);
  const comparable = (item: (typeof plain)[number]) => ({ ...item, source: item.source === undefined ? undefined : Buffer.from(item.source).toString('utf8') });
  assert.deepEqual(plain.map(comparable), general.map(comparable));
});
