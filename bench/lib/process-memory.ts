/** Peak resident memory (VmHWM) of a process, read from /proc: the "peak RSS" the benchmarks report. */
import { readFileSync } from 'node:fs';

export function peakRssBytes(pid: number = process.pid): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+)\s+kB/.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
