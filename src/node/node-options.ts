/**
 * The Node.js runtime options a Gannet node starts with: `config/node.options` (one option per line, `#` comments),
 * then `GANNET_NODE_OPTIONS` (space-separated), the way Elasticsearch reads `jvm.options` and then `ES_JAVA_OPTS`.
 * bin/gannet applies the same rules in shell, because V8's heap options only take effect on the command line of a
 * starting process (they are refused in NODE_OPTIONS and ignored once the heap exists).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const NODE_OPTIONS_FILE = 'node.options';

/** The options in the text of a node.options file, in order. */
export function parseNodeOptions(text: string): string[] {
  const options: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (!line.startsWith('-')) throw new Error(`node.options: [${line}] is not an option (options start with '-')`);
    options.push(...line.split(/\s+/));
  }
  return options;
}

/** `config/node.options` of `configDir` (none when the file is absent) followed by GANNET_NODE_OPTIONS. */
export function nodeOptionsFor(configDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const file = join(configDir, NODE_OPTIONS_FILE);
  const fromFile = existsSync(file) ? parseNodeOptions(readFileSync(file, 'utf8')) : [];
  const fromEnv = (env['GANNET_NODE_OPTIONS'] ?? '').split(/\s+/).filter((option) => option !== '');
  return [...fromFile, ...fromEnv];
}
