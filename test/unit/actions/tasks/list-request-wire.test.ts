import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listRequestFromWire, listRequestToWire, type ListTasksRequest } from '../../../../src/actions/tasks/list-tasks.js';
import { TaskId } from '../../../../src/tasks/index.js';

const plain: ListTasksRequest = { nodes: [], filter: { actions: [], parentTaskId: undefined }, detailed: false, waitForCompletion: false, timeoutMillis: undefined };

test('a list request crosses as its JSON string and reads back the same, the plain listing included', () => {
  const requests: ListTasksRequest[] = [
    { ...plain, renderJson: { human: false, elements: false } },
    { ...plain, renderJson: { human: false, elements: true } },
    { ...plain, renderJson: { human: true, elements: false } },
    { ...plain, nodes: ['n1', '_local'], renderJson: { human: false, elements: false } },
    { ...plain, filter: { actions: ['cluster:*'], parentTaskId: new TaskId('n1', 42) }, renderJson: { human: false, elements: false } },
    { ...plain, detailed: true, waitForCompletion: true, timeoutMillis: 1500 },
    plain,
  ];
  // Read back in turns, so a request read just before another never answers for it.
  for (let round = 0; round < 2; round++) {
    for (const request of requests) {
      const wire = listRequestToWire(request);
      assert.equal(wire, JSON.stringify({ ...request, filter: { actions: request.filter.actions, parentTaskId: request.filter.parentTaskId?.toString() } }));
      const read = listRequestFromWire(wire);
      assert.deepEqual(read.nodes, request.nodes);
      assert.deepEqual(read.filter.actions, request.filter.actions);
      assert.equal(read.filter.parentTaskId?.toString(), request.filter.parentTaskId?.toString());
      assert.equal(read.detailed, request.detailed);
      assert.equal(read.waitForCompletion, request.waitForCompletion);
      assert.equal(read.timeoutMillis, request.timeoutMillis);
      assert.deepEqual(read.renderJson, request.renderJson === undefined ? undefined : { human: request.renderJson.human, elements: request.renderJson.elements === true });
    }
  }
});
