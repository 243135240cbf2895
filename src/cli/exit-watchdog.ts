/**
 * The shut-down node's exit watchdog, apart from start-command.ts so that the test harness can read its mark without
 * loading the whole server (test/helpers/node-process.ts imports this file; start-command.js would load every module
 * of the node, ~1.5-3 s of CPU in each test process on this host).
 */
import { describeLiveTimers } from '../common/live-timers.js';

/** How long a shut-down node's process may take to end by itself (sockets closing, files flushing). */
const EXIT_GRACE_MILLIS = 10_000;

/**
 * After the shutdown the process ends when nothing is left to run. Something still running then (a timer, a socket)
 * is a bug, and a service manager waiting for the process must not wait with it: after a grace period the process
 * names what held it on stderr and exits (ES's JVM halts once its shutdown hook ran, whatever threads remain). The
 * test harness fails a test whose node needed this (test/helpers/node-process.ts).
 */
export function exitAfterShutdown(code: number): void {
  const timer = setTimeout(() => {
    const held = process.getActiveResourcesInfo().join(', ');
    // "Timeout" alone never said which one: name each (its delay, callback, and creating stack once traced).
    const timers = held.includes('Timeout') ? `; timers: ${describeLiveTimers()}` : '';
    process.stderr.write(`gannet: ${STILL_RUNNING_MARK} ${EXIT_GRACE_MILLIS / 1000}s after the shutdown, held by [${held}]${timers}; exiting\n`);
    process.exit(code);
  }, EXIT_GRACE_MILLIS);
  // Unreferenced: it fires only if something else keeps the process alive.
  timer.unref();
}

/** The words the harness looks for in a node's output. */
export const STILL_RUNNING_MARK = 'process still running';
