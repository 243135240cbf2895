import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeOptionsFor, parseNodeOptions } from '../../../src/node/node-options.js';

test('node.options: one option per line, comments and blank lines ignored, order kept', () => {
  const text = '# heap\n--max-semi-space-size=32\n\n  --initial-old-space-size=128  \n   # indented comment\n--stack-size=900 --no-warnings\n';
  assert.deepEqual(parseNodeOptions(text), ['--max-semi-space-size=32', '--initial-old-space-size=128', '--stack-size=900', '--no-warnings']);
});

test('node.options: a line that is not an option is refused with its text', () => {
  assert.throws(() => parseNodeOptions('--a\nmax-semi-space-size=32\n'), /\[max-semi-space-size=32\] is not an option/);
});

test('the file comes first, GANNET_NODE_OPTIONS after it; a missing file gives only the environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gannet-node-options-'));
  try {
    assert.deepEqual(nodeOptionsFor(dir, { GANNET_NODE_OPTIONS: ' --x=1  --y ' }), ['--x=1', '--y']);
    writeFileSync(join(dir, 'node.options'), '--max-semi-space-size=32\n');
    assert.deepEqual(nodeOptionsFor(dir, { GANNET_NODE_OPTIONS: '--max-semi-space-size=8' }), ['--max-semi-space-size=32', '--max-semi-space-size=8']);
    assert.deepEqual(nodeOptionsFor(dir, {}), ['--max-semi-space-size=32']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the repository's config/node.options parses", async () => {
  const { readFileSync } = await import('node:fs');
  const options = parseNodeOptions(readFileSync(join(process.cwd(), 'config', 'node.options'), 'utf8'));
  assert.ok(options.includes('--max-semi-space-size=32'), options.join(' '));
});
