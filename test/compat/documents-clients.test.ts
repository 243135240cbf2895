/**
 * Index and document APIs through the official JavaScript clients, unmodified (9.x and 8.x as `es8`): index
 * creation, document CRUD, update, mget, the bulk helper, refresh, mappings, cat indices and stats. A failure is
 * a Gannet compatibility bug.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'compat-docs' } });
});
after(async () => {
  await node.stop();
});

const clients: Array<[string, () => Client9]> = [
  ['@elastic/elasticsearch 9.x', () => new Client9({ node: node.url })],
  ['@elastic/elasticsearch 8.x', () => new Client8({ node: node.url }) as unknown as Client9],
];

for (const [name, make] of clients) {
  describe(name, () => {
    test('index lifecycle, documents, bulk helper, stats', async () => {
      const client = make();
      const index = name.includes('9.x') ? 'books9' : 'books8';
      try {
        const created = await client.indices.create({ index, settings: { number_of_replicas: 0 }, mappings: { properties: { title: { type: 'text' } } } });
        assert.equal(created.acknowledged, true);
        assert.equal(await client.indices.exists({ index }), true);
        const indexed = await client.index({ index, id: '1', document: { title: 'Dune' }, refresh: true });
        assert.equal(indexed.result, 'created');
        const got = await client.get<{ title: string }>({ index, id: '1' });
        assert.equal(got._source?.title, 'Dune');
        const updated = await client.update({ index, id: '1', doc: { year: 1965 } });
        assert.equal(updated.result, 'updated');
        const bulk = await client.helpers.bulk({ datasource: [{ title: 'a' }, { title: 'b' }], onDocument: () => ({ index: { _index: index } }), refreshOnCompletion: true });
        assert.equal(bulk.successful, 2);
        assert.equal(bulk.failed, 0);
        const mget = await client.mget({ index, ids: ['1', 'missing'] });
        assert.equal(mget.docs.length, 2);
        assert.equal(await client.exists({ index, id: 'missing' }), false);
        const mapping = await client.indices.getMapping({ index });
        assert.deepEqual(Object.keys(mapping[index]!.mappings.properties!).sort(), ['title', 'year']);
        const cat = await client.cat.indices({ index, format: 'json' });
        assert.equal(cat[0]!['docs.count'], '3');
        const stats = await client.indices.stats({ index, metric: 'docs' });
        assert.equal(stats._all.primaries!.docs!.count, 3);
        assert.equal((await client.delete({ index, id: '1' })).result, 'deleted');
        await assert.rejects(client.get({ index, id: '1' }), (err: { meta?: { statusCode?: number } }) => err.meta?.statusCode === 404);
        assert.equal((await client.indices.delete({ index })).acknowledged, true);
      } finally {
        await client.close();
      }
    });
  });
}
