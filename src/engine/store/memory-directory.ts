/** A Directory in memory: for tests and for segments that never need to survive the process. */
import type { Directory } from './directory.js';

export class MemoryDirectory implements Directory {
  private readonly files = new Map<string, Buffer>();

  readonly description = 'MemoryDirectory';

  resourceName(fileName: string): string {
    return `memory:${fileName}`;
  }

  async listAll(): Promise<string[]> {
    return [...this.files.keys()].sort();
  }

  async fileExists(fileName: string): Promise<boolean> {
    return this.files.has(fileName);
  }

  async readFile(fileName: string): Promise<Buffer> {
    const content = this.files.get(fileName);
    if (content === undefined) {
      throw Object.assign(new Error(`ENOENT: no such file [${fileName}] in ${this.description}`), { code: 'ENOENT' });
    }
    return content;
  }

  async writeFile(fileName: string, content: Uint8Array): Promise<void> {
    if (this.files.has(fileName)) {
      throw Object.assign(new Error(`EEXIST: file [${fileName}] already exists in ${this.description}`), { code: 'EEXIST' });
    }
    this.files.set(fileName, Buffer.from(content));
  }

  async deleteFile(fileName: string): Promise<void> {
    this.files.delete(fileName);
  }

  async sync(): Promise<void> {}

  /** Test hook: replace a file's bytes in place (to simulate corruption or truncation). */
  replaceForTesting(fileName: string, content: Uint8Array): void {
    this.files.set(fileName, Buffer.from(content));
  }
}
