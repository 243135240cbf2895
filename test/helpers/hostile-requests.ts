/**
 * The requests of issue 18's measured list, as an attacker or an unlucky client sends them: each one small to
 * send and, on a node without limits, able to hold the event loop for seconds to minutes. Shared by the
 * integration tests (test/integration/hostile-*.test.ts) and the bench's hostile track, so both measure the
 * same thing. Each request names the index it targets; fields are those of the npm corpus under dynamic
 * mapping (`name` and `summary` text with `.keyword`), which the tests' small index reproduces.
 */
import { gzipSync } from 'node:zlib';
import { rawRequest, type HttpResult } from './node-process.js';

export interface HostileCase {
  readonly name: string;
  readonly description: string;
  /** Sends the request(s) and resolves with the answer(s); several for concurrent cases. */
  send(port: number, index: string): Promise<HttpResult[]>;
  /** A task action to cancel if the request is still running when the measurement window ends. */
  readonly cancelActions?: string;
}

const json = { 'content-type': 'application/json' };

function search(port: number, index: string, body: unknown): Promise<HttpResult> {
  return rawRequest(port, 'POST', `/${index}/_search`, { raw: JSON.stringify(body), headers: json });
}

/** Distinct lowercase words of the given length (base-26 numerals over a-z, varied so they do not share prefixes). */
export function words(count: number, length = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let n = i * 7919 + 104729;
    let word = '';
    for (let j = 0; j < length; j++) {
      word += String.fromCharCode(97 + (n % 26));
      n = Math.floor(n / 26) + j * 31;
    }
    out.push(word);
  }
  return out;
}

/** `{"<field>":[0,1,2,...]}` with `count` small ints, built as bytes without a giant JS array. */
export function intArrayDocument(field: string, count: number): Buffer {
  const digits = Array.from({ length: 10 }, (_, d) => `${d},`).join('');
  const body = digits.repeat(Math.floor(count / 10)) + digits.slice(0, 2 * (count % 10));
  return Buffer.from(`{"${field}":[${body.slice(0, -1)}]}`);
}

export const HOSTILE_CASES: readonly HostileCase[] = [
  {
    name: 'regexp [a-z]{1,50}{1,50}',
    description: 'a 19-character regexp whose automaton explodes when determinized',
    send: async (port, index) => [await search(port, index, { query: { regexp: { name: '[a-z]{1,50}{1,50}' } } })],
    cancelActions: 'indices:data/read/search',
  },
  {
    name: 'regexp .*a.{30}',
    description: 'a regexp whose DFA needs 2^31 states',
    send: async (port, index) => [await search(port, index, { query: { regexp: { name: '.*a.{30}' } } })],
    cancelActions: 'indices:data/read/search',
  },
  {
    name: 'simple_query_string 50,000 terms',
    description: '50,000 terms joined by |, over the default fields',
    send: async (port, index) => [await search(port, index, { query: { simple_query_string: { query: words(50_000).join(' | ') } } })],
    cancelActions: 'indices:data/read/search',
  },
  {
    name: 'match fuzziness AUTO, 200 words',
    description: '200 seven-letter words, each a fuzzy expansion over the term dictionary',
    send: async (port, index) => [await search(port, index, { query: { match: { summary: { query: words(200).join(' '), fuzziness: 'AUTO' } } } })],
    cancelActions: 'indices:data/read/search',
  },
  {
    name: 'update_by_query, 999,999-iteration script',
    description: 'a script looping 999,999 times per document, scroll_size 100',
    send: async (port, index) => [
      await rawRequest(port, 'POST', `/${index}/_update_by_query?scroll_size=100&conflicts=proceed&refresh=false`, {
        raw: JSON.stringify({ script: { source: 'def x = 0; for (def i = 0; i < 999999; i++) { x += 1 } ctx._source.loops = x' } }),
        headers: json,
      }),
    ],
    cancelActions: 'indices:data/write/update/byquery',
  },
  {
    name: 'document, 400,000-int array',
    description: 'one document with 400,000 ints in a new field',
    send: async (port, index) => [
      await rawRequest(port, 'PUT', `/${index}-ints/_doc/1`, { raw: intArrayDocument('ints400k', 400_000), headers: json }),
    ],
  },
  {
    name: 'document, 5,000,000-int array',
    description: 'one 10 MB document with 5,000,000 ints in a new field',
    send: async (port, index) => [
      await rawRequest(port, 'PUT', `/${index}-ints/_doc/2`, { raw: intArrayDocument('ints5m', 5_000_000), headers: json }),
    ],
  },
  {
    name: 'document, 2M-digit integer',
    description: 'one document whose value is an integer literal of 2,000,000 digits',
    send: async (port, index) => [
      await rawRequest(port, 'PUT', `/${index}-ints/_doc/3`, { raw: `{"huge":${'9'.repeat(2_000_000)}}`, headers: json }),
    ],
  },
  {
    name: '100 terms aggs of size 60,000',
    description: '100 sibling terms aggregations of size 60,000 on a keyword field',
    send: async (port, index) => {
      const aggs: Record<string, unknown> = {};
      for (let i = 0; i < 100; i++) aggs[`t${i}`] = { terms: { field: 'name.keyword', size: 60_000 } };
      return [await search(port, index, { size: 0, aggs })];
    },
    cancelActions: 'indices:data/read/search',
  },
  {
    name: 'six 95 KB gzip bodies of 95 MB',
    description: 'six concurrent gzip bodies of ~95 KB, each inflating to a 95 MB document',
    send: async (port, index) => {
      const body = gzipBomb();
      return Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          rawRequest(port, 'PUT', `/${index}-bombs/_doc/${i}`, { raw: body, headers: { ...json, 'content-encoding': 'gzip' } }).catch(
            (err: Error): HttpResult => ({ status: 0, headers: {}, text: err.message, body: undefined }),
          ),
        ),
      );
    },
    cancelActions: 'indices:data/write/*',
  },
];

let bomb: Buffer | undefined;

/** A ~95 KB gzip body that inflates to a 95 MB document (one long string of a repeated phrase). */
export function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.from(`{"message":"${'lorem ipsum dolor sit amet '.repeat(3_518_000)}"}`), { level: 9 });
  return bomb;
}

/** ES's error type of an answer (the top-level `error.type`), or undefined for a success. */
export function errorType(result: HttpResult): string | undefined {
  return typeof result.body?.error === 'object' ? result.body.error.type : undefined;
}
