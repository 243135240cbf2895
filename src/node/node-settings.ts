/**
 * Where node settings come from, as Elasticsearch resolves them: defaults, then `config/gannet.yml` (nested
 * or dotted keys, `${ENV_VAR}` substitution), then `-E key=value` flags, which win. The result is checked
 * against the node setting registry before anything starts: an unknown key, an index setting, or a value of
 * the wrong type fails the start with ES's message, so a misspelled setting is never ignored in silence.
 */
import { readFileSync, existsSync, statSync } from 'node:fs';
import { hasOwnKey, ownValue, setOwnValue } from '../common/own-keys.js';
import { parseDocument } from 'yaml';
import { EsError, errors } from '../common/errors.js';
import { Settings, flatten, type FlatSettings } from '../common/settings.js';
import { checkSettingValue, unknownSettingError } from '../common/setting-types.js';
import { ALL_ROLES, KNOWN_ROLES, type NodeRole } from '../cluster/discovery-node.js';
import { nodeSettingDefinition, nodeSettingDefinitions, registeredDefaults } from './node-setting-registry.js';

/** The settings every node carries in its own settings (what nodes info prints), from the registry. */
export function defaultSettings(): FlatSettings {
  return registeredDefaults([
    'cluster.name',
    'node.name',
    'path.data',
    'path.logs',
    'network.host',
    'http.port',
    'transport.port',
    'http.max_content_length',
    'http.max_initial_line_length',
    'http.max_header_size',
    'http.allowed_hosts',
    'http.compression',
    'compatibility.version',
    'cluster.coordination',
  ]);
}

/** Replaces `${NAME}` with the environment variable NAME, failing when it is not set (as ES does). */
export function substituteEnv(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_.]*)\}/g, (_, name: string) => {
    const value = ownValue(env, name);
    if (value === undefined) throw new Error(`Could not resolve placeholder '${name}'`);
    return value;
  });
}

/** A settings file that cannot be read as settings: the message names the file, and the line when there is one. */
function badSettingsFile(path: string, problem: string): EsError {
  return errors.illegalArgument(`Failed to load settings from [${path}]: ${problem}`);
}

/**
 * The settings of a YAML file; absent file, no settings. Errors name the file and the line. `${NAME}` is replaced
 * in values after parsing, as ES resolves placeholders, so a comment may mention one freely.
 */
export function loadConfigFile(path: string, env: NodeJS.ProcessEnv): FlatSettings {
  if (!existsSync(path)) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw badSettingsFile(path, (err as Error).message);
  }
  const document = parseDocument(text, { uniqueKeys: true });
  const firstError = document.errors[0];
  if (firstError !== undefined) {
    const position = firstError.linePos?.[0];
    // yaml's own message repeats the position and quotes the source on more lines; one line is what an operator needs.
    const reason = firstError.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw badSettingsFile(path, position ? `${reason} at line ${position.line}, column ${position.col}` : reason);
  }
  const parsed: unknown = document.toJS();
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw badSettingsFile(path, 'expected a map of settings');
  const settings = flattenWithoutDuplicates(parsed, path);
  try {
    for (const [key, value] of Object.entries(settings)) setOwnValue(settings, key, substituteEnv(value, env));
  } catch (err) {
    throw badSettingsFile(path, (err as Error).message);
  }
  return settings;
}

/** ES refuses a key given twice (`a.b: 1` beside `a: {b: 2}`), where flattening would silently keep one. */
function flattenWithoutDuplicates(parsed: object, path: string): FlatSettings {
  const out: FlatSettings = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    for (const [flatKey, flatValue] of Object.entries(flatten(value, key))) {
      if (hasOwnKey(out, flatKey)) throw badSettingsFile(path, `duplicate settings key [${flatKey}]`);
      setOwnValue(out, flatKey, flatValue);
    }
  }
  return out;
}

/** Parses `-E key=value` pairs. */
export function parseCommandLineSettings(pairs: string[]): FlatSettings {
  const out: FlatSettings = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw errors.illegalArgument(`setting [${pair}] must be in the form key=value`);
    setOwnValue(out, pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return out;
}

/**
 * ES's SettingsModule checks: no index settings on a node, every key registered, every value of its type.
 * The first problem is thrown; the start stops there.
 */
export function validateNodeSettings(settings: Readonly<FlatSettings>): void {
  const indexLevel = Object.keys(settings).filter((key) => key.startsWith('index.')).sort();
  if (indexLevel.length > 0) {
    throw errors.illegalArgument(
      `node settings must not contain any index level settings [${indexLevel.join(', ')}]: set them per index (PUT /{index}/_settings) or in an index template`,
    );
  }
  const knownKeys = nodeSettingDefinitions().map((definition) => definition.key);
  for (const [key, value] of Object.entries(settings)) {
    const definition = nodeSettingDefinition(key);
    if (definition === undefined) throw unknownSettingError(key, knownKeys);
    try {
      if (definition.checkReplacesType !== true) checkSettingValue(definition.type, value, key);
      definition.check?.(value, key);
    } catch (err) {
      // Some of ES's value messages do not name the setting (`Unknown level constant [LOUD].`); at start-up the
      // operator needs to know which line to fix.
      if (err instanceof EsError && !err.message.includes(`[${key}]`)) throw errors.illegalArgument(`${err.message} (setting [${key}])`);
      throw err;
    }
  }
}

export function resolveSettings(options: { configFile?: string; commandLine?: FlatSettings; env?: NodeJS.ProcessEnv }): Settings {
  const env = options.env ?? process.env;
  const fromFile = options.configFile ? loadConfigFile(options.configFile, env) : {};
  const values = { ...defaultSettings(), ...fromFile, ...(options.commandLine ?? {}) };
  validateNodeSettings(values);
  return new Settings(values);
}

/** The config folder must exist when named (`--config`, GANNET_PATH_CONF): a typo there would start a node with defaults. */
export function checkConfigFolder(path: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw errors.illegalArgument(`the config folder [${path}] does not exist`);
  }
  if (!isDirectory) throw errors.illegalArgument(`the config folder [${path}] is not a folder`);
}

/** `node.roles`: all roles by default; an explicit empty list makes a coordinating-only node. */
export function nodeRoles(settings: Settings): NodeRole[] {
  const configured = settings.getList('node.roles');
  if (configured === undefined) return [...ALL_ROLES];
  for (const role of configured) {
    if (!(KNOWN_ROLES as readonly string[]).includes(role)) throw errors.illegalArgument(`unknown role [${role}]`);
  }
  return [...new Set(configured as NodeRole[])].sort();
}

/** Failure detection's node settings (docs/decisions/0011-failure-detection.md), checked when the node starts. */
export interface FaultDetectionSettings {
  /** `cluster.etcd.lease_ttl` (10s, at least 1s, whole seconds): how long a silent node stays a member. */
  readonly leaseTtlSeconds: number;
  /** `cluster.etcd.join_timeout` (30s): how long start waits for a master before serving with the no-master block. */
  readonly joinTimeoutMillis: number;
  /** `cluster.fault_detection.probe_timeout` (1s): the connect that asks whether a disconnected node is gone. */
  readonly probeTimeoutMillis: number;
  /** `cluster.nodes.reconnect_interval` (ES's default 10s; Gannet 1s): how often a failed connection is retried. */
  readonly reconnectIntervalMillis: number;
}

export function faultDetectionSettings(settings: Settings): FaultDetectionSettings {
  const atLeast = (key: string, fallback: number, minimum: number, minimumText: string): number => {
    const millis = settings.getTimeMillis(key, fallback);
    if (millis < minimum) throw new EsError('illegal_argument_exception', `failed to parse value [${settings.getString(key, '')}] for setting [${key}], must be >= [${minimumText}]`);
    return millis;
  };
  return {
    // etcd grants leases in whole seconds.
    leaseTtlSeconds: Math.round(atLeast('cluster.etcd.lease_ttl', 10_000, 1000, '1s') / 1000),
    joinTimeoutMillis: atLeast('cluster.etcd.join_timeout', 30_000, 0, '0s'),
    probeTimeoutMillis: atLeast('cluster.fault_detection.probe_timeout', 1000, 1, '1ms'),
    reconnectIntervalMillis: atLeast('cluster.nodes.reconnect_interval', 1000, 1, '1ms'),
  };
}
