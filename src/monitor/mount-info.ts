/**
 * The mount point and file-system type holding a path (ES's FsInfo.Path `mount` and `type`), read from
 * /proc/self/mountinfo: the longest mount point that is a prefix of the path. Undefined off Linux.
 */
import { readFileSync, realpathSync } from 'node:fs';

export interface MountInfo {
  mountPoint: string;
  type: string;
  source: string;
}

/** mountinfo escapes spaces and other bytes as octal (`\040`). */
function unescapeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

export function mountOf(path: string): MountInfo | undefined {
  let text: string;
  let resolved: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
    resolved = realpathSync(path);
  } catch {
    return undefined;
  }
  let best: MountInfo | undefined;
  for (const line of text.split('\n')) {
    const separator = line.indexOf(' - ');
    if (separator === -1) continue;
    const mountPoint = unescapeOctal(line.slice(0, separator).split(' ')[4] ?? '');
    const [fsType, source] = line.slice(separator + 3).split(' ');
    const covers = mountPoint === '/' || resolved === mountPoint || resolved.startsWith(`${mountPoint}/`);
    if (covers && (best === undefined || mountPoint.length >= best.mountPoint.length)) {
      best = { mountPoint, type: fsType ?? '', source: unescapeOctal(source ?? '') };
    }
  }
  return best;
}
