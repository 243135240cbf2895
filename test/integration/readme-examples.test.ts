/**
 * The README's "Index and search" and "Reindex, watch, throttle, cancel" examples, run as written, in order,
 * against a real node: each `curl` line is read from README.md, its arguments are split as a POSIX shell splits
 * them (single quotes, `$'…'` with backslash escapes, double quotes), and the request curl would send is sent
 * (`-X`, `-H`, `-d`/`--data-binary`, POST when there is data). `<task>` is the task id the first reindex
 * answered. A README example that stops working fails here.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { NodeProcess } from '../helpers/node-process.js';

const README = join(process.cwd(), 'README.md');

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'readme' } });
});
after(async () => {
  await node?.stop();
});

/** The `curl` lines of the first ```sh block after the heading. */
function curlLines(heading: string): string[] {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README has no "## ${heading}" section`);
  const open = text.indexOf('```sh\n', start);
  const close = text.indexOf('\n```', open + 6);
  return text
    .slice(open + 6, close)
    .split('\n')
    .filter((line) => line.startsWith('curl '));
}

/** Splits a command line into words as a POSIX shell (plus bash's `$'…'`) would. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '$' && line[i + 1] === "'") {
      let out = '';
      i += 2;
      while (line[i] !== "'") {
        if (line[i] === '\\') {
          out += escapes[line[i + 1]!] ?? line[i + 1]!;
          i += 2;
        } else out += line[i++];
      }
      word = (word ?? '') + out;
      i++;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Sends what `curl <args>` would send, to the test node instead of localhost:9200. */
function curl(line: string, substitutions: Record<string, string>): Promise<Answer> {
  let resolved = line;
  for (const [placeholder, value] of Object.entries(substitutions)) resolved = resolved.split(placeholder).join(value);
  const args = shellWords(resolved).slice(1);
  let method: string | undefined;
  let url: string | undefined;
  let data: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-X') method = args[++i];
    else if (arg === '-H') {
      const header = args[++i]!;
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (arg === '-d' || arg === '--data-binary') data = args[++i];
    else if (arg.startsWith('-')) throw new Error(`the README uses a curl option this test does not know: ${arg}`);
    else url = arg;
  }
  if (url === undefined || !url.startsWith('localhost:9200/')) throw new Error(`unexpected URL in ${line}`);
  const target = new URL(`${node.url}${url.slice('localhost:9200'.length)}`);
  if (data !== undefined) headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return new Promise((resolve, reject) => {
    const req = httpRequest(target, { method: method ?? (data !== undefined ? 'POST' : 'GET'), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, body });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

test('the README index and search examples run as written', async () => {
  const lines = curlLines('Index and search');
  const answers: Answer[] = [];
  for (const line of lines) {
    const answer = await curl(line, {});
    assert.ok(answer.status >= 200 && answer.status < 300, `${line}\n-> ${answer.status} ${answer.text}`);
    answers.push(answer);
  }
  const find = (fragment: string): Answer => answers[lines.findIndex((line) => line.includes(fragment))]!;
  assert.equal(find('_bulk').body.errors, false);
  assert.equal(find('_doc/1').body._source.title, 'Dune');
  assert.deepEqual(find('q=title:dune').body.hits.hits.map((hit: { _id: string }) => hit._id).sort(), ['1', '2']);
  assert.equal(find('"dune messiah"').body.hits.hits[0]._id, '2');
  assert.deepEqual(find('match_phrase').body.hits.hits[0].highlight.title, ['The <em>Left Hand</em> of Darkness']);
  const sorted = find('"sort"').body.hits.hits.map((hit: { _id: string }) => hit._id);
  assert.equal(sorted[0], '5');
  assert.deepEqual([...sorted].sort(), ['2', '3', '5']);
  const authors = find('"aggs"').body.aggregations.authors.buckets;
  assert.deepEqual(
    authors.map((bucket: { key: string; doc_count: number; first: { value: number } }) => [bucket.key, bucket.doc_count, bucket.first.value]),
    [
      ['Ursula K. Le Guin', 3, 1968],
      ['Frank Herbert', 2, 1965],
    ],
  );
  assert.equal(find('_count').body.count, 4);
  assert.equal(find('_update/1').body.result, 'updated');
  assert.match(find('_cat/indices').text, /books/);
});

test('the README reindex examples run as written: start, watch, rethrottle, cancel, by-query edits', async () => {
  const lines = curlLines('Reindex, watch, throttle, cancel');
  const started = await curl(lines[0]!, {});
  assert.equal(started.status, 200, started.text);
  const task = String(started.body.task);
  assert.match(task, /^[^:]+:\d+$/);
  const answers: Answer[] = [started];
  for (const line of lines.slice(1)) {
    const answer = await curl(line, { '<task>': task });
    assert.ok(answer.status >= 200 && answer.status < 300, `${line}\n-> ${answer.status} ${answer.text}`);
    answers.push(answer);
  }
  const running = answers[1]!.body;
  assert.equal(running.task.description, 'reindex from [books] to [books-copy]');
  assert.match(answers[2]!.text, /indices:data\/write\/reindex .* reindex from \[books\] to \[books-copy\]/);
  const cancelled = answers[4]!.body;
  assert.ok(Object.values(cancelled.nodes as Record<string, { tasks: Record<string, unknown> }>).some((n) => task in n.tasks), answers[4]!.text);
  const final = answers[5]!.body;
  assert.equal(final.completed, true);
  assert.equal(final.response.canceled, 'by user request');
  assert.equal(answers[6]!.body.updated, 2);
  assert.equal(answers[7]!.body.deleted, 1);
});
