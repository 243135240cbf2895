import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directorySizeBytes } from '../../../src/monitor/directory-size.js';

test('sums file lengths under a directory, recursively, without following links', async () => {
  const root = mkdtempSync(join(tmpdir(), 'gannet-dirsize-'));
  try {
    assert.equal(await directorySizeBytes(join(root, 'missing')), 0);
    mkdirSync(join(root, 'indices', 'uuid', '0'), { recursive: true });
    assert.equal(await directorySizeBytes(join(root, 'indices')), 0);
    writeFileSync(join(root, 'indices', 'a'), Buffer.alloc(100));
    writeFileSync(join(root, 'indices', 'uuid', '0', 'seg'), Buffer.alloc(4096 + 7));
    symlinkSync(join(root, 'indices', 'a'), join(root, 'indices', 'link'));
    assert.equal(await directorySizeBytes(join(root, 'indices')), 100 + 4096 + 7);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
