/**
 * Which timers keep a process alive: `process.getActiveResourcesInfo()` only says "Timeout", which is what the exit
 * watchdog of a shut-down node printed when one held it (the timer was never identified). This names each referenced
 * timer still pending: its delay, whether it repeats, its callback's source, and, for a timer created after
 * `traceTimerCreation()` (called when the shutdown begins), the stack that created it: a callback such as a promise's
 * `resolve` shows only native code, the stack shows who waits.
 *
 * Timers are not libuv handles one by one, so they are found through the inspector protocol's `queryObjects` (every
 * live object of Timeout's prototype), in this process, synchronously. Costly (a heap walk): for a process about to
 * be ended, never for a serving one. Creation stacks come from an async hook enabled only from the shutdown on (an
 * enabled hook slows every promise).
 */
import { createHook } from 'node:async_hooks';
import { Session } from 'node:inspector';

/** Where a traced timer keeps the stack that created it (a registered symbol: the inspector's function reads it). */
const CREATED_AT = Symbol.for('gannet.timerCreatedAt');

let tracing = false;
const THIS_MODULE = import.meta.url;

/** From now on, every timer created records its creation stack (read by `describeLiveTimers`). */
export function traceTimerCreation(): void {
  if (tracing) return;
  tracing = true;
  createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type !== 'Timeout') return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      // The hook's own frames and Node's internals say nothing: keep the caller's frames.
      const frames = stack.split('\n').slice(1).filter((line) => !line.includes('node:') && !line.includes(THIS_MODULE));
      (resource as Record<symbol, string>)[CREATED_AT] = frames.slice(0, 6).map((line) => line.trim()).join(' < ');
    },
  }).enable();
}

export interface LiveTimer {
  readonly delayMillis: number;
  readonly repeats: boolean;
  /** The start of the callback's source text. */
  readonly callback: string;
  /** The creating stack, for a timer created after `traceTimerCreation()`. */
  readonly createdAt?: string;
}

function post<T>(session: Session, method: string, params: object): T {
  let result: T | undefined;
  let failure: Error | null = null;
  // An in-process session answers synchronously.
  session.post(method, params, (err, answer) => {
    failure = err;
    result = answer as T;
  });
  if (failure !== null) throw failure;
  return result as T;
}

/** The referenced timers still pending in this process (unreferenced ones cannot keep it alive and are left out). */
export function liveTimers(): LiveTimer[] {
  const probe = setTimeout(() => undefined, 1);
  const holder = globalThis as { __gannetTimeoutPrototype?: object };
  holder.__gannetTimeoutPrototype = Object.getPrototypeOf(probe) as object;
  clearTimeout(probe);
  const session = new Session();
  session.connect();
  try {
    const prototype = post<{ result: { objectId: string } }>(session, 'Runtime.evaluate', { expression: 'globalThis.__gannetTimeoutPrototype' });
    const found = post<{ objects: { objectId: string } }>(session, 'Runtime.queryObjects', { prototypeObjectId: prototype.result.objectId });
    const described = post<{ result: { value: LiveTimer[] } }>(session, 'Runtime.callFunctionOn', {
      objectId: found.objects.objectId,
      functionDeclaration: `function () {
        const createdAt = Symbol.for('gannet.timerCreatedAt');
        return this.filter((timer) => !timer._destroyed && timer.hasRef()).map((timer) => ({
          delayMillis: timer._idleTimeout,
          repeats: timer._repeat !== null,
          callback: String(timer._onTimeout).replace(/\\s+/g, ' ').slice(0, 160),
          ...(timer[createdAt] !== undefined && { createdAt: timer[createdAt] }),
        }));
      }`,
      returnByValue: true,
    });
    return described.result.value;
  } finally {
    session.disconnect();
    delete holder.__gannetTimeoutPrototype;
  }
}

/** One line per live timer, for the exit watchdog's message; never throws (it runs just before the process ends). */
export function describeLiveTimers(): string {
  try {
    const timers = liveTimers();
    if (timers.length === 0) return 'no referenced timer';
    return timers
      .map((timer) => `${timer.repeats ? 'interval' : 'timeout'} of ${timer.delayMillis} ms, callback \`${timer.callback}\`${timer.createdAt === undefined ? ' (created before the shutdown)' : `, created at ${timer.createdAt}`}`)
      .join('; ');
  } catch (err) {
    return `timers could not be listed: ${(err as Error).message}`;
  }
}
