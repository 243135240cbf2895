/**
 * An etcd of a test's own: loopback ports picked free, a temp data directory, removed at the end. When the
 * `etcd` binary is missing it is installed with apt-get (as root, as CI runs), else the test stops with a
 * message naming Debian's `etcd-server` package.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EtcdProcess } from '../../src/cli/etcd-launcher.js';

export class TestEtcd {
  private constructor(
    public process: EtcdProcess,
    readonly dataDir: string,
    readonly host?: string,
  ) {}

  static async start(options: { host?: string } = {}): Promise<TestEtcd> {
    const dataDir = mkdtempSync(join(tmpdir(), 'gannet-etcd-'));
    const process = await EtcdProcess.start({ dataDir: join(dataDir, 'data'), host: options.host }, true);
    return new TestEtcd(process, dataDir, options.host);
  }

  get endpoint(): string {
    return this.process.endpoint;
  }

  /** Stops etcd (SIGTERM, or SIGKILL) and starts it again on the same ports and data. */
  async restart(signal: NodeJS.Signals = 'SIGTERM', downMillis = 0): Promise<void> {
    await this.process.stop(signal);
    if (downMillis > 0) await new Promise((resolve) => setTimeout(resolve, downMillis));
    this.process = await EtcdProcess.start({ dataDir: join(this.dataDir, 'data'), clientPort: this.process.clientPort, peerPort: this.process.peerPort, host: this.host });
  }

  async stop(): Promise<void> {
    await this.process.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
