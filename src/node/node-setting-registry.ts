/**
 * Every node setting Gannet accepts, in one table: its type, its default, whether it can change on a running
 * node (through `PUT _cluster/settings`), and what it does. This is ES's ClusterSettings.BUILT_IN_CLUSTER_SETTINGS
 * for Gannet: a key that is not here fails the start with ES's "unknown setting [...]" message and a did-you-mean,
 * and README's settings table is checked against this list by test/unit/node/node-setting-registry.test.ts.
 *
 * Adding a setting: add one entry below (or, for a dynamic cluster setting, to
 * src/cluster/settings/cluster-setting-registry.ts, which this table includes), read it where it acts, run
 * `node scripts/settings-table.mjs` and paste its output over README's table. The type decides which values
 * are accepted (src/common/setting-types.ts); `check` adds a rule the type cannot say.
 */
import { hostname } from 'node:os';
import { errors } from '../common/errors.js';
import { settingTypes as t, type SettingType } from '../common/setting-types.js';
import { DEFAULT_COMPATIBILITY_VERSION } from '../common/version.js';
import { KNOWN_ROLES } from '../cluster/discovery-node.js';
import { clusterSettingDefinitions } from '../cluster/settings/index.js';

export interface NodeSettingDefinition {
  /** The key, or for a group of settings (ES's affix settings) a pattern ending in `*`, e.g. `node.attr.*`. */
  readonly key: string;
  readonly type: SettingType;
  /** The value a node uses when nothing sets it; undefined when it is computed (see `defaultText`). */
  readonly defaultValue: string | undefined;
  /** How the default reads in README when it is computed or absent. */
  readonly defaultText?: string;
  /** True when `PUT _cluster/settings` can change it on a running node. */
  readonly dynamic: boolean;
  /** One line for README. */
  readonly description: string;
  /** A rule beyond the type, throwing ES's error. */
  readonly check?: (value: string, key: string) => void;
  /** `check` is the whole of ES's validation (the cluster settings' validators): the type is only documentation. */
  readonly checkReplacesType?: boolean;
}

/** log4j's Level.valueOf, which ES's `logger.level` parses with. */
export const LOG_LEVELS = ['OFF', 'FATAL', 'ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE', 'ALL'] as const;

function checkLogLevel(value: string): void {
  if (!(LOG_LEVELS as readonly string[]).includes(value.toUpperCase())) throw errors.illegalArgument(`Unknown level constant [${value.toUpperCase()}].`);
}

function checkRoles(value: string): void {
  const roles = value.trim().replace(/^\[|\]$/g, '').split(',').map((role) => role.trim()).filter(Boolean);
  for (const role of roles) if (!(KNOWN_ROLES as readonly string[]).includes(role)) throw errors.illegalArgument(`unknown role [${role}]`);
}

function checkVersion(value: string, key: string): void {
  if (!/^[7-9]\.\d+\.\d+$/.test(value)) throw errors.illegalArgument(`invalid value [${value}] for setting [${key}]: expected an Elasticsearch version 7.x.y, 8.x.y or 9.x.y`);
}

const setting = (
  key: string,
  type: SettingType,
  defaultValue: string | undefined,
  description: string,
  extra: { defaultText?: string; check?: NodeSettingDefinition['check'] } = {},
): NodeSettingDefinition => ({ key, type, defaultValue, dynamic: false, description, ...extra });

const NODE_SETTINGS: readonly NodeSettingDefinition[] = [
  setting('cluster.name', t.string, 'gannet', 'the cluster this node belongs to'),
  setting('node.name', t.string, undefined, 'this node’s name in every API', { defaultText: 'the host name' }),
  setting('node.roles', t.list, undefined, 'e.g. `[master, data]`; `[]` makes a coordinating-only node', { defaultText: 'all roles', check: checkRoles }),
  setting('node.attr.*', t.string, undefined, 'node attributes (`node.attr.rack: r1`), matched by index allocation filters', { defaultText: 'none' }),
  setting('node.processors', t.double(0), undefined, 'the processors thread pools are sized for (at most the machine’s)', { defaultText: 'the processors the machine offers' }),
  setting('path.data', t.string, 'data', 'node id, cluster metadata and shard data'),
  setting('path.logs', t.string, 'logs', 'the JSON log file `<cluster.name>_server.json` (rotated by size) and its rotated copies'),
  setting('network.host', t.string, '127.0.0.1', 'the address HTTP and transport bind to'),
  setting('network.publish_host', t.string, undefined, 'the address other nodes and clients are told', { defaultText: '`network.host`' }),
  setting('http.port', t.portRange, '9200-9299', 'the first free port of the range; `0` asks the OS'),
  setting('transport.port', t.portRange, '9300-9399', 'the node-to-node port (range as `http.port`)'),
  setting('http.max_content_length', t.bytes, '100mb', 'larger request bodies are answered 413'),
  setting('http.max_initial_line_length', t.bytes, '4kb', 'a longer request line is answered 400'),
  setting('http.max_header_size', t.bytes, '16kb', 'larger request headers are answered 400 (ES 8’s default)'),
  setting('http.allowed_hosts', t.list, '', 'names besides IP addresses, localhost and this machine’s name that requests may address the node by (`*`: any; DNS rebinding, [decision 0008](docs/decisions/0008-cross-site-requests.md))', { defaultText: 'none' }),
  setting('http.compression', t.boolean, 'true', 'gzip responses for clients that accept it'),
  setting('http.cors.enabled', t.boolean, 'false', 'answer cross-origin requests (browser tools such as elasticsearch-head)'),
  setting('http.cors.allow-origin', t.string, '', 'allowed origins: `*`, a comma list, or a `/regex/`'),
  setting('http.cors.allow-methods', t.list, 'OPTIONS,HEAD,GET,POST,PUT,DELETE', 'methods a preflight allows'),
  setting('http.cors.allow-headers', t.list, 'X-Requested-With,Content-Type,Content-Length,Authorization,Accept,User-Agent,X-Elastic-Client-Meta', 'headers a preflight allows'),
  setting('http.cors.allow-credentials', t.boolean, 'false', 'send `Access-Control-Allow-Credentials`'),
  setting('http.cors.max-age', t.integer(), '1728000', 'seconds a browser may cache a preflight'),
  setting('http.cors.expose-headers', t.list, 'X-elastic-product', 'response headers a browser script may read'),
  setting('compatibility.version', t.string, DEFAULT_COMPATIBILITY_VERSION, 'the Elasticsearch version reported to clients ([why](docs/decisions/0001-reported-version.md))', { check: checkVersion }),
  setting('cluster.coordination', t.oneOf(['embedded', 'etcd']), 'embedded', '`embedded`: one node, its own master; `etcd`: nodes form a cluster through etcd ([why](docs/decisions/0006-coordination-on-etcd.md))'),
  setting('cluster.etcd.endpoints', t.list, 'http://127.0.0.1:2379', 'the etcd cluster (`cluster.coordination: etcd`)'),
  setting('cluster.etcd.lease_ttl', t.time(1000), '10s', 'how long a node that stops renewing its lease stays in the cluster'),
  setting('cluster.etcd.join_timeout', t.time(0), '30s', 'how long a starting node waits to join'),
  setting('discovery.type', t.oneOf(['single-node', 'multi-node']), 'multi-node', 'accepted as ES has it; embedded coordination is a single node either way'),
  setting('cluster.indices.close.enable', t.boolean, 'true', '`false` refuses `_close`'),
  setting('search.max_open_scroll_context', t.integer(0), '500', 'open scroll contexts per node; more is a 429'),
  setting('logger.level', t.string, 'info', 'off, fatal, error, warn, info, debug, trace or all; JSON lines on stdout and in the log file', { check: checkLogLevel }),
  setting('logger.file.max_size', t.bytes, '128mb', 'the log file is rotated when it reaches this size (ES’s log4j2 policy)'),
  setting('logger.file.max_files', t.integer(1), '16', 'rotated log files kept beside the current one'),
  setting('monitor.os.refresh_interval', t.time(1000), '1s', 'how long OS figures are cached'),
  setting('monitor.process.refresh_interval', t.time(1000), '1s', 'how long process figures are cached'),
  setting('monitor.fs.refresh_interval', t.time(1000), '1s', 'how long file-system figures are cached'),
  setting('monitor.jvm.gc.enabled', t.boolean, 'true', 'log garbage-collection overhead (ES’s JvmGcMonitorService)'),
  setting('monitor.jvm.gc.refresh_interval', t.time(1000), '1s', 'how often GC overhead is measured'),
  setting('monitor.jvm.gc.overhead.warn', t.integer(0, 100), '50', 'percent of an interval spent in GC logged at warn'),
  setting('monitor.jvm.gc.overhead.info', t.integer(0, 100), '25', 'percent of an interval spent in GC logged at info'),
  setting('monitor.jvm.gc.overhead.debug', t.integer(0, 100), '10', 'percent of an interval spent in GC logged at debug'),
  setting('thread_pool.estimated_time_interval.warn_threshold', t.time(0), '5s', 'an event-loop stall longer than this is logged at warn (ES’s timer-thread check); `0` turns it off'),
];

function clusterSettings(): NodeSettingDefinition[] {
  return clusterSettingDefinitions().map((definition) => ({
    key: definition.key,
    type: definition.type,
    defaultValue: definition.defaultValue,
    dynamic: true,
    description: definition.description,
    check: definition.validate,
    checkReplacesType: true,
  }));
}

let all: readonly NodeSettingDefinition[] | undefined;

/** Every node setting, node-only ones first, then the dynamic cluster settings (which a node may also set). */
export function nodeSettingDefinitions(): readonly NodeSettingDefinition[] {
  all ??= [...NODE_SETTINGS, ...clusterSettings()];
  return all;
}

/** The definition a flat key belongs to: its own, or the group (`node.attr.*`) it falls under. */
export function nodeSettingDefinition(key: string): NodeSettingDefinition | undefined {
  for (const definition of nodeSettingDefinitions()) {
    if (definition.key === key) return definition;
    if (definition.key.endsWith('.*') && key.startsWith(definition.key.slice(0, -1)) && key.length > definition.key.length - 1) return definition;
  }
  return undefined;
}

/** The registry's default of each key, for the node's starting values. */
export function registeredDefaults(keys: readonly string[]): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const key of keys) {
    const value = key === 'node.name' ? hostname() : nodeSettingDefinition(key)?.defaultValue;
    if (value === undefined) throw new Error(`no registered default for node setting [${key}]`);
    defaults[key] = value;
  }
  return defaults;
}
