/**
 * Where node settings come from, as Elasticsearch resolves them: defaults, then `config/gannet.yml` (nested
 * or dotted keys, `${ENV_VAR}` substitution), then `-E key=value` flags, which win.
 */
import { ownValue, setOwnValue } from '../common/own-keys.js';
import { readFileSync, existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { parse as parseYaml } from 'yaml';
import { EsError } from '../common/errors.js';
import { Settings, flatten, type FlatSettings } from '../common/settings.js';
import { ALL_ROLES, KNOWN_ROLES, type NodeRole } from '../cluster/discovery-node.js';
import { DEFAULT_COMPATIBILITY_VERSION } from '../common/version.js';

export function defaultSettings(): FlatSettings {
  return {
    'cluster.name': 'gannet',
    'node.name': hostname(),
    'path.data': 'data',
    'network.host': '127.0.0.1',
    'http.port': '9200-9299',
    'transport.port': '9300-9399',
    'http.max_content_length': '100mb',
    'http.max_initial_line_length': '4kb',
    'http.max_header_size': '8kb',
    // Names besides IP literals, localhost and this machine's name that requests may address the node by (DNS rebinding).
    'http.allowed_hosts': '',
    'http.compression': 'true',
    'compatibility.version': DEFAULT_COMPATIBILITY_VERSION,
    'cluster.coordination': 'embedded',
  };
}

/** Replaces `${NAME}` with the environment variable NAME, failing when it is not set (as ES does). */
export function substituteEnv(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_.]*)\}/g, (_, name: string) => {
    const value = ownValue(env, name);
    if (value === undefined) throw new Error(`Could not resolve placeholder '${name}'`);
    return value;
  });
}

export function loadConfigFile(path: string, env: NodeJS.ProcessEnv): FlatSettings {
  if (!existsSync(path)) return {};
  const text = substituteEnv(readFileSync(path, 'utf8'), env);
  const parsed: unknown = parseYaml(text);
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${path}: expected a map of settings`);
  return flatten(parsed);
}

/** Parses `-E key=value` pairs. */
export function parseCommandLineSettings(pairs: string[]): FlatSettings {
  const out: FlatSettings = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`setting [${pair}] must be in the form key=value`);
    setOwnValue(out, pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return out;
}

export function resolveSettings(options: { configFile?: string; commandLine?: FlatSettings; env?: NodeJS.ProcessEnv }): Settings {
  const env = options.env ?? process.env;
  const fromFile = options.configFile ? loadConfigFile(options.configFile, env) : {};
  return new Settings({ ...defaultSettings(), ...fromFile, ...(options.commandLine ?? {}) });
}

/** `node.roles`: all roles by default; an explicit empty list makes a coordinating-only node. */
export function nodeRoles(settings: Settings): NodeRole[] {
  const configured = settings.getList('node.roles');
  if (configured === undefined) return [...ALL_ROLES];
  for (const role of configured) {
    if (!(KNOWN_ROLES as readonly string[]).includes(role)) {
      throw new EsError('illegal_argument_exception', `unknown role [${role}]`);
    }
  }
  return [...new Set(configured as NodeRole[])].sort();
}
