/**
 * The node process: its V8 heap (what ES calls the JVM heap: used, committed, max), process CPU, open file
 * descriptors and uptime.
 */
import { getHeapStatistics } from 'node:v8';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessStats {
  timestampMillis: number;
  pid: number;
  uptimeMillis: number;
  startTimeMillis: number;
  heapUsedBytes: number;
  heapCommittedBytes: number;
  heapMaxBytes: number;
  heapUsedPercent: number;
  nonHeapUsedBytes: number;
  rssBytes: number;
  cpuPercent: number;
  cpuTotalMillis: number;
  /** -1 where the platform does not tell (ES reports -1 on Windows). */
  openFileDescriptors: number;
  maxFileDescriptors: number;
  nodeVersion: string;
  v8Version: string;
}

function countOpenFileDescriptors(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return -1;
  }
}

function maxFileDescriptors(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const match = /Max open files\s+(\d+|unlimited)/.exec(limits);
    if (!match) return -1;
    return match[1] === 'unlimited' ? -1 : Number(match[1]);
  } catch {
    return -1;
  }
}

/** Virtual memory the process has mapped (ES's `mem.total_virtual`); -1 where the platform does not tell. */
export function virtualMemoryBytes(): number {
  try {
    const match = /^VmSize:\s+(\d+)\s*kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : -1;
  } catch {
    return -1;
  }
}

export class ProcessProbe {
  private readonly startTimeMillis = Date.now() - Math.round(process.uptime() * 1000);
  private previousCpu = process.cpuUsage();
  private previousSampleNanos = process.hrtime.bigint();
  private lastCpuPercent = 0;

  private cpuPercent(): number {
    const now = process.hrtime.bigint();
    const elapsedMicros = Number(now - this.previousSampleNanos) / 1000;
    if (elapsedMicros >= 1_000_000) {
      const usage = process.cpuUsage(this.previousCpu);
      this.lastCpuPercent = Math.round(((usage.user + usage.system) * 100) / elapsedMicros);
      this.previousCpu = process.cpuUsage();
      this.previousSampleNanos = now;
    }
    return this.lastCpuPercent;
  }

  stats(): ProcessStats {
    const heap = getHeapStatistics();
    const memory = process.memoryUsage();
    const heapMax = heap.heap_size_limit;
    const cpu = process.cpuUsage();
    return {
      timestampMillis: Date.now(),
      pid: process.pid,
      uptimeMillis: Math.round(process.uptime() * 1000),
      startTimeMillis: this.startTimeMillis,
      heapUsedBytes: memory.heapUsed,
      heapCommittedBytes: memory.heapTotal,
      heapMaxBytes: heapMax,
      heapUsedPercent: heapMax > 0 ? Math.round((memory.heapUsed * 100) / heapMax) : 0,
      nonHeapUsedBytes: Math.max(0, memory.rss - memory.heapTotal),
      rssBytes: memory.rss,
      cpuPercent: this.cpuPercent(),
      cpuTotalMillis: Math.round((cpu.user + cpu.system) / 1000),
      openFileDescriptors: countOpenFileDescriptors(),
      maxFileDescriptors: maxFileDescriptors(),
      nodeVersion: process.version,
      v8Version: process.versions.v8,
    };
  }
}
