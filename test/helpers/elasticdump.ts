/** Runs the elasticdump CLI (a devDependency) as an operator would; rejects with its output when it exits non-zero. */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const ELASTICDUMP = join(dirname(require.resolve('elasticdump/package.json')), 'bin', 'elasticdump');

export function elasticdump(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [ELASTICDUMP, ...args], { timeout: 30_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`elasticdump ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve(`${stdout}${stderr}`);
    });
  });
}
