/**
 * The node's data path: created on start, holding `node.json` with the persistent node id (a 22-character
 * base64 UUID, as ES generates) so the node keeps its identity across restarts. `node.lock` (node-lock.ts) guards
 * against two nodes sharing one data path, and a stale one never blocks a start.
 */
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
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
    mkdirSync(this.dataPath, { recursive: true });
    this.lock = NodeLock.acquire(this.dataPath);
    this.metadata = this.loadOrCreateMetadata(version);
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
