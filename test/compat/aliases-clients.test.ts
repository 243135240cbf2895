/**
 * Aliases through unmodified clients: the official JavaScript clients (9.x and the 8.x alias `es8`) on
 * `indices.updateAliases`, `indices.putAlias`, `indices.getAlias`, `indices.existsAlias`, `indices.deleteAlias` and
 * `cat.aliases`, and elasticdump's `--type=alias` export (`GET {index}/_alias/*`) and import (`POST /_aliases`).
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { NodeProcess } from '../helpers/node-process.js';
import { elasticdump } from '../helpers/elasticdump.js';


let node: NodeProcess;
let dir: string;
before(async () => {
  node = await NodeProcess.start({ settings: { 'cluster.name': 'compat-aliases' } });
  dir = mkdtempSync(join(tmpdir(), 'gannet-aliases-dump-'));
});
after(async () => {
  await node?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface AliasClient {
  indices: {
    create(params: Record<string, unknown>): Promise<Record<string, any>>;
    delete(params: Record<string, unknown>): Promise<Record<string, any>>;
    updateAliases(params: Record<string, unknown>): Promise<Record<string, any>>;
    putAlias(params: Record<string, unknown>): Promise<Record<string, any>>;
    getAlias(params?: Record<string, unknown>): Promise<Record<string, any>>;
    existsAlias(params: Record<string, unknown>): Promise<boolean>;
    deleteAlias(params: Record<string, unknown>): Promise<Record<string, any>>;
  };
  cat: { aliases(params?: Record<string, unknown>): Promise<any> };
  index(params: Record<string, unknown>): Promise<Record<string, any>>;
  count(params: Record<string, unknown>): Promise<Record<string, any>>;
  close(): Promise<void>;
}

const makers: Array<[string, string, () => AliasClient]> = [
  ['@elastic/elasticsearch 9.x', 'c9', () => new Client9({ node: node.url }) as unknown as AliasClient],
  ['@elastic/elasticsearch 8.x', 'c8', () => new Client8({ node: node.url }) as unknown as AliasClient],
];

for (const [label, prefix, make] of makers) {
  describe(label, () => {
    test('updateAliases, putAlias, getAlias, existsAlias, deleteAlias, cat.aliases, writes and counts through aliases', async () => {
      const client = make();
      const index = `${prefix}-books`;
      try {
        await client.indices.create({ index, settings: { number_of_replicas: 0 } });
        const updated = await client.indices.updateAliases({
          actions: [{ add: { index, alias: `${prefix}-all`, is_write_index: true } }, { add: { index, alias: `${prefix}-poetry`, filter: { term: { genre: 'poetry' } } } }],
        });
        assert.equal(updated.acknowledged, true);
        assert.equal(updated.errors, false);
        await client.index({ index: `${prefix}-all`, id: '1', document: { genre: 'poetry' }, refresh: true });
        await client.index({ index: `${prefix}-all`, id: '2', document: { genre: 'novel' }, refresh: true });
        assert.equal((await client.count({ index: `${prefix}-poetry` })).count, 1);
        assert.equal(await client.indices.existsAlias({ name: `${prefix}-poetry` }), true);
        assert.equal(await client.indices.existsAlias({ name: `${prefix}-none` }), false);
        assert.equal((await client.indices.putAlias({ index, name: `${prefix}-extra` })).acknowledged, true);
        const got = await client.indices.getAlias({ index });
        assert.deepEqual(got, {
          [index]: { aliases: { [`${prefix}-all`]: { is_write_index: true }, [`${prefix}-extra`]: {}, [`${prefix}-poetry`]: { filter: { term: { genre: 'poetry' } } } } },
        });
        const rows = await client.cat.aliases({ name: `${prefix}-*`, format: 'json' });
        assert.deepEqual(
          rows.map((row: Record<string, string>) => [row['alias'], row['index'], row['filter'], row['is_write_index']]),
          [
            [`${prefix}-all`, index, '-', 'true'],
            [`${prefix}-extra`, index, '-', '-'],
            [`${prefix}-poetry`, index, '*', '-'],
          ],
        );
        assert.equal((await client.indices.deleteAlias({ index, name: `${prefix}-extra` })).acknowledged, true);
        await assert.rejects(client.indices.getAlias({ name: `${prefix}-extra` }), (err: { meta?: { statusCode?: number } }) => err.meta?.statusCode === 404);
      } finally {
        await client.indices.delete({ index }).catch(() => undefined);
        await client.close();
      }
    });
  });
}

test('elasticdump --type=alias exports an index\'s aliases and imports them onto another node\'s index', async () => {
  await node.request('PUT', '/dump-alias-src', { body: { settings: { number_of_replicas: 0 }, aliases: { dump_a: {}, dump_b: { filter: { term: { k: 'v' } }, routing: '1' } } } });
  const file = join(dir, 'aliases.json');
  await elasticdump([`--input=${node.url}/dump-alias-src`, `--output=${file}`, '--type=alias']);
  const exported = readFileSync(file, 'utf8');
  assert.match(exported, /dump_a/);
  assert.match(exported, /dump_b/);

  // Import into an index of the same name on a fresh node (elasticdump replays the aliases it read).
  const target = await NodeProcess.start({ settings: { 'cluster.name': 'compat-aliases-target' } });
  try {
    await target.request('PUT', '/dump-alias-src', { body: { settings: { number_of_replicas: 0 } } });
    await elasticdump([`--input=${file}`, `--output=${target.url}/dump-alias-src`, '--type=alias']);
    const got = await target.request('GET', '/dump-alias-src/_alias');
    assert.deepEqual(got.body, {
      'dump-alias-src': { aliases: { dump_a: {}, dump_b: { filter: { term: { k: 'v' } }, index_routing: '1', search_routing: '1' } } },
    });
  } finally {
    await target.stop();
  }
});
