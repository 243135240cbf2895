/**
 * Starts a single-member etcd for a local cluster (`gannet cluster start`) and for tests: the `etcd` binary
 * from PATH (Debian's `etcd-server`), loopback client and peer ports picked free, its own data directory.
 * When the binary is missing it says which package to install; `installIfMissing` (tests and CI, as root)
 * installs it with apt-get first.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

export const ETCD_PACKAGE = 'etcd-server';

export interface EtcdOptions {
  readonly dataDir: string;
  /** Where etcd's own log goes (appended); undefined discards it. */
  readonly logFile?: string;
  /** Reuse ports (a restart keeps its address); free ones are picked otherwise. */
  readonly clientPort?: number;
  readonly peerPort?: number;
  /** The address etcd listens on (default loopback; the fault suite's partitions use a bridge address). */
  readonly host?: string;
  /** Leave etcd running after this process exits (the cluster command); tests keep it attached. */
  readonly detached?: boolean;
  /** How a free port is picked (tests give one that hands out a taken port first). */
  readonly pickPort?: () => Promise<number>;
}

export function findEtcdBinary(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'etcd');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function missingEtcdMessage(): string {
  return `etcd is not installed: install Debian's [${ETCD_PACKAGE}] package (apt-get install -y ${ETCD_PACKAGE}) or put an etcd 3.4+ binary on PATH`;
}

/** The etcd binary, installed with apt-get when missing and this process is root; throws naming the package otherwise. */
export function ensureEtcdBinary(installIfMissing: boolean): string {
  const found = findEtcdBinary();
  if (found !== undefined) return found;
  if (installIfMissing && process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
    const install = spawnSync('apt-get', ['install', '-y', ETCD_PACKAGE], { stdio: 'ignore', env });
    const after = findEtcdBinary();
    if (install.status === 0 && after !== undefined) return after;
  }
  throw new Error(missingEtcdMessage());
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** How many times an etcd on ports picked free is started before its early exit is reported. */
const START_ATTEMPTS = 3;
/** How much of an etcd's own output (without a log file) is kept to explain an early exit. */
const KEPT_OUTPUT_CHARS = 2000;

/** An etcd that exited before it answered healthy: its last output lines say why (a port taken, a bad data dir). */
export class EtcdExitedEarly extends Error {
  constructor(endpoint: string, output: string) {
    const lines = output.trim().split('\n').slice(-2).join(' | ');
    super(`etcd exited before it was healthy (${endpoint})${lines === '' ? '' : `: ${lines}`}`);
  }
}

export class EtcdProcess {
  private constructor(
    readonly child: ChildProcess,
    readonly endpoint: string,
    readonly clientPort: number,
    readonly peerPort: number,
    private readonly exited: Promise<void>,
  ) {}

  get pid(): number {
    return this.child.pid ?? 0;
  }

  static async start(options: EtcdOptions, installIfMissing = false): Promise<EtcdProcess> {
    const binary = ensureEtcdBinary(installIfMissing);
    const freshDataDir = !existsSync(options.dataDir) || readdirSync(options.dataDir).length === 0;
    // A port picked free can be taken by another process before etcd binds it (a test's neighbours pick ports
    // too, and their outgoing connections take ephemeral ones): that etcd exits at once, before writing its data
    // directory, and starts again on other ports. Ports the caller gave (a restart keeps its address) are kept.
    const portsGiven = options.clientPort !== undefined || options.peerPort !== undefined;
    for (let attempt = 1; ; attempt++) {
      mkdirSync(options.dataDir, { recursive: true });
      const pickPort = options.pickPort ?? freePort;
      const clientPort = options.clientPort ?? (await pickPort());
      let peerPort = options.peerPort ?? (await pickPort());
      while (peerPort === clientPort) peerPort = await pickPort();
      try {
        return await EtcdProcess.launch(binary, options, clientPort, peerPort);
      } catch (err) {
        if (portsGiven || attempt >= START_ATTEMPTS || !(err instanceof EtcdExitedEarly)) throw err;
        if (freshDataDir) rmSync(options.dataDir, { recursive: true, force: true });
      }
    }
  }

  private static async launch(binary: string, options: EtcdOptions, clientPort: number, peerPort: number): Promise<EtcdProcess> {
    const host = options.host ?? '127.0.0.1';
    const client = `http://${host}:${clientPort}`;
    const peer = `http://${host}:${peerPort}`;
    const args = [
      '--name', 'gannet',
      '--data-dir', options.dataDir,
      '--listen-client-urls', client,
      '--advertise-client-urls', client,
      '--listen-peer-urls', peer,
      '--initial-advertise-peer-urls', peer,
      '--initial-cluster', `gannet=${peer}`,
      '--initial-cluster-state', 'new',
      '--logger', 'zap',
      '--log-level', 'warn',
      // A laptop or CI disk: fsync stalls must not revoke leases (etcd#15247) because of heartbeats set for a LAN.
      '--heartbeat-interval', '100',
      '--election-timeout', '1000',
    ];
    // Without a log file, etcd's last log lines are kept in memory: they say why an etcd exited early.
    const output = options.logFile === undefined ? 'pipe' : openSync(options.logFile, 'a');
    const child = spawn(binary, args, { stdio: ['ignore', output, output], detached: options.detached ?? false });
    if (options.detached) child.unref();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const etcd = new EtcdProcess(child, client, clientPort, peerPort, exited);
    child.stdout?.on('data', (chunk: Buffer) => etcd.keepOutput(chunk));
    child.stderr?.on('data', (chunk: Buffer) => etcd.keepOutput(chunk));
    await etcd.waitHealthy(20_000);
    return etcd;
  }

  private lastOutput = '';

  private keepOutput(chunk: Buffer): void {
    this.lastOutput = (this.lastOutput + chunk.toString('utf8')).slice(-KEPT_OUTPUT_CHARS);
  }

  /** Polls etcd's /health until it reports healthy. */
  async waitHealthy(timeoutMillis: number): Promise<void> {
    const deadline = Date.now() + timeoutMillis;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (Date.now() < deadline) {
      if (exited) throw new EtcdExitedEarly(this.endpoint, this.lastOutput);
      try {
        const response = await fetch(`${this.endpoint}/health`, { signal: AbortSignal.timeout(1000) });
        const body = (await response.json()) as { health?: string };
        if (body.health === 'true') return;
      } catch {
        // not up yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    this.child.kill('SIGKILL');
    throw new Error(`etcd did not become healthy in ${timeoutMillis} ms (${this.endpoint})`);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.exited;
  }
}
