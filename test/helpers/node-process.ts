/**
 * Starts a real Gannet node process for integration tests: its own temp data path, an OS-assigned HTTP port
 * (read back from the node's "started" log line), and helpers to call it over HTTP and to stop or kill it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { nodeOptionsFor, NODE_OPTIONS_FILE } from '../../src/node/node-options.js';
import { STILL_RUNNING_MARK } from '../../src/cli/exit-watchdog.js';
import { startsTestCluster, startTestCluster, type TestClusterPeers } from './test-cluster-mode.js';

/** The compiled tree this test runs from (dist/ or a private --outDir): test/helpers/ is two levels down. */
const buildRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The node entry point of the same build, so a test always runs the code it was compiled with. */
export const GANNET_ENTRY = join(buildRoot, 'src', 'cli', 'run.js');

/**
 * The repository's config/ (beside dist/, or the working directory for a private --outDir build): its node.options
 * are the runtime options bin/gannet starts a node with, so tests and benchmarks run the node as users do.
 */
function repositoryConfigDir(): string {
  const besideBuild = join(buildRoot, '..', 'config');
  return existsSync(join(besideBuild, NODE_OPTIONS_FILE)) ? besideBuild : join(process.cwd(), 'config');
}

/** Node.js runtime options for every node a test starts (config/node.options, then GANNET_NODE_OPTIONS). */
export const NODE_RUNTIME_OPTIONS = nodeOptionsFor(repositoryConfigDir());

export interface StartOptions {
  settings?: Record<string, string>;
  dataPath?: string;
  /** Keep the data path after stop (for restart tests). */
  keepData?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Text of the node's config/gannet.yml (none by default). */
  configYaml?: string;
  /** Another build's `src/cli/run.js` to run instead of this build's (the bench compares builds this way). */
  entry?: string;
  /** Runtime options appended after config/node.options (e.g. a smaller `--max-old-space-size`). */
  runtimeOptions?: readonly string[];
  /** A command the node runs under, e.g. `['ip', 'netns', 'exec', 'ns1']` (it must exec the node, keeping the pid). */
  wrapper?: readonly string[];
  /** How long the node may take to log that it started (at least GANNET_TEST_START_SECONDS, default 60 s). */
  startTimeoutMillis?: number;
  /**
   * Why this start must be one node even when GANNET_TEST_CLUSTER asks for a cluster (test-cluster-mode.ts): e.g. the
   * test kills or restarts the node on its data path.
   */
  oneNode?: string;
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: any;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw bytes to send as the body (no JSON encoding). */
  raw?: Buffer | string;
  /** Give up (reject) when no answer came in this time: a paused or cut-off node never answers. */
  timeoutMillis?: number;
}

/**
 * How long a node may take to start (GANNET_TEST_START_SECONDS). It bounds a node that never starts, not the usual
 * start (2-5 s): 20 s was within reach of a loaded host (an integration run at load 23 lost cluster-settings and
 * cluster-state to 'node did not start in 20s' with not one line logged), and clusters already wait 60 s.
 */
const START_SECONDS = Number(process.env['GANNET_TEST_START_SECONDS'] ?? 60);
/**
 * How long a node may take to exit after SIGTERM (GANNET_TEST_STOP_SECONDS): past it the node is killed and the test
 * fails with its last log lines, so a node that does not stop is a clear failure, not a stall of the whole run.
 */
const STOP_SECONDS = Number(process.env['GANNET_TEST_STOP_SECONDS'] ?? 60);
/** Log lines a stop failure shows. */
const LAST_LINES = 40;

export class NodeProcess {
  readonly logs: string[] = [];
  private exited: Promise<number | null>;
  /** In cluster mode (GANNET_TEST_CLUSTER), the other nodes and the etcd of this node's cluster, stopped with it. */
  private testCluster: TestClusterPeers | undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly port: number,
    readonly nodeId: string,
    readonly dataPath: string,
    /** Holds the node's config folder and, under `logs/`, its `path.logs`. */
    readonly home: string,
    private readonly keepData: boolean,
    exited: Promise<number | null>,
    /** The address HTTP requests go to (loopback unless the node binds another address). */
    readonly host = '127.0.0.1',
  ) {
    this.exited = exited;
  }

  /**
   * Starts a node; with GANNET_TEST_CLUSTER=<n> (and no `oneNode` reason) a cluster of n nodes on a test etcd, of
   * which this is the one the test talks to (test-cluster-mode.ts).
   */
  static async start(options: StartOptions = {}): Promise<NodeProcess> {
    if (!startsTestCluster(options)) return NodeProcess.startOne(options);
    const { target, peers } = await startTestCluster(options, (nodeOptions) => NodeProcess.startOne(nodeOptions));
    target.testCluster = peers;
    return target;
  }

  /** The other nodes of this node's test cluster (none outside cluster mode). */
  get peers(): readonly NodeProcess[] {
    return this.testCluster?.peers ?? [];
  }

  private static async startOne(options: StartOptions): Promise<NodeProcess> {
    const dataPath = options.dataPath ?? mkdtempSync(join(tmpdir(), 'gannet-test-'));
    // The node's config folder (empty unless a test writes gannet.yml) and its logs, apart from the data path.
    const home = mkdtempSync(join(tmpdir(), 'gannet-home-'));
    const configDir = join(home, 'config');
    mkdirSync(configDir);
    if (options.configYaml !== undefined) writeFileSync(join(configDir, 'gannet.yml'), options.configYaml);
    const settings: Record<string, string> = {
      'path.data': dataPath,
      'path.logs': join(home, 'logs'),
      'http.port': '0',
      'transport.port': '0',
      'node.name': 'test-node',
      ...options.settings,
    };
    const args = [...NODE_RUNTIME_OPTIONS, ...(options.runtimeOptions ?? []), options.entry ?? GANNET_ENTRY, 'start', '--config', configDir];
    for (const [key, value] of Object.entries(settings)) args.push('-E', `${key}=${value}`);
    const [command, ...commandArgs] = [...(options.wrapper ?? []), process.execPath, ...args];
    const child = spawn(command!, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    const startTimeout = Math.max(options.startTimeoutMillis ?? 0, START_SECONDS * 1000);
    const logs: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const started = await new Promise<{ address: string; nodeId: string }>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Never leave a half-started node behind.
        child.kill('SIGKILL');
        rmSync(home, { recursive: true, force: true });
        reject(new Error(`node did not start in ${startTimeout / 1000}s:\n${logs.join('\n')}`));
      }, startTimeout);
      createInterface({ input: child.stderr! }).on('line', (line) => logs.push(line));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        logs.push(line);
        try {
          const entry = JSON.parse(line) as { event?: string; http_address?: string; node_id?: string };
          if (entry.event === 'started' && entry.http_address) {
            clearTimeout(timer);
            resolve({ address: entry.http_address, nodeId: entry.node_id ?? '' });
          }
        } catch {
          // not a JSON log line
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        rmSync(home, { recursive: true, force: true });
        reject(new Error(`node exited with ${code} before starting:\n${logs.join('\n')}`));
      });
    });
    const colon = started.address.lastIndexOf(':');
    const port = Number(started.address.slice(colon + 1));
    const host = started.address.slice(0, colon);
    const node = new NodeProcess(child, `http://${started.address}`, port, started.nodeId, dataPath, home, options.keepData ?? false, exited, host);
    // Share the array the output readers fill, so lines logged after start show up too.
    (node as { logs: string[] }).logs = logs;
    return node;
  }

  /** A request through node:http (no automatic decompression or header rewriting). */
  request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    return rawRequest(this.port, method, path, options, this.host);
  }

  /**
   * SIGTERM, and the exit code once the process ended. Throws (after cleaning up as usual) when the node did not exit
   * within GANNET_TEST_STOP_SECONDS (it is killed then). A node that stopped but had to be ended by its exit watchdog
   * (src/cli/exit-watchdog.ts: something kept the process alive after its shutdown) is a failure, whose message names
   * the timers that held it; GANNET_TEST_STRICT_EXIT=0 makes it a warning.
   */
  async stop(): Promise<number | null> {
    const running = this.child.exitCode === null && this.child.signalCode === null;
    if (running) {
      this.child.kill('SIGTERM');
      this.child.kill('SIGCONT'); // a paused node (a test's SIGSTOP) handles the SIGTERM once it runs again
    }
    const stopStarted = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), STOP_SECONDS * 1000))),
    ]);
    clearTimeout(timer);
    let failure: Error | undefined;
    if (timedOut) {
      this.child.kill('SIGKILL');
      failure = new Error(`node ${this.label} did not exit within ${STOP_SECONDS}s of SIGTERM; killed. Its last log lines:\n${this.lastLines()}`);
    } else if (running && this.logs.some((line) => line.includes(STILL_RUNNING_MARK))) {
      // Something outlived the shutdown; the exit watchdog ended the process, naming the timers that held it. A failure
      // (none in 112 cluster tests, 472 integration tests and the fault suite on 2026-11-29, load 15-22), a warning in the
      // test's output with GANNET_TEST_STRICT_EXIT=0.
      const message = `node ${this.label} stopped, but its process stayed alive until its exit watchdog ended it (${Date.now() - stopStarted} ms after SIGTERM). Its last log lines:\n${this.lastLines()}`;
      if (process.env['GANNET_TEST_STRICT_EXIT'] !== '0') failure = new Error(message);
      else console.log(`warning: ${message}`);
    }
    const code = await this.exited;
    keepLogs(this);
    if (!this.keepData) rmSync(this.dataPath, { recursive: true, force: true });
    rmSync(this.home, { recursive: true, force: true });
    await this.stopTestCluster();
    if (failure !== undefined) throw failure;
    return code;
  }

  private get label(): string {
    return `${this.nodeId} (${this.url})`;
  }

  private lastLines(): string {
    return this.logs.slice(-LAST_LINES).join('\n');
  }

  private async stopTestCluster(): Promise<void> {
    const cluster = this.testCluster;
    if (cluster === undefined) return;
    this.testCluster = undefined;
    await stopAll(cluster.peers);
    await cluster.etcd.stop();
  }

  /** `path.logs` of this node. */
  get logsPath(): string {
    return join(this.home, 'logs');
  }

  /** Kills the node (in cluster mode, then stops the rest of its test cluster: nothing would stop it later). */
  async kill9(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
    keepLogs(this);
    rmSync(this.home, { recursive: true, force: true });
    await this.stopTestCluster();
  }

  get exitPromise(): Promise<number | null> {
    return this.exited;
  }
}

/** Stops every node; then throws the stop failures (a node that did not exit), if any, together. */
export async function stopAll(nodes: readonly NodeProcess[]): Promise<void> {
  const outcomes = await Promise.allSettled(nodes.map((node) => node.stop()));
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as Error).message] : []));
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
}

/**
 * GANNET_TEST_KEEP_LOGS=<dir>: each node's output is written there when it stops (`<node name>-<node id>.log`), so a
 * failure seen once in a long loop can be read afterwards; the node's home, with its own log files, is removed.
 */
function keepLogs(node: NodeProcess): void {
  const dir = process.env['GANNET_TEST_KEEP_LOGS'];
  if (dir === undefined || dir === '') return;
  mkdirSync(dir, { recursive: true });
  const nameMatch = /"node\.name"\s*:\s*"([^"]+)"|"node"\s*:\s*"([^"]+)"/.exec(node.logs.find((line) => line.includes('"started"')) ?? '');
  const name = (nameMatch?.[1] ?? nameMatch?.[2] ?? 'node').replace(/[^\w.-]/g, '_');
  writeFileSync(join(dir, `${name}-${node.nodeId}-${Date.now()}.log`), node.logs.join('\n') + '\n');
}

export function rawRequest(port: number, method: string, path: string, options: RequestOptions = {}, host = '127.0.0.1'): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    let payload: Buffer | undefined;
    const headers: Record<string, string> = { ...options.headers };
    if (options.raw !== undefined) payload = Buffer.isBuffer(options.raw) ? options.raw : Buffer.from(options.raw);
    else if (options.body !== undefined) {
      payload = Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
      headers['content-type'] ??= 'application/json';
    }
    if (payload) headers['content-length'] = String(payload.length);
    const req = httpRequest({ host, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text.length > 0 ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.timeoutMillis !== undefined) req.setTimeout(options.timeoutMillis, () => req.destroy(new Error(`no answer in ${options.timeoutMillis} ms`)));
    if (payload) req.end(payload);
    else req.end();
  });
}
