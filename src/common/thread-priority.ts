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
import { getPriority, setPriority } from 'node:os';

/** How much lower than the process's main thread a background worker thread runs (nice +10). */
export const WORKER_NICE_STEP = 10;
/** The lowest priority there is (the highest nice value). */
const LOWEST_NICE = 19;

/**
 * The nice value the background worker threads of process `pid` run at: its main thread's plus WORKER_NICE_STEP
 * (10 for a process at 0), at most 19. Relative, not a fixed 10: a node started under `nice -n 10` (a shared host, a
 * service's Nice=) had its workers at 10 too, level with the loop they are meant to step back for.
 */
export function workerNice(pid: number = process.pid): number {
  // On Linux the priority of a process id is its main thread's (the thread whose id is the process id).
  return Math.min(LOWEST_NICE, getPriority(pid) + WORKER_NICE_STEP);
}

/** Lowers the calling thread's priority to workerNice(); call at a worker thread's start. Returns whether it did. */
export function lowerThisThreadsPriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0 || threadId === process.pid) return false;
    setPriority(threadId, workerNice());
    return true;
  } catch {
    return false;
  }
}
