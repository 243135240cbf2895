#!/usr/bin/env node
// The cluster-mode audit (issue 12): runs API test files one at a time with GANNET_TEST_CLUSTER=3, so each test's
// "start a node" starts etcd and three nodes and talks to one of them (test/helpers/test-cluster-mode.ts), and
// prints a table of passed/failed tests per file. Runs from dist/ (npm run build first).
// Usage: node scripts/cluster-audit.mjs [integration|compat ...] [--only-file substring] [--from file] [--logs DIR] [--coordinating]
//   --coordinating: the node the tests talk to holds no shards (GANNET_TEST_CLUSTER_TARGET=coordinating).
// One file at a time on purpose: every file starts four processes.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const take = (flag) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const only = take('--only-file');
// --from <file name>: start at that file (name order), e.g. to go on after an interrupted run.
const from = take('--from');
const logs = take('--logs') ?? join(tmpdir(), 'gannet-cluster-audit');
const coordinatingAt = args.indexOf('--coordinating');
const coordinating = coordinatingAt >= 0;
if (coordinating) args.splice(coordinatingAt, 1);
const suites = args.length > 0 ? args : ['integration', 'compat'];

// GANNET_BUILD_DIR: another compiled tree (as run-tests.mjs reads it), e.g. a copy of dist/ that a rebuild leaves alone.
const buildDir = process.env.GANNET_BUILD_DIR ?? join(root, 'dist');
const files = [];
for (const suite of suites) {
  for (const name of readdirSync(join(buildDir, 'test', suite)).sort()) {
    if (name.endsWith('.test.js') && (only === undefined || `${suite}/${name}`.includes(only))) files.push(`${suite}/${name.replace(/\.js$/, '')}`);
  }
}
if (from !== undefined) files.splice(0, Math.max(0, files.findIndex((file) => file.split('/')[1] >= from)));
mkdirSync(logs, { recursive: true });

function runOne(file) {
  return new Promise((resolve) => {
    const env = { ...process.env, GANNET_TEST_CLUSTER: process.env.GANNET_TEST_CLUSTER ?? '3', GANNET_TEST_CONCURRENCY: '1' };
    if (coordinating) env.GANNET_TEST_CLUSTER_TARGET = 'coordinating';
    const started = Date.now();
    const child = spawn(process.execPath, [join(root, 'scripts', 'run-tests.mjs'), file.split('/')[0], '--only-file', `${file}.`], { env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      writeFileSync(join(logs, `${basename(file)}.log`), output);
      const count = (label) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(output)?.[1] ?? 0);
      const failedNames = [...output.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((match) => match[1]);
      resolve({ file, code, pass: count('pass'), fail: count('fail'), seconds: Math.round((Date.now() - started) / 1000), failedNames });
    });
  });
}

const results = [];
for (const file of files) {
  const result = await runOne(file);
  results.push(result);
  process.stdout.write(`${result.fail === 0 && result.code === 0 ? 'ok  ' : 'FAIL'}  ${file}  pass ${result.pass}  fail ${result.fail}  ${result.seconds}s\n`);
  for (const name of result.failedNames) process.stdout.write(`        not ok: ${name}\n`);
}
const passed = results.reduce((sum, r) => sum + r.pass, 0);
const failed = results.reduce((sum, r) => sum + r.fail, 0);
process.stdout.write(`\n${results.length} files, ${passed} tests passed, ${failed} failed (logs in ${logs})\n`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
