/**
 * `GET /_nodes[/{node_id}]/hot_threads` (RestNodesHotThreadsAction, HotThreads): a plain-text report per node of
 * where its CPU goes. ES samples its busiest Java threads' stacks; a Gannet node runs requests on one event loop, so
 * its report is the event loop's: the share of `interval` it was busy (V8's sampling profiler, monitor/hot-threads.ts)
 * and its hottest frames, most sampled first, each with the stack it was most often reached through. At most `threads`
 * stacks are printed (ES prints that many threads). Worker threads (indexing, merges) are not sampled and the report
 * says so. `type=wait|block|mem` describe JVM states the event loop has no equivalent of: the report says that too.
 */
import { errors } from '../../common/errors.js';
import { formatTimeValueMillis } from '../../common/time-value.js';
import { describeDiscoveryNode, type DiscoveryNode } from '../../cluster/index.js';
import { profileEventLoop, type EventLoopProfile } from '../../monitor/index.js';
import { text, type Route } from '../rest.js';
import type { NodeServices } from '../context.js';
import { onSelectedNodes } from './nodes-fanout.js';
import type { Task } from '../../tasks/index.js';

export const HOT_THREADS_NODE_ACTION = 'cluster:monitor/nodes/hot_threads[n]';

const TYPES = ['cpu', 'wait', 'block', 'mem'] as const;
const SORTS = ['cpu', 'total'] as const;
/** How many frames of a stack are printed (ES prints whole Java stacks; JavaScript ones are shorter). */
const MAX_FRAMES = 30;

export interface HotThreadsRequest {
  readonly threads: number;
  readonly intervalMillis: number;
  readonly type: (typeof TYPES)[number];
  readonly ignoreIdleThreads: boolean;
}

const nodeLabel = describeDiscoveryNode;

function percent(part: number, whole: number): string {
  return (whole === 0 ? 0 : (100 * part) / whole).toFixed(1).padStart(4);
}

/** One node's report (what ES's HotThreads.detect returns), without the `::: ` node line. */
export function hotThreadsReport(nodeName: string, request: HotThreadsRequest, profile: EventLoopProfile | undefined, now: Date): string {
  const lines = [`Hot threads at ${now.toISOString()}, interval=${formatTimeValueMillis(request.intervalMillis)}, busiestThreads=${request.threads}, ignoreIdleThreads=${request.ignoreIdleThreads}:`, ' '];
  if (profile === undefined) {
    lines.push(`[${request.type}] is not measured by Gannet: a Node.js event loop never waits or blocks on locks, and its allocations are not sampled; use type=cpu`);
    return lines.join('\n') + '\n';
  }
  if (profile.busySamples > 0 || !request.ignoreIdleThreads) {
    const busyMillis = profile.totalSamples === 0 ? 0 : Math.round((profile.intervalMillis * profile.busySamples) / profile.totalSamples);
    const cpu = percent(profile.busySamples, profile.totalSamples);
    lines.push(
      `${cpu}% [cpu=${cpu}%, other= 0.0%] (${formatTimeValueMillis(busyMillis)} out of ${formatTimeValueMillis(profile.intervalMillis)}) cpu usage by thread 'gannet[${nodeName}][event_loop]'`,
    );
    for (const stack of profile.stacks.slice(0, request.threads)) {
      const frames = stack.frames.slice(0, MAX_FRAMES);
      lines.push(`  ${stack.samples}/${profile.totalSamples} samples in ${stack.frames[0] ?? '(unknown)'}, most often reached through these ${stack.frames.length} elements`);
      for (const frame of frames) lines.push(`    ${frame}`);
      if (stack.frames.length > frames.length) lines.push(`    ... ${stack.frames.length - frames.length} more`);
    }
    lines.push(' ');
  }
  lines.push('worker threads (indexing, segment writes, merges) run in their own V8 isolates and are not sampled');
  return lines.join('\n') + '\n';
}

/** This node's report: samples the event loop for the interval (cpu), or says what it cannot measure. */
export async function localHotThreads(services: NodeServices, request: HotThreadsRequest, task?: Task): Promise<string> {
  const profile = request.type === 'cpu' ? await profileEventLoop(request.intervalMillis, 1000, task?.signal) : undefined;
  return hotThreadsReport(services.localNode.name, request, profile, new Date());
}

function parseRequest(request: Parameters<Route['handler']>[0]): HotThreadsRequest {
  const threads = request.paramInt('threads', 3);
  if (threads < 1) throw errors.illegalArgument(`[threads] must be a positive number, not [${threads}]`);
  const type = (request.param('type') ?? 'cpu').toLowerCase();
  if (!(TYPES as readonly string[]).includes(type)) throw errors.illegalArgument(`type not supported [${type}]`);
  const sort = (request.param('sort') ?? 'total').toLowerCase();
  if (!(SORTS as readonly string[]).includes(sort)) throw errors.illegalArgument(`sort order not supported [${sort}]`);
  request.paramInt('snapshots', 10);
  request.paramTimeMillis('timeout', 30_000);
  return {
    threads,
    intervalMillis: Math.max(1, request.paramTimeMillis('interval', 500)),
    type: type as HotThreadsRequest['type'],
    ignoreIdleThreads: request.paramBool('ignore_idle_threads', true),
  };
}

const hotThreadsHandler: Route['handler'] = async (request, { services, task }) => {
  const parsed = parseRequest(request);
  const selectors = (request.pathParams['node_id'] ?? '').split(',').filter(Boolean);
  const outcome = await onSelectedNodes<string>(services, selectors, { action: HOT_THREADS_NODE_ACTION, args: parsed, task });
  // RestNodesHotThreadsAction: "::: <node>" then the report indented by three spaces, nodes one after the other.
  let body = '';
  for (const [nodeId, report] of outcome.answers) {
    const node = outcome.state.nodes.get(nodeId);
    body += `::: ${node === undefined ? `{${nodeId}}` : nodeLabel(node)}\n`;
    body += report
      .split('\n')
      .map((line) => (line === '' ? line : `   ${line}`))
      .join('\n');
    body += '\n';
  }
  for (const failure of outcome.failures) body += `::: ${failure.message}: ${failure.causedBy?.message ?? ''}\n`;
  return text(body);
};

const PARAMS = ['threads', 'interval', 'snapshots', 'type', 'ignore_idle_threads', 'sort', 'timeout'];

export const hotThreadsRoutes: Route[] = [
  { method: 'GET', path: '/_nodes/hot_threads', action: 'cluster:monitor/nodes/hot_threads', params: PARAMS, cancellable: true, handler: hotThreadsHandler },
  { method: 'GET', path: '/_nodes/{node_id}/hot_threads', action: 'cluster:monitor/nodes/hot_threads', params: PARAMS, cancellable: true, handler: hotThreadsHandler },
];
