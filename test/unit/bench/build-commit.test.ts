/**
 * The commit a benchmark report names is the one its build was compiled from (build-info.json written by
 * scripts/stamp-build.mjs), never the repository's HEAD at run time; an unstamped build says it is unknown.
 * The test runs against the build it was compiled into and restores that build's stamp afterwards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCommit, newTrackResult } from '../../../bench/lib/report.js';

// This file runs as <build>/test/unit/bench/build-commit.test.js.
const buildRoot = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
const stampFile = join(buildRoot, 'build-info.json');

test('a build names the commit stamped into it, or says it does not know', () => {
  const saved = existsSync(stampFile) ? readFileSync(stampFile) : undefined;
  try {
    rmSync(stampFile, { force: true });
    assert.equal(buildCommit(), `unknown (build dir ${buildRoot})`);
    assert.equal(newTrackResult('t', 1, []).commit, `unknown (build dir ${buildRoot})`);

    writeFileSync(stampFile, JSON.stringify({ commit: 'abc1234', dirty: false }));
    assert.equal(buildCommit(), 'abc1234');
    writeFileSync(stampFile, JSON.stringify({ commit: 'abc1234', dirty: true }));
    assert.equal(buildCommit(), 'abc1234+dirty');
    writeFileSync(stampFile, '{not json');
    assert.equal(buildCommit(), `unknown (build dir ${buildRoot})`);
  } finally {
    if (saved === undefined) rmSync(stampFile, { force: true });
    else writeFileSync(stampFile, saved);
  }
});

test('scripts/stamp-build.mjs records the source HEAD', () => {
  const saved = existsSync(stampFile) ? readFileSync(stampFile) : undefined;
  // The tests run from the repository's root.
  const source = process.cwd();
  try {
    execFileSync(process.execPath, [join(source, 'scripts', 'stamp-build.mjs'), buildRoot, source]);
    const head = execFileSync('git', ['-C', source, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const info = JSON.parse(readFileSync(stampFile, 'utf8')) as { commit: string; dirty: boolean };
    assert.equal(info.commit, head);
    assert.equal(buildCommit(), info.dirty ? `${head}+dirty` : head);
  } finally {
    if (saved === undefined) rmSync(stampFile, { force: true });
    else writeFileSync(stampFile, saved);
  }
});
