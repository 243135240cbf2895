import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskId } from '../../../src/tasks/index.js';
import { EsError } from '../../../src/common/errors.js';

function malformed(raw: string): void {
  assert.throws(
    () => TaskId.parse(raw),
    (err: unknown) => err instanceof EsError && err.type === 'illegal_argument_exception' && err.status === 400 && err.reason === `malformed task id ${raw}`,
    raw,
  );
}

test('node:number parses into node id and number', () => {
  const id = TaskId.parse('oTUltX4IQMOUUVeiohTt8A:124');
  assert.ok(id);
  assert.equal(id.nodeId, 'oTUltX4IQMOUUVeiohTt8A');
  assert.equal(id.id, 124);
  assert.equal(id.toString(), 'oTUltX4IQMOUUVeiohTt8A:124');
});

test('absent, empty and "unset" mean no task id, as ES\'s TaskId(String)', () => {
  assert.equal(TaskId.parse(undefined), undefined);
  assert.equal(TaskId.parse(''), undefined);
  assert.equal(TaskId.parse('unset'), undefined);
});

test('-1 is ES\'s unset marker, so node:-1 is no task id', () => {
  assert.equal(TaskId.parse('node:-1'), undefined);
});

test('malformed ids: no colon, non-numeric, split at the first colon, out of long range', () => {
  malformed('foo');
  malformed('-1');
  malformed('123');
  malformed('node:');
  malformed('node:abc');
  malformed('a:b:c');
  malformed('node:1:2');
  malformed('node:1.5');
  malformed('node: 1');
  malformed('node:0x10');
  malformed('node:9223372036854775808');
});

test('the number follows Long.parseLong: sign allowed, leading zeros dropped, full long range', () => {
  assert.equal(TaskId.parse('n:+7')?.toString(), 'n:7');
  assert.equal(TaskId.parse('n:007')?.toString(), 'n:7');
  assert.equal(TaskId.parse('n:-5')?.id, -5);
  assert.equal(TaskId.parse('n:9223372036854775807')?.toString(), 'n:9223372036854775807');
});

test('the node part may be empty, as ES does not check it when parsing', () => {
  const id = TaskId.parse(':5');
  assert.equal(id?.nodeId, '');
  assert.equal(id?.id, 5);
});

test('equality compares node and number', () => {
  assert.ok(TaskId.parse('a:1')!.equals(new TaskId('a', 1)));
  assert.ok(!TaskId.parse('a:1')!.equals(new TaskId('b', 1)));
  assert.ok(!TaskId.parse('a:1')!.equals(undefined));
});
