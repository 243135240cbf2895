/** How many threads of a process run at background priority (decision 0019), read from Linux's /proc. */
import { readdirSync, readFileSync } from 'node:fs';
import { workerNice } from '../../src/common/thread-priority.js';

/**
 * The threads of `pid` (this process by default) whose nice value is the background workers' (workerNice: the main
 * thread's plus 10, so a suite run under `nice -n 10` counts the workers at 19, not every thread at 10). The nice
 * value is field 19 of /proc/<pid>/task/<tid>/stat, counted after the command name's closing parenthesis (a name
 * may hold spaces).
 */
export function threadsAtWorkerNice(pid: number | 'self' = 'self'): number {
  const nice = workerNice(pid === 'self' ? process.pid : pid);
  let count = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === nice) count++;
    } catch {
      // The thread ended meanwhile.
    }
  }
  return count;
}
