/**
 * OpenSearch 2.19 as a server peer: the server's and its modules' jars from Maven Central (fetched by Maven into
 * ~/.m2 on first use, never into the repository), started by a launcher of our own (opensearch/OpenSearchLauncher.java)
 * that builds a node in process as OpenSearch's test framework does. One node (single-node discovery) or a
 * cluster of nodes on loopback that find each other through seed hosts.
 *
 * Where Java, Maven or Maven Central is missing, `prepareOpenSearch` says why instead of throwing, and the
 * benchmarks print the peer as skipped with that reason.
 *
 * Environment: GANNET_OPENSEARCH_VERSION (default 2.19.6), GANNET_OPENSEARCH_HEAP (default 512m, per node),
 * GANNET_OPENSEARCH_START_SECONDS (default 240), GANNET_BENCH_CACHE (default ~/.cache/gannet-bench: the class
 * path and the compiled launcher).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { call, SearchServer, type ServerProcess } from './http-server.js';

export const OPENSEARCH_VERSION = process.env['GANNET_OPENSEARCH_VERSION'] ?? '2.19.6';
const HEAP = process.env['GANNET_OPENSEARCH_HEAP'] ?? '512m';
/** A first start on a loaded 2-core host takes 30-60 s (class loading, JIT); allow well beyond that. */
const START_TIMEOUT_MS = Number(process.env['GANNET_OPENSEARCH_START_SECONDS'] ?? 240) * 1000;
const MAVEN_TIMEOUT_MS = 15 * 60_000;

/** The JVM options of the distribution's config/jvm.options that matter for speed and memory, with our heap. */
const JVM_OPTIONS = [
  `-Xms${HEAP}`,
  `-Xmx${HEAP}`,
  '-XX:+UseG1GC',
  '-XX:G1ReservePercent=25',
  '-XX:InitiatingHeapOccupancyPercent=30',
  '-XX:+AlwaysPreTouch',
  '-Xss1m',
  '-Djava.awt.headless=true',
  '-Dfile.encoding=UTF-8',
  '-Djna.nosys=true',
  '-XX:-OmitStackTraceInFastThrow',
  '-Dio.netty.noUnsafe=true',
  '-Dio.netty.noKeySetOptimization=true',
  '-Dio.netty.recycler.maxCapacityPerThread=0',
  '-Dlog4j.shutdownHookEnabled=false',
  '-Dlog4j2.disable.jmx=true',
];

/** bench/peers/opensearch/ in the source tree: beside the build (dist/..) or under the working directory. */
function sourceDir(): string {
  const buildRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const besideBuild = join(buildRoot, '..', 'bench', 'peers', 'opensearch');
  return existsSync(join(besideBuild, 'pom.xml')) ? besideBuild : join(process.cwd(), 'bench', 'peers', 'opensearch');
}

function cacheDir(): string {
  return join(process.env['GANNET_BENCH_CACHE'] ?? join(homedir(), '.cache', 'gannet-bench'), `opensearch-${OPENSEARCH_VERSION}`);
}

export interface OpenSearchInstall {
  /** The launcher's class path: compiled launcher first, then the jars in ~/.m2. */
  classPath: string;
  /** path.home for every node: config/, modules/ and plugins/ must exist (empty: modules come from the class path). */
  home: string;
  log4jConfig: string;
}

export type Preparation = { ok: true; install: OpenSearchInstall } | { ok: false; reason: string };

/** Runs a tool to its end; `code` is its exit status, 127 when the tool is not installed, 1 for other failures. */
function run(command: string, args: string[], options: { timeout: number }): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: options.timeout, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      const reason = (err as NodeJS.ErrnoException | null)?.code;
      const code = err === null ? 0 : reason === 'ENOENT' ? 127 : typeof reason === 'number' ? reason : 1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** What went wrong, from Maven's output: the network cause when there is one, else its first error line. */
function mavenError(output: string): string {
  const lines = output.split('\n').map((line) => line.replace(/\x1b\[[0-9;]*m/g, '').trim());
  const cause = /(Unknown host \S+?:[^-]*|Connection refused[^-]*|connect timed out|Read timed out|Could not find artifact \S+)/.exec(lines.join(' '));
  if (cause) return cause[1]!.trim();
  const error = lines.find((line) => line.startsWith('[ERROR]')) ?? lines.filter(Boolean).pop() ?? 'no output';
  return error.replace(/^\[ERROR\]\s*/, '').slice(0, 400);
}

function newerThan(target: string, ...sources: string[]): boolean {
  if (!existsSync(target)) return false;
  const targetTime = statSync(target).mtimeMs;
  return sources.every((source) => statSync(source).mtimeMs <= targetTime);
}

let preparation: Promise<Preparation> | undefined;

/**
 * Fetches the artifacts (once; Maven's cache then serves them offline), compiles the launcher, and lays out the
 * node home. Resolves with the reason instead when Java, Maven or the artifacts cannot be had.
 */
export function prepareOpenSearch(): Promise<Preparation> {
  preparation ??= prepare();
  return preparation;
}

async function prepare(): Promise<Preparation> {
  const source = sourceDir();
  const pom = join(source, 'pom.xml');
  const launcher = join(source, 'OpenSearchLauncher.java');
  if (!existsSync(pom)) return { ok: false, reason: `${pom} not found (run from the repository)` };
  for (const tool of ['java', 'javac', 'mvn']) {
    const probe = await run(tool, ['-version'], { timeout: 60_000 });
    if (probe.code === 127) return { ok: false, reason: `${tool} not found (apt-get install default-jdk-headless maven)` };
  }
  const cache = cacheDir();
  mkdirSync(cache, { recursive: true });
  const classPathFile = join(cache, 'classpath.txt');
  const cachedJarsPresent = () => existsSync(classPathFile) && readFileSync(classPathFile, 'utf8').trim().split(':').every((jar) => existsSync(jar));
  if (!newerThan(classPathFile, pom) || !cachedJarsPresent()) {
    const resolved = await run('mvn', ['-B', '-q', '-f', pom, `-Dopensearch.version=${OPENSEARCH_VERSION}`, 'org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath', `-Dmdep.outputFile=${classPathFile}`], { timeout: MAVEN_TIMEOUT_MS });
    if (resolved.code !== 0 || !cachedJarsPresent()) {
      rmSync(classPathFile, { force: true });
      return { ok: false, reason: `Maven could not fetch OpenSearch ${OPENSEARCH_VERSION} from Maven Central: ${mavenError(resolved.output)}` };
    }
  }
  const jars = readFileSync(classPathFile, 'utf8').trim();
  const classes = join(cache, 'classes');
  if (!newerThan(join(classes, 'OpenSearchLauncher.class'), launcher, classPathFile)) {
    mkdirSync(classes, { recursive: true });
    const compiled = await run('javac', ['-d', classes, '-cp', jars, launcher], { timeout: 5 * 60_000 });
    if (compiled.code !== 0) return { ok: false, reason: `javac could not compile the launcher: ${compiled.output.split('\n').slice(0, 5).join(' ')}` };
  }
  const home = join(cache, 'home');
  for (const folder of ['config', 'modules', 'plugins']) mkdirSync(join(home, folder), { recursive: true });
  return { ok: true, install: { classPath: `${classes}:${jars}`, home, log4jConfig: join(source, 'log4j2.properties') } };
}

/** One OpenSearch node process. */
export class OpenSearchNode implements ServerProcess {
  readonly logs: string[] = [];

  private constructor(
    readonly name: string,
    readonly child: ReturnType<typeof spawn>,
    readonly port: number,
    readonly transportAddress: string,
    private readonly dataPath: string,
    private readonly exited: Promise<number | null>,
  ) {}

  get pid(): number | undefined {
    return this.child.pid;
  }

  static async start(install: OpenSearchInstall, settings: Record<string, string>): Promise<OpenSearchNode> {
    const name = settings['node.name'] ?? 'opensearch';
    const dataPath = mkdtempSync(join(tmpdir(), `gannet-bench-opensearch-${name}-`));
    const allSettings: Record<string, string> = {
      'cluster.name': 'gannet-bench-peer',
      'node.name': name,
      'path.home': install.home,
      'path.data': join(dataPath, 'data'),
      'path.logs': join(dataPath, 'logs'),
      'network.host': '127.0.0.1',
      'http.port': '0',
      'transport.port': '0',
      // The shared disk may be fuller than the watermarks allow: never let that block allocation or writes.
      'cluster.routing.allocation.disk.threshold_enabled': 'false',
      ...settings,
    };
    const args = [...JVM_OPTIONS, `-Djava.io.tmpdir=${dataPath}`, `-Dlog4j.configurationFile=${install.log4jConfig}`, '-cp', install.classPath, 'OpenSearchLauncher'];
    for (const [key, value] of Object.entries(allSettings)) args.push(`${key}=${value}`);
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const logs: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const started = await new Promise<{ http: string; transport: string }>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`OpenSearch node ${name} did not start in ${START_TIMEOUT_MS / 1000}s:\n${logs.slice(-20).join('\n')}`));
        }, START_TIMEOUT_MS);
        createInterface({ input: child.stderr! }).on('line', (line) => logs.push(line));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          logs.push(line);
          if (!line.startsWith('{')) return;
          try {
            const entry = JSON.parse(line) as { event?: string; http_address?: string; transport_address?: string };
            if (entry.event === 'started' && entry.http_address) {
              clearTimeout(timer);
              resolve({ http: entry.http_address, transport: entry.transport_address ?? '' });
            }
          } catch {
            // a log line that happens to start with a brace
          }
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`OpenSearch node ${name} exited with ${code} before starting:\n${logs.slice(-20).join('\n')}`));
        });
      });
      const node = new OpenSearchNode(name, child, Number(started.http.split(':').pop()), started.transport, dataPath, exited);
      node.logs.push(...logs);
      return node;
    } catch (err) {
      rmSync(dataPath, { recursive: true, force: true });
      throw err;
    }
  }

  /** SIGTERM (the launcher's shutdown hook closes the node), SIGKILL after 30 s; then the data path goes. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
      await this.exited;
      clearTimeout(timer);
    }
    rmSync(this.dataPath, { recursive: true, force: true });
  }
}

/** A port the OS says is free now (for transport addresses that seed hosts must know before the nodes start). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** A single OpenSearch node as a benchmarked server (single-node discovery), or the reason it cannot run. */
export async function startOpenSearch(): Promise<SearchServer> {
  const prepared = await prepareOpenSearch();
  if (!prepared.ok) throw new Error(prepared.reason);
  const node = await OpenSearchNode.start(prepared.install, { 'node.name': 'opensearch-bench', 'discovery.type': 'single-node' });
  return new SearchServer(`opensearch ${OPENSEARCH_VERSION}`, node);
}

/**
 * `count` cluster-manager-eligible data nodes on loopback that discover each other through seed hosts (their
 * transport ports chosen up front) and bootstrap one cluster; resolves once `_cluster/health` sees them all.
 */
export async function startOpenSearchCluster(count: number): Promise<OpenSearchNode[]> {
  const prepared = await prepareOpenSearch();
  if (!prepared.ok) throw new Error(prepared.reason);
  const names = Array.from({ length: count }, (_, i) => `opensearch-${i + 1}`);
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const seeds = ports.map((port) => `127.0.0.1:${port}`).join(',');
  const started = await Promise.allSettled(
    names.map((name, i) =>
      OpenSearchNode.start(prepared.install, {
        'node.name': name,
        'transport.port': String(ports[i]),
        'discovery.seed_hosts': seeds,
        'cluster.initial_cluster_manager_nodes': names.join(','),
      }),
    ),
  );
  const nodes = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failure = started.find((outcome) => outcome.status === 'rejected');
  try {
    if (failure) throw (failure as PromiseRejectedResult).reason;
    const health = await call(nodes[0]!.port, 'GET', `/_cluster/health?wait_for_nodes=${count}&timeout=120s`);
    if (health.status !== 200 || health.body?.number_of_nodes !== count) throw new Error(`the ${count} OpenSearch nodes did not form one cluster: ${JSON.stringify(health.body).slice(0, 300)}`);
    return nodes;
  } catch (err) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw err;
  }
}
