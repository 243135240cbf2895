import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskManager, TaskId, taskInfoOf, groupByParents, taskMatches } from '../../../src/tasks/index.js';

test('a snapshot carries description and status only when detailed', () => {
  const tm = new TaskManager('n');
  const plain = tm.register({ action: 'a' });
  const rich = tm.register({ action: 'b', description: 'reindex [a] to [b]', status: () => ({ total: 3 }), cancellable: true });
  assert.equal(taskInfoOf(plain, false).description, undefined);
  assert.equal(taskInfoOf(plain, true).description, '', 'ES requests default to an empty description');
  assert.equal(taskInfoOf(plain, true).status, undefined);
  assert.deepEqual(taskInfoOf(rich, true).status, { total: 3 });
  assert.equal(taskInfoOf(rich, true).description, 'reindex [a] to [b]');
  assert.equal(taskInfoOf(rich, false).status, undefined);
  assert.equal(taskInfoOf(rich, false).cancellable, true);
  assert.equal(taskInfoOf(rich, false).cancelled, false);
  assert.ok(taskInfoOf(rich, false).runningTimeNanos >= 0);
});

test('groupByParents nests children and lifts orphans to the top', () => {
  const tm = new TaskManager('n');
  const root = tm.register({ action: 'root' });
  const child = tm.register({ action: 'child', parentTaskId: root.taskId });
  const grand = tm.register({ action: 'grand', parentTaskId: child.taskId });
  const orphan = tm.register({ action: 'orphan', parentTaskId: new TaskId('gone', 9) });
  const infos = [root, child, grand, orphan].map((t) => taskInfoOf(t, false));
  const groups = groupByParents(infos);
  assert.deepEqual(groups.map((g) => g.info.action), ['root', 'orphan']);
  assert.deepEqual(groups[0]!.children.map((g) => g.info.action), ['child']);
  assert.deepEqual(groups[0]!.children[0]!.children.map((g) => g.info.action), ['grand']);
  // A parent that was filtered out: its child becomes top-level.
  assert.deepEqual(groupByParents([infos[2]!]).map((g) => g.info.action), ['grand']);
});

test('taskMatches: action wildcards, parent and target id', () => {
  const tm = new TaskManager('n');
  const parent = tm.register({ action: 'indices:data/write/reindex' });
  const child = tm.register({ action: 'indices:data/write/bulk[s]', parentTaskId: parent.taskId });
  assert.ok(taskMatches({ actions: [] }, child));
  assert.ok(taskMatches({ actions: ['*reindex'] }, parent));
  assert.ok(!taskMatches({ actions: ['*reindex'] }, child));
  assert.ok(taskMatches({ actions: ['cluster:*', 'indices:data/*'] }, child));
  assert.ok(taskMatches({ actions: [], parentTaskId: parent.taskId }, child));
  assert.ok(!taskMatches({ actions: [], parentTaskId: parent.taskId }, parent));
  assert.ok(taskMatches({ actions: [], targetTaskId: new TaskId('n', child.id) }, child));
  assert.ok(!taskMatches({ actions: [], targetTaskId: new TaskId('n', child.id) }, parent));
});
