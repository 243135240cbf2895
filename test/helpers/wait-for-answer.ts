/** Polling a node over HTTP until its answer satisfies a check: the clusters' `waitFor` in both harnesses. */
import type { HttpResult } from './node-process.js';

/** Anything that answers HTTP requests at a URL: a node process or an in-process node. */
export interface AnsweringNode {
  readonly url: string;
  request(method: 'GET', path: string): Promise<HttpResult>;
}

/** Polls `check` on the node's answer to `GET path` until it holds; a failed request (node busy, stopping or restarting) is retried. */
export async function waitForAnswer(node: AnsweringNode, path: string, check: (response: HttpResult) => boolean, timeoutMillis: number, intervalMillis: number): Promise<HttpResult> {
  const deadline = Date.now() + timeoutMillis;
  let last: HttpResult | undefined;
  while (Date.now() < deadline) {
    try {
      last = await node.request('GET', path);
      if (check(last)) return last;
    } catch {
      // node busy, stopping or restarting
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMillis));
  }
  throw new Error(`timed out waiting on ${node.url}${path}; last answer: ${last?.text}`);
}
