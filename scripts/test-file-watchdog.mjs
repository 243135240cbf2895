// Watches the test files node --test runs (one child process each) so that a hung file ends the run with its name.
// node --test has no timeout by default, and --test-timeout does not fit: Node 20 applies it to each file as a
// whole (a file of many slow but correct tests is cancelled when their sum passes it) and names no test of a hung
// file. A file here is a process whose parent is the runner; one running longer than the limit is named on stderr and
// killed with its own children (the nodes and etcds it started), and the runner reports it as failed and goes on.
// At the end the slowest files are listed, so a file creeping towards the limit is seen before it is hit.
// Linux only (/proc); elsewhere nothing is watched.
import { readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const POLL_MILLIS = 2000;
const SLOWEST_SHOWN = 5;

/** Pid to parent pid of every process, from /proc (empty when there is no /proc). */
function processTable() {
  const table = new Map();
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return table;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 4 (ppid), counted after the command name's closing parenthesis (a name may hold spaces).
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      table.set(Number(pid), { ppid });
    } catch {
      // The process ended meanwhile.
    }
  }
  return table;
}

function descendants(table, pid) {
  const found = [];
  for (const [child, { ppid }] of table) {
    if (ppid === pid) found.push(child, ...descendants(table, child));
  }
  return found;
}

/**
 * Starts watching the children of `runnerPid`; `limitMillis` is how long one file may run. Returns stop(), which
 * prints the slowest files.
 */
export function watchTestFiles(runnerPid, testRoot, limitMillis) {
  const running = new Map(); // pid -> { file, startedAt }
  const finished = [];
  const timer = setInterval(() => {
    const table = processTable();
    const now = Date.now();
    for (const [pid, { ppid }] of table) {
      if (ppid !== runnerPid || running.has(pid)) continue;
      let file;
      try {
        file = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').find((arg) => arg.endsWith('.test.js'));
      } catch {
        continue; // ended meanwhile
      }
      if (file !== undefined) running.set(pid, { file: relative(testRoot, file), startedAt: now });
    }
    for (const [pid, entry] of running) {
      if (!table.has(pid)) {
        running.delete(pid);
        finished.push({ file: entry.file, millis: now - entry.startedAt });
      } else if (now - entry.startedAt > limitMillis && !entry.killed) {
        entry.killed = true;
        const tree = [pid, ...descendants(table, pid)];
        console.error(`run-tests: ${entry.file} still running after ${Math.round((now - entry.startedAt) / 1000)} s (limit GANNET_TEST_FILE_MINUTES=${limitMillis / 60_000}): killed, with the ${tree.length - 1} processes it started`);
        for (const victim of tree) {
          try {
            process.kill(victim, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    }
  }, POLL_MILLIS);
  timer.unref();
  return () => {
    clearInterval(timer);
    for (const entry of running.values()) finished.push({ file: entry.file, millis: Date.now() - entry.startedAt });
    const slowest = finished.sort((a, b) => b.millis - a.millis).slice(0, SLOWEST_SHOWN);
    if (slowest.length > 0) console.log(`# slowest files (±${POLL_MILLIS / 1000} s): ${slowest.map(({ file, millis }) => `${file} ${Math.round(millis / 1000)} s`).join(', ')}`);
  };
}
