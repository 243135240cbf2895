/**
 * The data path's `node.lock`: one live node per data path (ES's NodeEnvironment lock). Node.js has no portable
 * advisory file lock, so the file names its owner precisely enough to tell a live owner from a stale file: the PID,
 * the process's start time in clock ticks since boot (`/proc/<pid>/stat` field 22) and the boot id. A PID alone
 * is not enough: after a reboot (or a crash and enough time) the number belongs to an unrelated process, and an old
 * file must never block a start. The owner is live only if a process with that PID exists now, was started at the
 * recorded tick, in this boot. The file is created with O_EXCL, so of two nodes starting together exactly one wins.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'node.lock';

/** Who holds the lock, as written in the file. */
export interface LockOwner {
  readonly pid: number;
  /** Clock ticks after boot at which the process started; undefined where /proc is unavailable. */
  readonly startTicks: number | undefined;
  readonly bootId: string | undefined;
}

/** ES 8's NodeEnvironment message, with the reason the lock is held. */
export class NodeLockError extends Error {
  constructor(dataPath: string, detail: string) {
    super(`failed to obtain node locks, tried [${dataPath}]; maybe these locations are not writable or multiple nodes were started on the same data path? (${detail})`);
    this.name = 'NodeLockError';
  }
}

/** Field 22 of /proc/<pid>/stat (starttime); the command name (field 2) may hold spaces and parentheses. */
export function processStartTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state), so field 22 is fields[19].
    const ticks = Number(fields[19]);
    return Number.isSafeInteger(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

function currentBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process as a lock owner. */
export function currentOwner(): LockOwner {
  return { pid: process.pid, startTicks: processStartTicks(process.pid), bootId: currentBootId() };
}

/** The owner a lock file names; an old-format file (a bare PID) has no start time, an unreadable one no owner. */
export function parseLockFile(text: string): LockOwner | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), startTicks: undefined, bootId: undefined };
  try {
    const parsed = JSON.parse(trimmed) as { pid?: unknown; start_ticks?: unknown; boot_id?: unknown };
    if (typeof parsed.pid !== 'number' || !Number.isSafeInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return {
      pid: parsed.pid,
      startTicks: typeof parsed.start_ticks === 'number' ? parsed.start_ticks : undefined,
      bootId: typeof parsed.boot_id === 'string' ? parsed.boot_id : undefined,
    };
  } catch {
    return undefined;
  }
}

/** The command line of a process (NUL-separated arguments), or undefined where /proc cannot tell. */
function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
}

/** What isOwnerAlive reads about the running system (replaceable in tests). */
export interface SystemView {
  readonly bootId: string | undefined;
  readonly startTicksOf: (pid: number) => number | undefined;
  readonly commandLineOf: (pid: number) => string | undefined;
  readonly pidExists: (pid: number) => boolean;
}

const LIVE_SYSTEM: SystemView = { bootId: undefined, startTicksOf: processStartTicks, commandLineOf: commandLine, pidExists };

/**
 * Whether the recorded owner still runs. With a recorded start time the answer is exact: another boot, or a process
 * with that PID started at another tick, is not the owner. A file in the old format (a bare PID) cannot say when its
 * owner started, so its PID counts as the owner only while that process is a Gannet node (its command line runs the
 * node's entry point); PID 1 or a shell that inherited the number after a reboot never blocks a start.
 */
export function isOwnerAlive(owner: LockOwner, system: SystemView = { ...LIVE_SYSTEM, bootId: currentBootId() }): boolean {
  if (owner.bootId !== undefined && system.bootId !== undefined && owner.bootId !== system.bootId) return false;
  if (!system.pidExists(owner.pid)) return false;
  if (owner.startTicks !== undefined) {
    const ticks = system.startTicksOf(owner.pid);
    if (ticks !== undefined) return ticks === owner.startTicks;
    return true; // no /proc to compare with: a live PID is taken at its word
  }
  const command = system.commandLineOf(owner.pid);
  return command === undefined || /gannet|src\/cli\/run\.js/.test(command);
}

/** The lock on one data path, held until release(). */
export class NodeLock {
  private constructor(private readonly path: string) {}

  /** Takes the lock or throws NodeLockError naming the live owner. A stale file (its owner gone) is replaced. */
  static acquire(dataPath: string): NodeLock {
    const path = join(dataPath, LOCK_FILE);
    const owner = currentOwner();
    const content = JSON.stringify({ pid: owner.pid, start_ticks: owner.startTicks ?? null, boot_id: owner.bootId ?? null }) + '\n';
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        try {
          writeSync(fd, content);
        } finally {
          closeSync(fd);
        }
        return new NodeLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new NodeLockError(dataPath, `${(err as NodeJS.ErrnoException).code ?? 'error'} creating ${LOCK_FILE}`);
        }
      }
      let existingText: string;
      try {
        existingText = readFileSync(path, 'utf8');
      } catch {
        continue; // removed meanwhile: try to create it again
      }
      const existing = parseLockFile(existingText);
      if (existing !== undefined && existing.pid !== process.pid && isOwnerAlive(existing)) {
        throw new NodeLockError(dataPath, `held by the running process ${existing.pid}`);
      }
      // Stale (or unreadable, or ours from an earlier life of this PID): move it aside atomically, then retry O_EXCL.
      // If what was moved is no longer the stale file (another starting node replaced it in between), put it back.
      const aside = `${path}.stale-${process.pid}`;
      try {
        renameSync(path, aside);
      } catch {
        continue; // another node moved it first
      }
      try {
        if (readFileSync(aside, 'utf8') !== existingText) linkSync(aside, path);
      } catch {
        // a newer lock is already in place
      }
      unlinkSync(aside);
    }
    throw new NodeLockError(dataPath, `${LOCK_FILE} keeps changing; another node is starting on this data path`);
  }

  release(): void {
    try {
      unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}
