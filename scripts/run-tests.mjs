#!/usr/bin/env node
// Runs the compiled test files (dist/test/**/*.test.js) with node's built-in test runner.
// Usage: node scripts/run-tests.mjs [unit|integration|compat|cluster ...] [--only-file substring]
// Node 20's --test does not expand globs itself, so the file list is gathered here.
// GANNET_BUILD_DIR points at another compiled tree (tsc --outDir X) instead of dist/. GANNET_TEST_FILE_MINUTES: below.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { watchTestFiles } from './test-file-watchdog.mjs';

const root = new URL('..', import.meta.url).pathname;
const testRoot = join(process.env.GANNET_BUILD_DIR ?? join(root, 'dist'), 'test');
const args = process.argv.slice(2);
const onlyIdx = args.indexOf('--only-file');
const only = onlyIdx >= 0 ? args.splice(onlyIdx, 2)[1] : undefined;
const suites = args.length > 0 ? args : null;

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

let files = collect(testRoot, []);
if (suites) files = files.filter((f) => suites.some((s) => relative(testRoot, f).startsWith(s + '/')));
// Match against the path below the test root, so a build dir named e.g. /tmp/build-cat does not match everything.
if (only) files = files.filter((f) => relative(testRoot, f).includes(only));
if (files.length === 0) {
  console.error('no test files found under ' + testRoot);
  process.exit(1);
}
const concurrency = process.env.GANNET_TEST_CONCURRENCY ?? '2';
const setup = join(root, 'scripts', 'test-setup.mjs');
const child = spawn(process.execPath, ['--import', setup, '--test', `--test-concurrency=${concurrency}`, ...files], { stdio: 'inherit' });
// A file that hangs (a timer that never ends, a wait for an event that never comes) is killed with its name after
// GANNET_TEST_FILE_MINUTES (default 20), instead of holding the run until CI's own 90-minute limit. The last CI run's
// tests took 13.4 min in all (2 cores), so no file that passes there comes near it; the run ends by listing its
// slowest files. scripts/test-file-watchdog.mjs says why node's --test-timeout does not do this.
const fileMinutes = Number(process.env.GANNET_TEST_FILE_MINUTES ?? 20);
const stopWatching = watchTestFiles(child.pid, testRoot, fileMinutes * 60_000);
child.on('exit', (code, signal) => {
  stopWatching();
  process.exit(signal ? 1 : (code ?? 1));
});
