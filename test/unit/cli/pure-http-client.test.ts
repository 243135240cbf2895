/**
 * The operator commands are a pure HTTP client: an operator tool that reached into server internals could
 * show what the code believes rather than what the node answers. Only `start` may load the server (and `cluster`
 * the node's runtime options, to start node processes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Runs from the compiled tree; the sources sit beside package.json in the cwd, as architecture.test.ts assumes.
const cliRoot = join(process.cwd(), 'src', 'cli');
// The launchers: `start` runs a node, `cluster` starts node processes and etcd (it reads the node's runtime options).
const SERVER_SIDE = new Set(['start-command.ts', 'run.ts', 'cluster-command.ts']);
const LAUNCHER_IMPORTS = new Set(['./start-command.js', './cluster-command.js']);

test('src/cli imports only itself and src/common, except the start command', () => {
  const violations: string[] = [];
  for (const name of readdirSync(cliRoot).filter((file) => file.endsWith('.ts') && !SERVER_SIDE.has(file))) {
    const text = readFileSync(join(cliRoot, name), 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"](\.[^'"]+)['"]/gm)) {
      const target = match[1]!;
      if (!target.startsWith('./') && !target.startsWith('../common/')) violations.push(`${name} imports ${target}`);
    }
    for (const match of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      if (!LAUNCHER_IMPORTS.has(match[1]!)) violations.push(`${name} dynamically imports ${match[1]}`);
    }
  }
  assert.deepEqual(violations, []);
});
