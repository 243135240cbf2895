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

/**
 * "Is this node local?" is the transport's question (decision 0020): actions name the node and send
 * (actions/remote-node.ts), and the transport runs a request to this node in-process. A comparison with this
 * node's id in actions/ is allowed only where it is not a choice between running here and sending: each place is
 * listed with how many such comparisons it holds and why.
 */
const LOCAL_NODE_COMPARISONS: Record<string, { count: number; why: string }> = {
  'actions/copy-preference.ts': { count: 3, why: 'which copy a read prefers (`_local`, `_only_local`, this node first), not how it is reached' },
  'actions/node-actions.ts': { count: 1, why: "bans go to the other nodes: this node's TaskManager cancels its own children itself (ES's TaskCancellationService)" },
  'actions/tasks/task-results-index.ts': { count: 1, why: "the id floor only concerns this node's own task ids" },
  'actions/documents/write-executor.ts': { count: 3, why: "the primary's node checks that the primary is still its own copy (ES's primary action), after the request reached it" },
};

test('actions decide "is this node local?" only through the transport seam', () => {
  // `x === services.localNode.id`, `localNode.id !== y`, or a local id kept in a variable for such comparisons.
  const pattern = /(?:===|!==)\s*[\w.?]*localNode\.id\b|\blocalNode\.id\s*(?:===|!==)|\blocal(?:Node)?Id\b/g;
  const found: Record<string, number> = {};
  for (const file of sourceFiles(join(srcRoot, 'actions'))) {
    const code = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
      .join('\n');
    const count = [...code.matchAll(pattern)].length;
    if (count > 0) found[relative(srcRoot, file)] = count;
  }
  const allowed = Object.fromEntries(Object.entries(LOCAL_NODE_COMPARISONS).map(([file, entry]) => [file, entry.count]));
  assert.deepEqual(found, allowed, 'send to the node through sendToNode (actions/remote-node.ts) instead of comparing with the local node id');
});
