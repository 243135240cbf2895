/**
 * A log file under `path.logs` that rolls over by size, as ES's log4j2 RollingFile appender does with its
 * SizeBasedTriggeringPolicy: when the next line would take the file past `maxBytes`, `name.json` becomes
 * `name-1.json` (older copies move up to `name-2.json`, ...), the oldest beyond `maxFiles` is deleted, and a new
 * `name.json` is started. Lines are written synchronously, so a line logged just before the process exits (a
 * failed start, say) is on disk when it exits, and rotation never loses or splits a line.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface RotatingLogFileOptions {
  readonly directory: string;
  /** File name without `.json`, e.g. `gannet_server`. */
  readonly baseName: string;
  readonly maxBytes: number;
  /** Rotated copies kept beside the current file. */
  readonly maxFiles: number;
}

export class RotatingLogFile {
  private fd: number;
  private size: number;
  readonly path: string;

  constructor(private readonly options: RotatingLogFileOptions) {
    mkdirSync(options.directory, { recursive: true });
    this.path = join(options.directory, `${options.baseName}.json`);
    this.fd = openSync(this.path, 'a');
    this.size = fstatSync(this.fd).size;
  }

  /** The path of rotated copy `n` (1 is the newest). */
  rotatedPath(n: number): string {
    return join(this.options.directory, `${this.options.baseName}-${n}.json`);
  }

  /** Appends one line (it must end with a newline); the pino destination contract. */
  write(line: string): boolean {
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.options.maxBytes) this.rotate();
    writeSync(this.fd, line);
    this.size += bytes;
    return true;
  }

  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }

  private rotate(): void {
    closeSync(this.fd);
    const oldest = this.rotatedPath(this.options.maxFiles);
    if (existsSync(oldest)) rmSync(oldest, { force: true });
    for (let n = this.options.maxFiles - 1; n >= 1; n--) {
      const from = this.rotatedPath(n);
      if (existsSync(from)) renameSync(from, this.rotatedPath(n + 1));
    }
    renameSync(this.path, this.rotatedPath(1));
    this.fd = openSync(this.path, 'a');
    this.size = 0;
  }
}
