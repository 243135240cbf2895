/**
 * Operating-system figures as ES's OsProbe reports them: load averages, system CPU percent, and physical
 * memory where "used" includes the page cache (ES reads MemFree, not MemAvailable, which is why ram.percent
 * reads high on a healthy node).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { readFileSync } from 'node:fs';

export interface OsStats {
  timestampMillis: number;
  cpuPercent: number;
  /** 1m/5m/15m load averages; undefined where the OS has none. */
  loadAverage: [number, number, number] | undefined;
  memTotalBytes: number;
  memFreeBytes: number;
  memUsedBytes: number;
  memFreePercent: number;
  memUsedPercent: number;
  swapTotalBytes: number;
  swapFreeBytes: number;
  availableProcessors: number;
}

interface CpuSample {
  idle: number;
  total: number;
}

function sampleCpu(): CpuSample {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    const t = cpu.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

function readMeminfo(): Map<string, number> {
  const values = new Map<string, number>();
  try {
    for (const line of readFileSync('/proc/meminfo', 'utf8').split('\n')) {
      const match = /^(\w+):\s+(\d+)\s*kB/.exec(line);
      if (match) values.set(match[1]!, Number(match[2]) * 1024);
    }
  } catch {
    // Not Linux: fall back to what Node reports below.
  }
  return values;
}

export class OsProbe {
  private previousCpu: CpuSample = sampleCpu();
  private lastCpuPercent = 0;
  private lastSampleMillis = Date.now();

  /** System CPU use since the previous reading (at least 1s apart, as ES caches OS stats for 1s). */
  private cpuPercent(): number {
    const now = Date.now();
    if (now - this.lastSampleMillis >= 1000) {
      const current = sampleCpu();
      const total = current.total - this.previousCpu.total;
      const idle = current.idle - this.previousCpu.idle;
      this.lastCpuPercent = total > 0 ? Math.round(((total - idle) * 100) / total) : 0;
      this.previousCpu = current;
      this.lastSampleMillis = now;
    }
    return this.lastCpuPercent;
  }

  stats(): OsStats {
    const meminfo = readMeminfo();
    const memTotal = meminfo.get('MemTotal') ?? totalmem();
    const memFree = meminfo.get('MemFree') ?? 0;
    const memUsed = memTotal - memFree;
    const load = loadavg();
    const hasLoad = process.platform !== 'win32';
    return {
      timestampMillis: Date.now(),
      cpuPercent: this.cpuPercent(),
      loadAverage: hasLoad ? [load[0]!, load[1]!, load[2]!] : undefined,
      memTotalBytes: memTotal,
      memFreeBytes: memFree,
      memUsedBytes: memUsed,
      memFreePercent: memTotal > 0 ? Math.round((memFree * 100) / memTotal) : 0,
      memUsedPercent: memTotal > 0 ? Math.round((memUsed * 100) / memTotal) : 0,
      swapTotalBytes: meminfo.get('SwapTotal') ?? 0,
      swapFreeBytes: meminfo.get('SwapFree') ?? 0,
      availableProcessors: cpus().length,
    };
  }
}
