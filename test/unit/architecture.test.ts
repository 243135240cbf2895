/**
 * The layering rule of DESIGN.md, enforced: a module may import only from its own folder or from folders
 * below it. Listed top (may import everything below) to bottom.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const LAYERS = [
  'cli',
  'node',
  'http',
  'actions',
  'reindex',
  'cat',
  'cluster',
  'indices',
  'search',
  'engine',
  'mapping',
  'analysis',
  'monitor',
  'script',
  // Low, so that replication and recovery in indices/ can send requests and carry parent task ids.
  'tasks',
  'transport',
  'common',
];

// Runs from the compiled tree; the sources sit beside package.json, found by walking up from the cwd.
const srcRoot = join(process.cwd(), 'src');

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

test('every top-level folder of src/ is a known layer', () => {
  for (const name of readdirSync(srcRoot)) {
    if (statSync(join(srcRoot, name)).isDirectory()) assert.ok(LAYERS.includes(name), `src/${name} is not in the layer list`);
  }
});

test('layers import downward only', () => {
  const violations: string[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const layer = relative(srcRoot, file).split('/')[0]!;
    const rank = LAYERS.indexOf(layer);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"](\.[^'"]+)['"]/gm)) {
      const target = relative(srcRoot, resolve(dirname(file), match[1]!)).split('/')[0]!;
      if (target === layer) continue;
      const targetRank = LAYERS.indexOf(target);
      if (targetRank <= rank) violations.push(`${relative(srcRoot, file)} imports ${match[1]} (${target} is not below ${layer})`);
    }
  }
  assert.deepEqual(violations, []);
});
