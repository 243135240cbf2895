/**
 * ES's FilterPath (libs/x-content, 8.x): `_source` include/exclude patterns compiled into a tree of path
 * segments split on unescaped dots. `*` inside a segment matches within one property name, a `**` segment
 * matches any number of levels, and a property name containing dots ("a.b": 1) is matched segment by
 * segment as if it were nested objects (filtersMatchFieldNamesWithDots, which source filtering turns on).
 */
import { simpleMatch } from '../../common/wildcards.js';

const WILDCARD = '*';
const DOUBLE_WILDCARD = '**';

class BuildNode {
  readonly children = new Map<string, BuildNode>();
  constructor(readonly isFinalNode: boolean) {}
}

export class FilterPath {
  private constructor(
    private readonly pattern: string,
    private readonly isFinalNode: boolean,
    private readonly termsChildren: ReadonlyMap<string, FilterPath>,
    private readonly wildcardChildren: readonly FilterPath[],
  ) {}

  private get isDoubleWildcard(): boolean {
    return this.pattern === DOUBLE_WILDCARD;
  }

  /**
   * Whether `name` completes one of this node's patterns; otherwise adds the nodes that may match deeper
   * properties to `nextFilters`.
   */
  matches(name: string, nextFilters: FilterPath[]): boolean {
    const dotIndex = name.indexOf('.');
    if (dotIndex > 0 && dotIndex !== name.length - 1) return this.matchFieldNameWithDots(name, dotIndex, nextFilters);
    const termNode = this.termsChildren.get(name);
    if (termNode !== undefined) {
      if (termNode.isFinalNode) return true;
      nextFilters.push(termNode);
    }
    for (const wildcardNode of this.wildcardChildren) {
      if (simpleMatch(wildcardNode.pattern, name)) {
        if (wildcardNode.isFinalNode) return true;
        nextFilters.push(wildcardNode);
      }
    }
    if (this.isDoubleWildcard) nextFilters.push(this);
    return false;
  }

  private matchFieldNameWithDots(name: string, dotIndex: number, nextFilters: FilterPath[]): boolean {
    const prefixFilters: FilterPath[] = [];
    if (this.matches(name.slice(0, dotIndex), prefixFilters)) return true;
    const suffix = name.slice(dotIndex + 1);
    for (const filter of prefixFilters) {
      if (filter.matches(suffix, nextFilters)) return true;
    }
    return false;
  }

  /** FilterPath.compile: one root for all patterns; blank patterns are ignored; null when none remain. */
  static compile(patterns: readonly string[]): FilterPath | null {
    const root = new BuildNode(false);
    let inserted = false;
    for (const raw of patterns) {
      const pattern = raw.trim();
      if (pattern.length === 0) continue;
      insertNode(pattern, root);
      inserted = true;
    }
    return inserted ? FilterPath.build('', root) : null;
  }

  private static build(segment: string, node: BuildNode): FilterPath {
    const termsChildren = new Map<string, FilterPath>();
    const wildcardChildren: FilterPath[] = [];
    for (const [childName, childNode] of node.children) {
      const child = FilterPath.build(childName, childNode);
      if (childName.includes(WILDCARD)) wildcardChildren.push(child);
      else termsChildren.set(childName, child);
    }
    return new FilterPath(segment, node.isFinalNode, termsChildren, wildcardChildren);
  }
}

/** Splits on the first dot not escaped as `\.`; a final node swallows any longer pattern below it. */
function insertNode(filter: string, node: BuildNode): void {
  let splitPosition = -1;
  let findEscapes = false;
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i];
    if (c === '.') {
      splitPosition = i;
      break;
    }
    if (c === '\\' && i + 1 < filter.length && filter[i + 1] === '.') {
      i++;
      findEscapes = true;
    }
  }
  if (splitPosition > 0) {
    const head = filter.slice(0, splitPosition);
    const field = findEscapes ? head.replaceAll('\\.', '.') : head;
    let child = node.children.get(field);
    if (child === undefined) {
      child = new BuildNode(false);
      node.children.set(field, child);
    }
    if (!child.isFinalNode) insertNode(filter.slice(splitPosition + 1), child);
  } else {
    const field = findEscapes ? filter.replaceAll('\\.', '.') : filter;
    node.children.set(field, new BuildNode(true));
  }
}

/** What a property name means for one side (includes or excludes) of a filter. */
export type PathMatch = { readonly kind: 'match' } | { readonly kind: 'none' } | { readonly kind: 'partial'; readonly filters: readonly FilterPath[] };

const MATCH: PathMatch = { kind: 'match' };
const NONE: PathMatch = { kind: 'none' };

/** FilterPathBasedFilter.evaluate: a full match, no match, or the filters to apply inside the property's value. */
export function evaluatePath(name: string, filters: readonly FilterPath[]): PathMatch {
  const nextFilters: FilterPath[] = [];
  for (const filter of filters) {
    if (filter.matches(name, nextFilters)) return MATCH;
  }
  return nextFilters.length > 0 ? { kind: 'partial', filters: nextFilters } : NONE;
}
