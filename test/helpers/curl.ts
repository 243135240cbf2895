/**
 * Runs the real `curl` binary against a test node, as an operator would type it: `-s` plus the given arguments,
 * with `-w` appending the status code on its own last line so a test can read both.
 */
import { execFile } from 'node:child_process';

export interface CurlResult {
  status: number;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: any;
}

export function curl(baseUrl: string, args: readonly string[]): Promise<CurlResult> {
  const [first, ...rest] = args;
  // The first argument is the path (with query string); the rest are curl options.
  const url = `${baseUrl}${first}`;
  return new Promise((resolve, reject) => {
    execFile('curl', ['-s', '-w', '\n%{http_code}', url, ...rest], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) {
        reject(error);
        return;
      }
      const cut = stdout.lastIndexOf('\n');
      const text = stdout.slice(0, cut);
      let body: unknown;
      try {
        body = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      resolve({ status: Number(stdout.slice(cut + 1)), text, body });
    });
  });
}
