/**
 * What an error message may show a client. A reason goes out in HTTP answers (and bulk items, shard failures, stored
 * task results), so it must not reveal where the node keeps its files or how the process is built: absolute paths
 * under the node's own directories are shown relative to a named root (`<path.data>/indices/...`), and an operating
 * system error is described by its code and call without the path Node.js appends. The node registers its roots at
 * start; the full message, path included, still reaches the node's log through the error's `cause`.
 */
import { sep } from 'node:path';

interface Root {
  readonly path: string;
  readonly label: string;
}

// Longest first, so a data path inside the installation is shown as <path.data>, not <path.home>/data.
let roots: Root[] = [];

/** Shows `path` (and anything below it) as `label` in every later error reason. */
export function registerRedactedRoot(path: string, label: string): void {
  const trimmed = path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
  if (trimmed.length <= 1) return;
  roots = [...roots.filter((root) => root.path !== trimmed), { path: trimmed, label }].sort((a, b) => b.path.length - a.path.length);
}

/** The text with every registered root replaced by its label. */
export function redactPaths(text: string): string {
  let out = text;
  for (const root of roots) if (out.includes(root.path)) out = out.split(root.path).join(root.label);
  return out;
}

/** An operating system error (`ENOSPC`, `EIO`, `ENOENT`, ...): Node.js gives it an errno-style `code`. */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException & { code: string } {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && /^E[A-Z0-9]+$/.test((err as NodeJS.ErrnoException).code!);
}

/** "ENOSPC: no space left on device, write": Node's message without the `'<path>' -> '<dest>'` it appends. */
export function describeSystemError(err: NodeJS.ErrnoException): string {
  let message = err.message;
  for (const path of [err.path, (err as { dest?: unknown }).dest]) if (typeof path === 'string' && path.length > 0) message = message.split(` '${path}'`).join('').split(` -> '${path}'`).join('');
  return redactPaths(message);
}
