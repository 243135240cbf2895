/**
 * CPU time node processes spent, read from /proc (Linux): user + system in milliseconds, the main thread (the
 * event loop) apart from all the others (V8's compiler and GC helpers, the indexing and parse workers, libuv's
 * pool: Node 20 names them all "node", so they are not told apart). On a loaded two-core host wall-clock rates move
 * by 2-3x between runs of the same build; the CPU a process spends per document moves far less, so a speed change
 * is judged by it (bench/BENCHMARKS.md).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

export interface ProcessCpu {
  /** The event loop's thread. */
  readonly main: number;
  /** Every other thread of the process. */
  readonly threads: number;
}

/** user + system time of a /proc stat line, in milliseconds (the command name may hold spaces and parentheses). */
function statMillis(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The CPU a process has used so far (zeros when it is gone). */
export function processCpuMillis(pid: number): ProcessCpu {
  try {
    // The process's own stat counts the threads that ended too; the main thread's is its task entry.
    const all = statMillis(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const main = statMillis(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
    return { main, threads: all - main };
  } catch {
    return { main: 0, threads: 0 };
  }
}

/** The CPU each process spent between `before` and now, per 1,000 of `units` (documents, requests). */
export function cpuPer1000Since(pids: readonly number[], before: readonly ProcessCpu[], units: number): ProcessCpu[] {
  return pids.map((pid, i) => {
    const now = processCpuMillis(pid);
    const then = before[i]!;
    return { main: ((now.main - then.main) * 1000) / units, threads: ((now.threads - then.threads) * 1000) / units };
  });
}

/** `main + threads` of each process, e.g. `41 (main 20)`, joined by ` / `. */
export function cpuText(cpus: readonly ProcessCpu[]): string {
  return cpus.map((cpu) => `${(cpu.main + cpu.threads).toFixed(0)} (main ${cpu.main.toFixed(0)})`).join(' / ');
}

/** CPU milliseconds so far of each thread of a process, by thread id (a thread that ended is missing). */
export function threadCpuMillis(pid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byThread;
  }
  for (const tid of tids) {
    try {
      byThread.set(tid, statMillis(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // It ended between the listing and the read.
    }
  }
  return byThread;
}

/**
 * Each thread's CPU since `before`, per 1,000 units, in the order the threads were started (thread ids grow), from
 * 1 ms up: `main 30, +1 4, +2 4, ...` where `+n` is the thread started n-th after the main thread among those listed
 * (V8's platform threads first, then libuv's and the workers; a thread new since `before` is marked `new`).
 */
export function threadCpuText(pid: number, before: ReadonlyMap<string, number>, units: number): string {
  const now = threadCpuMillis(pid);
  const tids = [...now.keys()].sort((a, b) => Number(a) - Number(b));
  const parts: string[] = [];
  tids.forEach((tid, order) => {
    const per = ((now.get(tid)! - (before.get(tid) ?? 0)) * 1000) / units;
    if (per < 1) return;
    const name = tid === String(pid) ? 'main' : `${before.has(tid) ? '' : 'new '}+${order}`;
    parts.push(`${name} ${per.toFixed(0)}`);
  });
  return parts.join(', ');
}
