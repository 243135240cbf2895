/**
 * Starts a single-member etcd for a local cluster (`gannet cluster start`) and for tests: the `etcd` binary
 * from PATH (Debian's `etcd-server`), loopback client and peer ports picked free, its own data directory.
 * When the binary is missing it says which package to install; `installIfMissing` (tests and CI, as root)
 * installs it with apt-get first.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync } from 'node:fs';
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
    mkdirSync(options.dataDir, { recursive: true });
    const clientPort = options.clientPort ?? (await freePort());
    const peerPort = options.peerPort ?? (await freePort());
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
    const output = options.logFile === undefined ? 'ignore' : openSync(options.logFile, 'a');
    const child = spawn(binary, args, { stdio: ['ignore', output, output], detached: options.detached ?? false });
    if (options.detached) child.unref();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const etcd = new EtcdProcess(child, client, clientPort, peerPort, exited);
    await etcd.waitHealthy(20_000);
    return etcd;
  }

  /** Polls etcd's /health until it reports healthy. */
  async waitHealthy(timeoutMillis: number): Promise<void> {
    const deadline = Date.now() + timeoutMillis;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (Date.now() < deadline) {
      if (exited) throw new Error(`etcd exited before it was healthy (${this.endpoint})`);
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
