/**
 * `_source` filtering for search hits, as ES 8's FetchSourcePhase does it: with no includes and no excludes
 * the stored bytes go out untouched (so `1.0` and 20-digit integers come back as sent); otherwise the source
 * is streamed through Jackson's FilteringParserDelegate twice (excludes, then includes, each with
 * INCLUDE_ALL_AND_PATH and multiple matches) and re-serialised compactly, which prints floats as Java
 * doubles (`1.50` -> `1.5`, `1e2` -> `100.0`) and integers with all their digits. An exclude of `*` yields `{}`.
 *
 * The Jackson rules reproduced here (FilterPathBasedFilter, 8.15+):
 * - a property whose name completes a pattern is kept whole (includes) or dropped whole (excludes);
 * - a property no pattern can reach is dropped (includes) or kept whole (excludes);
 * - otherwise its value is filtered with the remaining patterns: arrays are transparent (each element is
 *   filtered with the same patterns), scalars are dropped (includes) or kept (excludes);
 * - an object or array left empty by filtering is dropped; one that was empty in the source is kept only by
 *   excludes (includeEmptyObject/includeEmptyArray: `inclusive == false && contentsFiltered == false`).
 */
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import { RawJson } from '../../common/raw-json.js';
import { evaluatePath, FilterPath } from './filter-path.js';
import { writeJackson } from './java-values.js';
import { parseSource, type SourceArray, type SourceObject, type SourceValue } from './source-tree.js';

/** What the request said about `_source` (FetchSourceContext). */
export interface FetchSourceSpec {
  readonly fetch: boolean;
  readonly includes: readonly string[];
  readonly excludes: readonly string[];
}

/** Which side of the filter runs: includes keep what matches, excludes drop it. */
type Side = { readonly inclusive: boolean };

const INCLUDES: Side = { inclusive: true };
const EXCLUDES: Side = { inclusive: false };

function filterObject(object: SourceObject, side: Side, filters: readonly FilterPath[]): SourceObject | undefined {
  const out: SourceObject = new Map();
  for (const [name, value] of object) {
    const match = evaluatePath(name, filters);
    if (match.kind === 'match') {
      if (side.inclusive) out.set(name, value);
    } else if (match.kind === 'none') {
      if (!side.inclusive) out.set(name, value);
    } else {
      const filtered = filterValue(value, side, match.filters);
      if (filtered !== undefined) out.set(name, filtered);
    }
  }
  if (out.size > 0) return out;
  return keepsEmptyContainer(side, object.size > 0) ? out : undefined;
}

function filterArray(array: SourceArray, side: Side, filters: readonly FilterPath[]): SourceArray | undefined {
  const out: SourceArray = [];
  for (const item of array) {
    const filtered = filterValue(item, side, filters);
    if (filtered !== undefined) out.push(filtered);
  }
  if (out.length > 0) return out;
  return keepsEmptyContainer(side, array.length > 0) ? out : undefined;
}

function filterValue(value: SourceValue, side: Side, filters: readonly FilterPath[]): SourceValue | undefined {
  if (value instanceof Map) return filterObject(value, side, filters);
  if (Array.isArray(value)) return filterArray(value, side, filters);
  // TokenFilter._includeScalar(): leaves are kept by an exclude filter, must be matched by an include one.
  return side.inclusive ? undefined : value;
}

function keepsEmptyContainer(side: Side, contentsFiltered: boolean): boolean {
  return !side.inclusive && !contentsFiltered;
}

/** A compiled include/exclude pair, reusable for every hit of a request. */
export class SourceFilter {
  private readonly includePath: FilterPath | null;
  private readonly excludePath: FilterPath | null;
  /** SourceFilter.excludesAll: an exclude of exactly `*` (the fetch phase then returns `{}` without parsing). */
  readonly excludesAll: boolean;

  constructor(
    readonly includes: readonly string[],
    readonly excludes: readonly string[],
  ) {
    this.includePath = FilterPath.compile(includes);
    this.excludePath = FilterPath.compile(excludes);
    this.excludesAll = excludes.includes('*');
  }

  /** No includes and no excludes: the source is returned as stored. */
  get isEmpty(): boolean {
    return this.includes.length === 0 && this.excludes.length === 0;
  }

  /** The filtered source tree (an empty map when nothing is left). */
  filterTree(source: SourceObject): SourceObject {
    if (this.excludesAll) return new Map();
    let current: SourceObject | undefined = source;
    if (this.excludePath !== null) current = filterObject(current, EXCLUDES, [this.excludePath]);
    if (current !== undefined && this.includePath !== null) {
      current = filterObject(current, INCLUDES, [this.includePath]);
    }
    return current ?? new Map();
  }

  /** The `_source` to print for stored source bytes: verbatim when the filter is empty, else re-serialised. */
  apply(source: Uint8Array): RawJson {
    if (this.isEmpty) return new RawJson(Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8'));
    if (this.excludesAll) return new RawJson('{}');
    return new RawJson(writeJackson(this.filterTree(parseSource(source))));
  }
}

/**
 * The hit's `_source` (FetchSourcePhase): undefined when not fetched or the document has none stored.
 * `filter` may be passed to reuse one compiled filter across hits.
 */
export function sourceForHit(source: Uint8Array | null | undefined, spec: FetchSourceSpec | undefined, filter?: SourceFilter): RawJson | undefined {
  if (spec !== undefined && !spec.fetch) return undefined;
  if (source === null || source === undefined) return undefined;
  const compiled = filter ?? new SourceFilter(spec?.includes ?? [], spec?.excludes ?? []);
  return compiled.apply(source);
}

/** FetchSourcePhase's error when a filter is asked of an index whose mapping disables `_source`. */
export function sourceDisabledError(index: string): Error {
  return illegalArgument(`unable to fetch fields from _source field: _source is disabled in the mappings for index [${index}]`);
}
