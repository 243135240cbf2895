/**
 * `_source.includes` / `_source.excludes`: the stored source keeps the fields an include pattern matches (or
 * everything when there are none) minus those an exclude matches, `*` wildcards on full dotted paths, a match
 * on an object keeping everything below it. The JSON is rewritten token by token so number literals keep
 * their exact digits.
 */
import { simpleMatch } from '../common/wildcards.js';
import { JsonPullParser } from './json-pull-parser.js';

function matchesPathOrParent(patterns: readonly string[], path: string): boolean {
  return patterns.some((p) => {
    if (simpleMatch(p, path)) return true;
    // A pattern naming an object keeps its content ("obj" keeps "obj.a").
    let dot = path.indexOf('.');
    while (dot >= 0) {
      if (simpleMatch(p, path.slice(0, dot))) return true;
      dot = path.indexOf('.', dot + 1);
    }
    return false;
  });
}

/** Whether some include could match something below this object path. */
function mayIncludeBelow(includes: readonly string[], path: string): boolean {
  return includes.some((p) => {
    const prefix = p.split('*')[0]!;
    return prefix.startsWith(path + '.') || (path + '.').startsWith(prefix) || p.startsWith('*');
  });
}

interface Frame {
  readonly isObject: boolean;
  readonly path: string;
  /** Output parts of this container's members. */
  readonly parts: string[];
  /** The key under which this container goes in its parent. */
  readonly key: string | undefined;
  /** Kept whole (matched itself), so its content is not filtered further. */
  readonly whole: boolean;
}

export function filterSource(source: Uint8Array, includes: readonly string[], excludes: readonly string[]): Uint8Array {
  const parser = new JsonPullParser(source);
  const root = parser.next();
  if (root !== 'START_OBJECT') return source;
  const stack: Frame[] = [{ isObject: true, path: '', parts: [], key: undefined, whole: false }];
  let pendingKey: string | undefined;
  const keep = (path: string, isContainer: boolean, parentWhole: boolean): 'keep' | 'descend' | 'drop' => {
    if (excludes.length > 0 && matchesPathOrParent(excludes, path)) return 'drop';
    if (includes.length === 0 || parentWhole || matchesPathOrParent(includes, path)) return 'keep';
    return isContainer && mayIncludeBelow(includes, path) ? 'descend' : 'drop';
  };
  const emit = (text: string): void => {
    const top = stack[stack.length - 1]!;
    top.parts.push(top.isObject ? `${JSON.stringify(pendingKey)}:${text}` : text);
  };
  for (let token = parser.next(); token !== undefined && stack.length > 0; token = parser.next()) {
    const top = stack[stack.length - 1]!;
    if (token === 'FIELD_NAME') {
      pendingKey = parser.text;
      continue;
    }
    if (token === 'END_OBJECT' || token === 'END_ARRAY') {
      const done = stack.pop()!;
      const text = done.isObject ? `{${done.parts.join(',')}}` : `[${done.parts.join(',')}]`;
      const parent = stack[stack.length - 1];
      if (parent === undefined) return Buffer.from(text, 'utf8');
      // An object kept only to reach an include is dropped when nothing under it matched.
      if (!done.whole && done.isObject && done.parts.length === 0 && includes.length > 0) continue;
      pendingKey = done.key;
      emit(text);
      continue;
    }
    const path = top.isObject ? (top.path === '' ? pendingKey! : `${top.path}.${pendingKey}`) : top.path;
    const container = token === 'START_OBJECT' || token === 'START_ARRAY';
    const decision = top.isObject ? keep(path, container, top.whole) : top.whole ? 'keep' : 'descend';
    if (decision === 'drop') {
      parser.skipChildren();
      continue;
    }
    if (container) {
      stack.push({ isObject: token === 'START_OBJECT', path, parts: [], key: pendingKey, whole: decision === 'keep' && top.isObject ? true : top.whole });
      continue;
    }
    if (!top.isObject && !top.whole && includes.length > 0 && !matchesPathOrParent(includes, path)) continue;
    emit(token === 'VALUE_STRING' ? JSON.stringify(parser.text) : parser.text);
  }
  return source;
}
