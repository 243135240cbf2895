/**
 * `filter_path`: a comma list of dot paths. `*` matches any one key segment (with partial patterns like
 * `no*`), `**` matches any number of levels, and a leading `-` excludes. Inclusions are applied first,
 * then exclusions, as ES's FilterPath does. Arrays are transparent: a path applies to every element.
 */
import { setOwnValue } from '../common/own-keys.js';
import { simpleMatch } from '../common/wildcards.js';
import { RawJson, expandRawJson } from '../common/raw-json.js';

type Segments = string[];

export interface FilterPath {
  includes: Segments[];
  excludes: Segments[];
}

export function parseFilterPath(raw: string | undefined): FilterPath | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const includes: Segments[] = [];
  const excludes: Segments[] = [];
  for (const entry of raw.split(',')) {
    const path = entry.trim();
    if (path === '') continue;
    if (path.startsWith('-')) excludes.push(splitPath(path.slice(1)));
    else includes.push(splitPath(path));
  }
  if (includes.length === 0 && excludes.length === 0) return undefined;
  return { includes, excludes };
}

function splitPath(path: string): Segments {
  // ES allows dots inside keys to be escaped as `\.`.
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    if (ch === '\\' && path[i + 1] === '.') {
      current += '.';
      i++;
    } else if (ch === '.') {
      segments.push(current);
      current = '';
    } else current += ch;
  }
  segments.push(current);
  return segments;
}

const DROP = Symbol('drop');

export function applyFilterPath(value: unknown, filter: FilterPath | undefined): unknown {
  if (!filter) return value;
  let result: unknown = value;
  if (filter.includes.length > 0) {
    const included = include(value, filter.includes);
    result = included === DROP ? {} : included;
  }
  if (filter.excludes.length > 0) {
    const excluded = exclude(result, filter.excludes);
    result = excluded === DROP ? {} : excluded;
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Advances each path over one key; returns the remaining paths, and whether one ended here (full match). */
function advance(paths: Segments[], key: string): { rest: Segments[]; matched: boolean } {
  const rest: Segments[] = [];
  let matched = false;
  for (const path of paths) {
    const head = path[0]!;
    if (head === '**') {
      // `**` may consume this key and stay, or be skipped.
      rest.push(path);
      if (path.length === 1) matched = true;
      const skipped = advance([path.slice(1)], key);
      rest.push(...skipped.rest);
      matched ||= skipped.matched;
    } else if (simpleMatch(head, key)) {
      if (path.length === 1) matched = true;
      else rest.push(path.slice(1));
    }
  }
  return { rest, matched };
}

function include(value: unknown, paths: Segments[]): unknown {
  if (value instanceof RawJson) value = expandRawJson(value);
  if (Array.isArray(value)) {
    const kept = value.map((item) => include(item, paths)).filter((item) => item !== DROP);
    return kept.length === 0 ? DROP : kept;
  }
  if (!isPlainObject(value)) return DROP;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const { rest, matched } = advance(paths, key);
    if (matched) {
      setOwnValue(out, key, child);
      any = true;
    } else if (rest.length > 0) {
      const filtered = include(child, rest);
      if (filtered !== DROP) {
        setOwnValue(out, key, filtered);
        any = true;
      }
    }
  }
  return any ? out : DROP;
}

function exclude(value: unknown, paths: Segments[]): unknown {
  if (value instanceof RawJson) value = expandRawJson(value);
  if (Array.isArray(value)) return value.map((item) => exclude(item, paths)).filter((item) => item !== DROP);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const { rest, matched } = advance(paths, key);
    if (matched) continue;
    if (rest.length > 0) {
      const filtered = exclude(child, rest);
      setOwnValue(out, key, filtered);
    } else setOwnValue(out, key, child);
  }
  return out;
}
