import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catHealthEndpoint } from '../../../../src/actions/cat/health-action.js';
import { renderCatTable } from '../../../../src/cat/index.js';
import type { ActionContext } from '../../../../src/actions/rest.js';
import type { NodeServices } from '../../../../src/actions/context.js';
import { ClusterService } from '../../../../src/cluster/cluster-service.js';
import { TaskManager } from '../../../../src/tasks/task-manager.js';
import { clusterState, index, started, unassigned } from '../../../helpers/cluster-state-builder.js';

test('the cat health row carries the cluster health figures, "-" for no queue wait and a %1.1f percentage', async () => {
  const clusterService = new ClusterService(
    clusterState({ clusterName: 'c1', indices: [index('a', [[started(true), unassigned(false)], [started(true), unassigned(false)], [unassigned(true)]], { replicas: 1 })] }),
  );
  const task = new TaskManager('n').register({ action: 'cluster:monitor/health' });
  const context = { task, services: { clusterService } as unknown as NodeServices } as ActionContext;
  const params = new Map([['h', 'cluster,status,shards,pri,unassign,unassign.pri,pending_tasks,max_task_wait_time,active_shards_percent']]);
  const request = { param: (name: string) => params.get(name) };

  const render = async () => {
    const rows = await catHealthEndpoint.rows(request as never, context);
    const output = renderCatTable({ columns: catHealthEndpoint.columns, rows }, request, 'rows');
    assert.equal(output.kind, 'rows');
    return output.kind === 'rows' ? output.rows[0] : undefined;
  };
  assert.deepEqual(await render(), {
    cluster: 'c1',
    status: 'red',
    shards: '2',
    pri: '2',
    unassign: '3',
    'unassign.pri': '1',
    pending_tasks: '0',
    max_task_wait_time: '-',
    active_shards_percent: '33.3%',
  });
  clusterService.maxTaskWaitMillis = 1530;
  clusterService.pendingTaskCount = 2;
  const busy = await render();
  assert.equal(busy?.['max_task_wait_time'], '1.5s');
  assert.equal(busy?.['pending_tasks'], '2');
});
