#!/usr/bin/env node
/**
 * Records which commit a build was compiled from, so a benchmark run from that build reports its own commit
 * rather than the one the repository is at when it runs:
 *
 *   node scripts/stamp-build.mjs <outDir> [sourceDir]
 *
 * writes <outDir>/build-info.json with the short HEAD of sourceDir (default: the current directory) and
 * whether src/ or bench/ had uncommitted changes then (reported as "<commit>+dirty"). Run it right after tsc;
 * `npm run build` does. A build without the file reports "unknown (build dir ...)".
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const outDir = resolve(process.argv[2] ?? 'dist');
const sourceDir = resolve(process.argv[3] ?? '.');
const git = (...args) => execFileSync('git', ['-C', sourceDir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

const stamp = join(outDir, 'build-info.json');
try {
  const commit = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain', '--', 'src', 'bench') !== '';
  writeFileSync(stamp, JSON.stringify({ commit, dirty, sourceDir, builtAt: new Date().toISOString() }, null, 2) + '\n');
} catch {
  // Not a git checkout (or no git): the build does not know its commit; never leave an older stamp behind.
  rmSync(stamp, { force: true });
}
