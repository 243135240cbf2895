/**
 * What does not change while a node runs: the operating system (ES's OsInfo) and the runtime that plays the
 * part of ES's JVM (JvmInfo). Gannet runs on V8, so the "JVM" figures tell the truth about V8 and Node.js:
 * the heap is V8's, the collectors are V8's, and the input arguments are the process's runtime flags.
 */
import { arch, cpus, release, type } from 'node:os';
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

export interface OsInfo {
  name: string;
  prettyName: string;
  /** The architecture in the JVM's words (`amd64`, `aarch64`), as ES prints it for the same machine. */
  arch: string;
  version: string;
  availableProcessors: number;
}

export interface RuntimeInfo {
  pid: number;
  /** Node.js's version, where ES prints the Java version. */
  version: string;
  vmName: string;
  vmVersion: string;
  vmVendor: string;
  startTimeMillis: number;
  /** The V8 heap committed when this module was loaded, at process start (the JVM's initial heap). */
  heapInitBytes: number;
  heapMaxBytes: number;
  gcCollectors: string[];
  memoryPools: string[];
  usingCompressedPointers: boolean;
  inputArguments: string[];
}

const JAVA_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'aarch64', ia32: 'x86' };

// Taken as early as the monitor is imported, which is during node start-up.
const HEAP_AT_LOAD = getHeapStatistics().total_heap_size;
const START_TIME_MILLIS = Date.now() - Math.round(process.uptime() * 1000);

function prettyOsName(fallback: string): string {
  try {
    const match = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (match) return match[1]!;
  } catch {
    // No os-release (not Linux, or a minimal container): ES then prints the OS name too.
  }
  return fallback;
}

export function osInfo(): OsInfo {
  const name = type();
  return {
    name,
    prettyName: prettyOsName(name),
    arch: JAVA_ARCH[arch()] ?? arch(),
    version: release(),
    availableProcessors: cpus().length,
  };
}

export function runtimeInfo(): RuntimeInfo {
  const variables = (process.config as { variables?: Record<string, unknown> }).variables ?? {};
  return {
    pid: process.pid,
    version: process.versions.node,
    vmName: 'V8',
    vmVersion: process.versions.v8,
    vmVendor: 'Node.js',
    startTimeMillis: START_TIME_MILLIS,
    heapInitBytes: HEAP_AT_LOAD,
    heapMaxBytes: getHeapStatistics().heap_size_limit,
    // V8's young-generation scavenger and old-generation mark-compact collector.
    gcCollectors: ['scavenge', 'mark-compact'],
    memoryPools: getHeapSpaceStatistics().map((space) => space.space_name),
    usingCompressedPointers: variables['v8_enable_pointer_compression'] === 1 || variables['v8_enable_pointer_compression'] === true,
    inputArguments: [...process.execArgv],
  };
}
