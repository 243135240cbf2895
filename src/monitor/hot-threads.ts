/**
 * What the node's event loop is busy with, for `_nodes/hot_threads`: V8's sampling CPU profiler (through the
 * in-process inspector) runs for the interval while the node keeps working, then the samples are grouped by the
 * frame they were taken in, each group with its most frequent whole stack. The share of samples that were not `(idle)` is the event loop's CPU use; the most frequent stacks are
 * the hot code. V8 samples on its own thread, so sampling costs the event loop little. Worker threads (indexing,
 * merges) have their own V8 isolates and are not sampled here. One profile runs at a time; a second request waits.
 */
import { Session } from 'node:inspector';

export interface HotStack {
  /** Samples taken while this stack's innermost frame was running. */
  readonly samples: number;
  /** The most frequent whole stack of those samples, innermost frame first, as `function (file:line:column)`. */
  readonly frames: readonly string[];
}

export interface EventLoopProfile {
  readonly intervalMillis: number;
  readonly totalSamples: number;
  /** Samples that were not `(idle)`: the event loop was running JavaScript, V8 or the collector. */
  readonly busySamples: number;
  /** Busy stacks, most frequent first. */
  readonly stacks: readonly HotStack[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
}

let queue: Promise<unknown> = Promise.resolve();

/** Where a frame's file sits under the build (`src/engine/...js`), not the machine's absolute path. */
function shortUrl(url: string): string {
  const marker = url.lastIndexOf('/dist/');
  if (marker >= 0) return url.slice(marker + '/dist/'.length);
  return url.replace(/^file:\/\//, '');
}

function frameText(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const name = functionName === '' ? '(anonymous)' : functionName;
  if (url === '') return name;
  return `${name} (${shortUrl(url)}:${lineNumber + 1}:${columnNumber + 1})`;
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T))));
}

/** Samples the event loop for `intervalMillis`, every `samplingMicros` microseconds. */
export function profileEventLoop(intervalMillis: number, samplingMicros = 1000, signal?: AbortSignal): Promise<EventLoopProfile> {
  const run = async (): Promise<EventLoopProfile> => {
    const session = new Session();
    session.connect();
    try {
      await post(session, 'Profiler.enable');
      await post(session, 'Profiler.setSamplingInterval', { interval: samplingMicros });
      await post(session, 'Profiler.start');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMillis);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
      });
      const { profile } = await post<{ profile: CpuProfile }>(session, 'Profiler.stop');
      return summarize(profile, intervalMillis);
    } finally {
      session.disconnect();
    }
  };
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}

export function summarize(profile: CpuProfile, intervalMillis: number): EventLoopProfile {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const samples = profile.samples ?? [];
  const countByLeaf = new Map<number, number>();
  let busy = 0;
  for (const leaf of samples) {
    const node = byId.get(leaf);
    if (node === undefined || node.callFrame.functionName === '(idle)') continue;
    busy++;
    countByLeaf.set(leaf, (countByLeaf.get(leaf) ?? 0) + 1);
  }
  // JavaScript stacks differ in their outer frames from sample to sample, so whole stacks rarely repeat: samples are
  // grouped by the frame they were in (the innermost one), and each group shows its most frequent whole stack.
  const groups = new Map<string, { samples: number; stacks: Map<string, { samples: number; frames: string[] }> }>();
  for (const [leaf, count] of countByLeaf) {
    const frames: string[] = [];
    for (let id: number | undefined = leaf; id !== undefined; id = parentOf.get(id)) {
      const node = byId.get(id)!;
      if (node.callFrame.functionName === '(root)') break;
      frames.push(frameText(node));
    }
    const innermost = frames[0] ?? '(unknown)';
    const group = groups.get(innermost) ?? { samples: 0, stacks: new Map() };
    group.samples += count;
    const key = frames.join('\n');
    const stack = group.stacks.get(key) ?? { samples: 0, frames };
    stack.samples += count;
    group.stacks.set(key, stack);
    groups.set(innermost, group);
  }
  const stacks = [...groups.values()]
    .map((group) => ({ samples: group.samples, frames: [...group.stacks.values()].sort((a, b) => b.samples - a.samples)[0]!.frames }))
    .sort((a, b) => b.samples - a.samples);
  return { intervalMillis, totalSamples: samples.length, busySamples: busy, stacks };
}
