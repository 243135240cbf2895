/**
 * elasticdump (the npm CLI, unmodified, run as a child process) against a real Gannet node: export an index's
 * mapping and data to files, import both into another index on the same node, and check that every document
 * (id and source) and the mapping came across. elasticdump reads the version from `GET /` (major >= 7: no
 * `_type`), exports with a scrolled `_search` (a JSON body on a GET) and `_search/scroll`, or with a point in
 * time and `search_after` on `_shard_doc`,
 * creates the target with `PUT {index}` and `PUT {index}/_mapping`, and imports with `PUT {index}/_bulk` then
 * `POST {index}/_refresh`. A failure is a Gannet compatibility bug.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeProcess } from '../helpers/node-process.js';
import { elasticdump } from '../helpers/elasticdump.js';

const DOCS = 260;

let node: NodeProcess;
let dir: string;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'compat-dump' } });
  dir = mkdtempSync(join(tmpdir(), 'gannet-elasticdump-'));
});
after(async () => {
  await node?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Every document of an index by id, through a plain search. */
async function documents(index: string): Promise<Map<string, unknown>> {
  const res = await node.request('POST', `/${index}/_search?size=1000`, { body: { query: { match_all: {} } } });
  assert.equal(res.status, 200, res.text);
  return new Map((res.body.hits.hits as Array<{ _id: string; _source: unknown }>).map((hit) => [hit._id, hit._source]));
}

test('elasticdump exports an index (mapping and data) to files and imports it into another index', async () => {
  const mappings = {
    properties: {
      title: { type: 'text', fields: { raw: { type: 'keyword' } } },
      n: { type: 'long' },
      price: { type: 'double' },
      tags: { type: 'keyword' },
      published: { type: 'date' },
      available: { type: 'boolean' },
    },
  };
  const created = await node.request('PUT', '/dump-src', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 }, mappings } });
  assert.equal(created.status, 200, created.text);
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    lines.push(JSON.stringify({ index: { _id: `doc-${i}` } }));
    lines.push(
      JSON.stringify({
        title: `Title ${i} with "quotes" and unicode é ${'x'.repeat(i % 7)}`,
        n: i * 1000,
        price: i + 0.25,
        tags: i % 3 === 0 ? ['a', 'b'] : ['c'],
        published: new Date(Date.UTC(2020, 0, 1 + i)).toISOString(),
        available: i % 2 === 0,
        nested: { deep: { value: i } },
      }),
    );
  }
  const bulk = await node.request('POST', '/dump-src/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.status, 200, bulk.text);
  assert.equal(bulk.body.errors, false);

  const url = node.url;
  const mappingFile = join(dir, 'mapping.json');
  const dataFile = join(dir, 'data.json');
  await elasticdump([`--input=${url}/dump-src`, `--output=${mappingFile}`, '--type=mapping']);
  await elasticdump([`--input=${url}/dump-src`, `--output=${dataFile}`, '--type=data', '--limit=100']);

  const exportedMapping = JSON.parse(readFileSync(mappingFile, 'utf8'));
  assert.deepEqual(Object.keys(exportedMapping), ['dump-src']);
  const dataLines = readFileSync(dataFile, 'utf8').split('\n').filter((line) => line.length > 0);
  assert.equal(dataLines.length, DOCS);
  const first = JSON.parse(dataLines[0]!);
  assert.equal(first._index, 'dump-src');
  assert.equal(first._type, undefined, 'no _type against a 7+ server');

  // The same export through a point in time and search_after on _shard_doc (--searchAfter --pit) finds the same
  // documents. (elasticdump then closes the PIT with DELETE {index}/_pit, which ES itself answers with 405, so
  // the PIT is left to expire on ES too.)
  const pitFile = join(dir, 'data-pit.json');
  await elasticdump([`--input=${url}/dump-src`, `--output=${pitFile}`, '--type=data', '--limit=100', '--searchAfter', '--pit', '--pitKeepAlive=1m']);
  const bySource = (file: string) =>
    new Map(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as { _id: string; _source: unknown })
        .map((hit) => [hit._id, hit._source]),
    );
  const viaPit = bySource(pitFile);
  assert.equal(viaPit.size, DOCS);
  assert.deepEqual(viaPit, bySource(dataFile));

  await elasticdump([`--input=${mappingFile}`, `--output=${url}/dump-dst`, '--type=mapping']);
  await elasticdump([`--input=${dataFile}`, `--output=${url}/dump-dst`, '--type=data', '--limit=100']);

  const srcMapping = await node.request('GET', '/dump-src/_mapping');
  const dstMapping = await node.request('GET', '/dump-dst/_mapping');
  assert.equal(dstMapping.status, 200, dstMapping.text);
  assert.deepEqual(dstMapping.body['dump-dst'].mappings, srcMapping.body['dump-src'].mappings);
  assert.deepEqual(srcMapping.body['dump-src'].mappings.properties.title, mappings.properties.title);

  const count = await node.request('GET', '/dump-dst/_count');
  assert.equal(count.body.count, DOCS);
  const src = await documents('dump-src');
  const dst = await documents('dump-dst');
  assert.equal(src.size, DOCS);
  assert.deepEqual([...dst.keys()].sort(), [...src.keys()].sort());
  for (const [id, source] of src) assert.deepEqual(dst.get(id), source, `document ${id}`);
});
