/**
 * The node's data path: created on start, holding `node.json` with the persistent node id (a 22-character
 * base64 UUID, as ES generates) so the node keeps its identity across restarts. `node.lock` (node-lock.ts) guards
 * against two nodes sharing one data path, and a stale one never blocks a start.
 */
import { accessSync, constants, mkdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBase64Uuid } from '../common/uuid.js';
import { writeFileAtomically } from '../common/atomic-file.js';
import { NodeLock } from './node-lock.js';

export interface NodeMetadata {
  nodeId: string;
  /** Gannet version that last wrote the data path. */
  version: string;
}

export class NodeEnvironment {
  readonly dataPath: string;
  readonly metadata: NodeMetadata;
  private readonly lock: NodeLock;

  constructor(dataPath: string, version: string) {
    this.dataPath = resolve(dataPath);
    try {
      mkdirSync(this.dataPath, { recursive: true });
      if (!statSync(this.dataPath).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      accessSync(this.dataPath, constants.R_OK | constants.W_OK);
    } catch (err) {
      throw new Error(`unable to use path.data [${this.dataPath}]: ${pathProblem(err)}`);
    }
    this.lock = NodeLock.acquire(this.dataPath);
    try {
      this.metadata = this.loadOrCreateMetadata(version);
    } catch (err) {
      // The lock is ours: an environment that cannot open must not keep the data path locked.
      this.close();
      throw err;
    }
  }

  get nodeId(): string {
    return this.metadata.nodeId;
  }

  path(...parts: string[]): string {
    return join(this.dataPath, ...parts);
  }

  close(): void {
    this.lock.release();
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

/** An operator's reading of a file-system error on the data path. */
function pathProblem(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOTDIR':
    case 'EEXIST':
      return 'it (or a parent of it) is a file, not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return (err as Error).message;
  }
}
