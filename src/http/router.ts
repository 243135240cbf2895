/**
 * A path trie like ES's PathTrie: literal segments win over `{param}` segments, and matching backtracks, so
 * `/_tasks/_cancel` and `/_tasks/{task_id}` coexist. One node may hold a route per HTTP method. A last segment
 * `{name...}` matches the rest of the path (zero or more segments); it loses to every more specific route, which is
 * how a whole API family Gannet does not have (`/_snapshot/...`) gets one answer.
 */
import type { HttpMethod, Route } from '../actions/rest.js';

interface TrieNode {
  literal: Map<string, TrieNode>;
  wildcard?: { name: string; node: TrieNode };
  /** `{name...}`: the rest of the path, however long. */
  rest?: { name: string; node: TrieNode };
  routes: Map<HttpMethod, Route>;
}

export interface RouteMatch {
  route: Route;
  pathParams: Record<string, string>;
}

export type RouteLookup =
  | { kind: 'found'; match: RouteMatch }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

function newNode(): TrieNode {
  return { literal: new Map(), routes: new Map() };
}

export function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

export class Router {
  private readonly root = newNode();

  add(route: Route): void {
    let node = this.root;
    const segments = splitPath(route.path);
    for (const [position, segment] of segments.entries()) {
      const rest = /^\{(.+)\.\.\.\}$/.exec(segment);
      if (rest) {
        if (position !== segments.length - 1) throw new Error(`route ${route.path}: {${rest[1]}...} must be the last segment`);
        node.rest ??= { name: rest[1]!, node: newNode() };
        node = node.rest.node;
        continue;
      }
      const param = /^\{(.+)\}$/.exec(segment);
      if (param) {
        if (!node.wildcard) node.wildcard = { name: param[1]!, node: newNode() };
        else if (node.wildcard.name !== param[1]) {
          throw new Error(`route ${route.path}: parameter {${param[1]}} conflicts with {${node.wildcard.name}}`);
        }
        node = node.wildcard.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) {
          next = newNode();
          node.literal.set(segment, next);
        }
        node = next;
      }
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (node.routes.has(method)) throw new Error(`duplicate route ${method} ${route.path}`);
      node.routes.set(method, route);
    }
  }

  lookup(method: HttpMethod, segments: string[]): RouteLookup {
    const candidates: Array<{ node: TrieNode; params: Record<string, string> }> = [];
    this.collect(this.root, segments, 0, {}, candidates);
    for (const candidate of candidates) {
      const route = candidate.node.routes.get(method) ?? (method === 'HEAD' ? candidate.node.routes.get('GET') : undefined);
      if (route) return { kind: 'found', match: { route, pathParams: candidate.params } };
    }
    if (candidates.length > 0) {
      const allowed = new Set<HttpMethod>();
      for (const candidate of candidates) for (const m of candidate.node.routes.keys()) allowed.add(m);
      if (allowed.size > 0) return { kind: 'method-not-allowed', allowed: [...allowed].sort() };
    }
    return { kind: 'not-found' };
  }

  /** Every node matching the segments, literal-first (so the most specific comes first). */
  private collect(
    node: TrieNode,
    segments: string[],
    index: number,
    params: Record<string, string>,
    out: Array<{ node: TrieNode; params: Record<string, string> }>,
  ): void {
    if (index === segments.length) {
      if (node.routes.size > 0) out.push({ node, params });
    } else {
      const segment = segments[index]!;
      const literal = node.literal.get(segment);
      if (literal) this.collect(literal, segments, index + 1, params, out);
      if (node.wildcard) {
        this.collect(node.wildcard.node, segments, index + 1, { ...params, [node.wildcard.name]: segment }, out);
      }
    }
    if (node.rest && node.rest.node.routes.size > 0) out.push({ node: node.rest.node, params: { ...params, [node.rest.name]: segments.slice(index).join('/') } });
  }
}
