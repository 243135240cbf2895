/**
 * The node's data path: created on start, holding `node.json` with the persistent node id (a 22-character
 * base64 UUID, as ES generates) so the node keeps its identity across restarts. A lock file guards against
 * two nodes sharing one data path.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBase64Uuid } from '../common/uuid.js';
import { writeFileAtomically } from '../common/atomic-file.js';

export interface NodeMetadata {
  nodeId: string;
  /** Gannet version that last wrote the data path. */
  version: string;
}

export class NodeEnvironment {
  readonly dataPath: string;
  readonly metadata: NodeMetadata;
  private readonly lockPath: string;

  constructor(dataPath: string, version: string) {
    this.dataPath = resolve(dataPath);
    mkdirSync(this.dataPath, { recursive: true });
    this.lockPath = join(this.dataPath, 'node.lock');
    this.acquireLock();
    this.metadata = this.loadOrCreateMetadata(version);
  }

  get nodeId(): string {
    return this.metadata.nodeId;
  }

  path(...parts: string[]): string {
    return join(this.dataPath, ...parts);
  }

  close(): void {
    try {
      unlinkSync(this.lockPath);
    } catch {
      // already gone
    }
  }

  private acquireLock(): void {
    if (existsSync(this.lockPath)) {
      const pid = Number(readFileSync(this.lockPath, 'utf8').trim());
      if (pid > 0 && pid !== process.pid && isProcessAlive(pid)) {
        throw new Error(`failed to obtain node lock: the data path [${this.dataPath}] is in use by process ${pid}`);
      }
    }
    writeFileSync(this.lockPath, String(process.pid));
  }

  private loadOrCreateMetadata(version: string): NodeMetadata {
    const file = join(this.dataPath, 'node.json');
    if (existsSync(file)) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<NodeMetadata>;
      if (typeof parsed.nodeId !== 'string' || parsed.nodeId.length === 0) {
        throw new Error(`${file} is corrupt: no node id`);
      }
      return { nodeId: parsed.nodeId, version: parsed.version ?? version };
    }
    const metadata: NodeMetadata = { nodeId: randomBase64Uuid(), version };
    writeFileAtomically(file, JSON.stringify(metadata) + '\n');
    return metadata;
  }
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
