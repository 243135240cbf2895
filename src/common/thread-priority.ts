/**
 * Background worker threads step back for the event loop (decision 0019). The operator's commands are answered
 * on the main thread; the node's workers (indexing and segment writing, large-document parsing, scripts over
 * batches) compete with it for the same cores, and the OS shares a core between runnable threads equally: under
 * four bulk clients the main thread sat idle-but-waiting for a CPU (a profile showed it 55% idle while probes
 * waited 100+ ms). ES keeps management responsive with a pool of its own on another core; with one loop, this
 * gives the loop the larger share when it wants one: a worker thread lowers its own scheduling priority (nice
 * +10, a tenth of the main thread's weight), and still takes every core the loop leaves idle, so throughput on a
 * host with spare cores is unchanged.
 *
 * Linux only (a thread's id comes from /proc/thread-self, and setpriority on a thread id changes only that
 * thread); elsewhere, or when refused, the worker keeps the process's priority.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value a background worker thread runs at (0 is the main thread's; 19 the lowest). */
export const WORKER_NICE = 10;

/** Lowers the calling thread's priority to WORKER_NICE; call once at a worker thread's start. Returns whether it did. */
export function lowerThisThreadsPriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0 || threadId === process.pid) return false;
    setPriority(threadId, WORKER_NICE);
    return true;
  } catch {
    return false;
  }
}
