/**
 * bin/gannet, the launcher: it execs Node.js with config/node.options and GANNET_NODE_OPTIONS, so the started
 * process is the node itself (signals and kill -9 reach it) and its command line carries the runtime options.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { GANNET_ENTRY, rawRequest } from '../helpers/node-process.js';

/** bin/gannet of the repository (beside dist/, or the working directory for a private build). */
function launcherScript(): string {
  const buildRoot = dirname(dirname(dirname(GANNET_ENTRY)));
  const besideBuild = join(buildRoot, '..', 'bin', 'gannet');
  return existsSync(besideBuild) ? besideBuild : join(process.cwd(), 'bin', 'gannet');
}

test('bin/gannet starts the node with node.options then GANNET_NODE_OPTIONS, as one process', async () => {
  const home = mkdtempSync(join(tmpdir(), 'gannet-launcher-'));
  try {
    // An installation laid out as the launcher expects: bin/gannet beside dist/ (this build).
    mkdirSync(join(home, 'bin'));
    copyFileSync(launcherScript(), join(home, 'bin', 'gannet'));
    symlinkSync(dirname(dirname(dirname(GANNET_ENTRY))), join(home, 'dist'));
    const conf = join(home, 'conf');
    mkdirSync(conf);
    writeFileSync(join(conf, 'node.options'), '# test options\n--max-semi-space-size=24\n\n  --max-old-space-size=700\n');
    const child = spawn('sh', [join(home, 'bin', 'gannet'), 'start', '-E', `path.data=${join(home, 'data')}`, '-E', `path.logs=${join(home, 'logs')}`, '-E', 'http.port=0', '-E', 'transport.port=0'], {
      env: { ...process.env, GANNET_PATH_CONF: conf, GANNET_NODE_OPTIONS: '--stack-size=900' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const logs: string[] = [];
    createInterface({ input: child.stderr }).on('line', (line) => logs.push(line));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start in 30s:\n${logs.join('\n')}`)), 30_000);
      createInterface({ input: child.stdout }).on('line', (line) => {
        logs.push(line);
        try {
          const entry = JSON.parse(line) as { event?: string; http_address?: string };
          if (entry.event === 'started' && entry.http_address) {
            clearTimeout(timer);
            resolve(Number(entry.http_address.split(':').pop()));
          }
        } catch {
          // not a JSON log line
        }
      });
    });
    // exec: the pid we spawned is node itself, with the options before the entry point, file first.
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
    const entryAt = argv.findIndex((arg) => arg.endsWith(join('src', 'cli', 'run.js')));
    assert.ok(entryAt > 0, argv.join(' '));
    assert.deepEqual(argv.slice(1, entryAt), ['--max-semi-space-size=24', '--max-old-space-size=700', '--stack-size=900']);
    assert.equal((await rawRequest(port, 'GET', '/_cluster/health')).status, 200);
    child.kill('SIGKILL');
    await exited;
    await assert.rejects(rawRequest(port, 'GET', '/'), 'kill -9 of the launched pid stops the node');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('bin/gannet without a build says what to run', async () => {
  const home = mkdtempSync(join(tmpdir(), 'gannet-launcher-'));
  try {
    mkdirSync(join(home, 'bin'));
    copyFileSync(launcherScript(), join(home, 'bin', 'gannet'));
    const child = spawn('sh', [join(home, 'bin', 'gannet'), 'health'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close', not 'exit': 'exit' can come before the last of the child's stderr is read (both are ready in the same
    // poll when this process was off the CPU), and the message was then asserted on an empty string.
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(code, 78);
    assert.match(stderr, /run "npm install"/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
