/**
 * Run by etcd-stop.test.ts as a process of its own (`node stop-during-takeover.child.js <etcd endpoint>`), so the test
 * can require what a stopped node's process must do: end by itself. Two coordinators in this process: `m1` is master,
 * `m2` waits behind it. `m1` stops, `m2` wins, and `m2` is stopped at the moment it reports itself elected, in the
 * middle of its takeover (the race a node met when its election and its shutdown came together). Prints `stopped`
 * once every round's `stop()`s resolved; after that nothing may keep the process alive. If something does, it prints what
 * (`held by [...]`) before the test's deadline.
 */
import { etcdKind, waitUntil } from './coordinator-harness.js';
import type { TestEtcd } from '../helpers/etcd.js';

const endpoint = process.argv[2];
if (endpoint === undefined) throw new Error('usage: stop-during-takeover.child.js <etcd endpoint>');
/** The race is narrow (a few etcd round trips): three rounds, each on a cluster of its own. */
const ROUNDS = 3;

for (let round = 1; round <= ROUNDS; round++) {
  const kind = etcdKind(() => ({ endpoint }) as TestEtcd);
  const first = await kind.startNode('m1');
  let stopping: Promise<void> | undefined;
  const second = await kind.startNode('m2', undefined, (message) => {
    if (message.startsWith('elected as master') && stopping === undefined) stopping = second.coordinator.stop();
  });
  if (!first.coordinator.isMaster()) throw new Error('m1 is not the master');
  await first.coordinator.stop();
  await waitUntil(() => stopping !== undefined, 20_000, 'm2 elected');
  await stopping;
  process.stdout.write(`round ${round}:\n${second.logs.join('\n')}\n`);
}
process.stdout.write('stopped\n');
setTimeout(() => {
  process.stdout.write(`held by [${process.getActiveResourcesInfo().join(', ')}]\n`);
}, 5_000).unref();
