import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskManager, TaskId, type Task } from '../../../src/tasks/index.js';
import { EsError } from '../../../src/common/errors.js';

function isEsError(type: string, reason: string) {
  return (err: unknown) => err instanceof EsError && err.type === type && err.reason === reason;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

test('ids start at 1 and increase; register and unregister track running tasks', () => {
  const tm = new TaskManager('node1');
  const a = tm.register({ action: 'a' });
  const b = tm.register({ action: 'b' });
  assert.equal(a.id, 1);
  assert.equal(b.id, 2);
  assert.equal(a.taskId.toString(), 'node1:1');
  assert.deepEqual(tm.list().map((t) => t.id), [1, 2]);
  tm.unregister(a);
  assert.equal(tm.get(1), undefined);
  assert.ok(a.isCompleted);
  assert.deepEqual(tm.list().map((t) => t.id), [2]);
  const c = tm.register({ action: 'c' });
  assert.equal(c.id, 3, 'ids are never reused');
});

test('run unregisters the task however the work ends', async () => {
  const tm = new TaskManager('n');
  await assert.rejects(tm.run({ action: 'x' }, async () => { throw new Error('boom'); }), /boom/);
  assert.equal(tm.list().length, 0);
});

test('children and descendants follow parent ids', () => {
  const tm = new TaskManager('n');
  const parent = tm.register({ action: 'p' });
  const child = tm.register({ action: 'c', parentTaskId: parent.taskId });
  const grandchild = tm.register({ action: 'g', parentTaskId: child.taskId });
  const other = tm.register({ action: 'o' });
  assert.deepEqual(tm.childrenOf(parent.taskId), [child]);
  assert.deepEqual(tm.descendantsOf(parent.taskId), [child, grandchild]);
  assert.deepEqual(tm.descendantsOf(other.taskId), []);
  assert.ok(tm.isSelfOrAncestor(parent.taskId, grandchild));
  assert.ok(tm.isSelfOrAncestor(grandchild.taskId, grandchild));
  assert.ok(!tm.isSelfOrAncestor(other.taskId, grandchild));
});

test('cancelling a parent cancels its cancellable children and grandchildren with the same reason', async () => {
  const tm = new TaskManager('n');
  const parent = tm.register({ action: 'p', cancellable: true });
  const child = tm.register({ action: 'c', parentTaskId: parent.taskId, cancellable: true });
  const grandchild = tm.register({ action: 'g', parentTaskId: child.taskId, cancellable: true });
  const unrelated = tm.register({ action: 'u', cancellable: true });
  await tm.cancel(parent, 'by user request', false);
  for (const task of [parent, child, grandchild]) {
    assert.ok(task.isCancelled, task.action);
    assert.equal(task.cancellationReason, 'by user request');
    assert.ok(task.signal.aborted, 'the abort signal wakes waiting work');
    assert.throws(() => task.ensureNotCancelled(), isEsError('task_cancelled_exception', 'task cancelled [by user request]'));
  }
  assert.ok(!unrelated.isCancelled);
});

test('a non-cancellable child is left running, and ES does not reach through it', async () => {
  const tm = new TaskManager('n');
  const parent = tm.register({ action: 'p', cancellable: true });
  const plain = tm.register({ action: 'plain', parentTaskId: parent.taskId });
  const below = tm.register({ action: 'below', parentTaskId: plain.taskId, cancellable: true });
  await tm.cancel(parent, 'r', false);
  assert.ok(!plain.isCancelled);
  assert.ok(!below.isCancelled);
});

test('a banned parent refuses new cancellable children with ES\'s error', async () => {
  const tm = new TaskManager('n');
  // The parent lives on another node; its ban arrived over the transport.
  const remoteParent = new TaskId('other', 7);
  tm.applyBan(remoteParent, 'by user request', true);
  assert.throws(
    () => tm.register({ action: 'c', parentTaskId: remoteParent, cancellable: true }),
    isEsError('task_cancelled_exception', 'task cancelled before starting [by user request]'),
  );
  assert.equal(tm.list().length, 0, 'the refused child is not left registered');
  // Non-cancellable children are not checked against bans, as in ES.
  const plain = tm.register({ action: 'plain', parentTaskId: remoteParent });
  tm.unregister(plain);
  tm.applyBan(remoteParent, '', false);
  const allowed = tm.register({ action: 'c', parentTaskId: remoteParent, cancellable: true });
  assert.ok(!allowed.isCancelled);
});

test('a ban from another node cancels the running children of that parent', () => {
  const tm = new TaskManager('n');
  const remoteParent = new TaskId('other', 7);
  const child = tm.register({ action: 'c', parentTaskId: remoteParent, cancellable: true });
  tm.applyBan(remoteParent, 'by user request', true);
  assert.ok(child.isCancelled);
});

test('a cancelled local parent cannot start children', async () => {
  const tm = new TaskManager('n');
  const parent = tm.register({ action: 'p', cancellable: true });
  await tm.cancel(parent, 'by user request', false);
  assert.throws(
    () => tm.register({ action: 'c', parentTaskId: parent.taskId }),
    isEsError('task_cancelled_exception', 'parent task was cancelled [by user request]'),
  );
});

test('the ban is lifted once the task and its descendants completed', async () => {
  const tm = new TaskManager('n');
  const parent = tm.register({ action: 'p', cancellable: true });
  const child = tm.register({ action: 'c', parentTaskId: parent.taskId });
  await tm.cancel(parent, 'r', false);
  assert.ok(tm.isBanned(parent.taskId));
  tm.unregister(parent);
  await tick();
  assert.ok(tm.isBanned(parent.taskId), 'a child is still running');
  tm.unregister(child);
  await tick();
  await tick();
  assert.ok(!tm.isBanned(parent.taskId));
});

test('bans are propagated to other nodes and lifted after completion', async () => {
  const tm = new TaskManager('n');
  const calls: string[] = [];
  tm.banPropagator = async (parent, reason, ban) => {
    calls.push(`${parent}:${ban}:${reason}`);
  };
  const parent = tm.register({ action: 'p', cancellable: true });
  await tm.cancel(parent, 'by user request', false);
  assert.deepEqual(calls, ['n:1:true:by user request']);
  tm.unregister(parent);
  await tick();
  await tick();
  assert.deepEqual(calls, ['n:1:true:by user request', 'n:1:false:']);
});

test('cancel with wait_for_completion returns only after the task and all descendants completed', async () => {
  const tm = new TaskManager('n');
  const parent = tm.register({ action: 'p', cancellable: true });
  const child = tm.register({ action: 'c', parentTaskId: parent.taskId, cancellable: true });
  const grandchild = tm.register({ action: 'g', parentTaskId: child.taskId });
  let returned = false;
  const cancelling = tm.cancel(parent, 'r', true).then(() => {
    returned = true;
  });
  const finishOrder: string[] = [];
  for (const task of [parent, child]) {
    await tick();
    assert.equal(returned, false, `still waiting before ${task.action} ends`);
    finishOrder.push(task.action);
    tm.unregister(task);
  }
  await tick();
  assert.equal(returned, false, 'the grandchild is still running');
  tm.unregister(grandchild);
  await cancelling;
  assert.ok(returned);
});

test('cancel without waiting returns while the task still runs', async () => {
  const tm = new TaskManager('n');
  const task = tm.register({ action: 'p', cancellable: true });
  await tm.cancel(task, 'r', false);
  assert.ok(task.isCancelled);
  assert.ok(!task.isCompleted);
});

test('a task that is not cancellable refuses cancellation with ES\'s error', async () => {
  const tm = new TaskManager('n');
  const task = tm.register({ action: 'p' });
  await assert.rejects(tm.cancel(task, 'r', false), isEsError('illegal_argument_exception', "task [n:1] doesn't support cancellation"));
  assert.ok(!task.isCancelled);
});

test('repeating a cancel is harmless and keeps the first reason', async () => {
  const tm = new TaskManager('n');
  const task: Task = tm.register({ action: 'p', cancellable: true });
  await tm.cancel(task, 'first', false);
  await tm.cancel(task, 'second', false);
  assert.equal(task.cancellationReason, 'first');
  const waiting = tm.cancel(task, 'third', true);
  tm.unregister(task);
  await waiting;
});

test('waitForTaskAndDescendants waits for children that outlive their parent', async () => {
  const tm = new TaskManager('n');
  const parent = tm.register({ action: 'p' });
  const child = tm.register({ action: 'c', parentTaskId: parent.taskId });
  let done = false;
  const waiting = tm.waitForTaskAndDescendants(parent).then(() => {
    done = true;
  });
  tm.unregister(parent);
  await tick();
  assert.equal(done, false);
  tm.unregister(child);
  await waiting;
  assert.ok(done);
});

test('a task makes its abort signal when first asked, and one asked for after the cancel is aborted already', async () => {
  const tm = new TaskManager('n');
  const early = tm.register({ action: 'a', cancellable: true });
  const signal = early.signal;
  assert.equal(signal.aborted, false);
  await tm.cancel(early, 'by test', false);
  assert.equal(signal.aborted, true, 'a signal taken before the cancel aborts with it');
  const late = tm.register({ action: 'b', cancellable: true });
  await tm.cancel(late, 'later', false);
  assert.equal(late.signal.aborted, true, 'a signal taken after the cancel is aborted at once');
  assert.ok(late.signal.reason instanceof EsError && late.signal.reason.type === 'task_cancelled_exception' && late.signal.reason.reason === 'task cancelled [later]');
  assert.equal(late.signal, late.signal, 'the same signal every time');
});
