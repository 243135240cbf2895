/**
 * The search APIs through the official JavaScript clients, unmodified (9.x and 8.x as `es8`): the bulk helper
 * to load, search with aggregations, count, the scroll helpers (which also clear their scroll), msearch,
 * point in time, explain and terms enum. A failure is a Gannet compatibility bug.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'compat-search' } });
});
after(async () => {
  await node.stop();
});

const clients: Array<[string, () => Client9]> = [
  ['@elastic/elasticsearch 9.x', () => new Client9({ node: node.url })],
  ['@elastic/elasticsearch 8.x', () => new Client8({ node: node.url }) as unknown as Client9],
];

interface Book {
  title: string;
  year: number;
  genre: string;
}

const GENRES = ['sf', 'fantasy', 'crime'];
const BOOKS: Book[] = Array.from({ length: 45 }, (_, i) => ({ title: `book ${i} ${i % 2 === 0 ? 'space' : 'dragon'}`, year: 1950 + i, genre: GENRES[i % 3]! }));

for (const [name, make] of clients) {
  describe(name, () => {
    test('bulk helper, search, count, scroll helpers, msearch, point in time, explain, terms enum', async () => {
      const client = make();
      const index = name.includes('9.x') ? 'library9' : 'library8';
      try {
        await client.indices.create({
          index,
          settings: { number_of_shards: 2, number_of_replicas: 0 },
          mappings: { properties: { title: { type: 'text' }, year: { type: 'integer' }, genre: { type: 'keyword' } } },
        });
        const loaded = await client.helpers.bulk<Book>({ datasource: BOOKS, onDocument: (doc) => ({ index: { _index: index, _id: String(doc.year) } }), refreshOnCompletion: index });
        assert.equal(loaded.successful, BOOKS.length);

        const result = await client.search<Book>({
          index,
          query: { match: { title: 'space' } },
          size: 5,
          sort: [{ year: 'desc' }],
          aggs: { genres: { terms: { field: 'genre' } } },
        });
        assert.equal((result.hits.total as { value: number }).value, 23);
        assert.deepEqual(
          result.hits.hits.map((hit) => hit._source?.year),
          [1994, 1992, 1990, 1988, 1986],
        );
        const genres = result.aggregations?.['genres'] as { buckets: Array<{ key: string; doc_count: number }> };
        assert.equal(genres.buckets.reduce((sum, bucket) => sum + bucket.doc_count, 0), 23);

        const counted = await client.count({ index, query: { term: { genre: 'sf' } } });
        assert.equal(counted.count, 15);

        const scrolled: number[] = [];
        for await (const doc of client.helpers.scrollDocuments<Book>({ index, size: 7, query: { match_all: {} } })) scrolled.push(doc.year);
        assert.equal(scrolled.length, BOOKS.length);
        assert.equal(new Set(scrolled).size, BOOKS.length);
        let pages = 0;
        for await (const page of client.helpers.scrollSearch<Book>({ index, size: 20, sort: ['year'] })) {
          pages++;
          assert.ok(page.documents.length <= 20);
        }
        assert.equal(pages, 3);
        const stats = await client.indices.stats({ index, metric: 'search' });
        assert.equal(stats._all.total?.search?.open_contexts, 0, 'the helpers cleared their scrolls');

        const multi = await client.msearch<Book>({ searches: [{ index }, { query: { term: { genre: 'crime' } }, size: 0 }, { index: 'missing-index' }, { query: { match_all: {} } }] });
        assert.equal((multi.responses[0] as { hits: { total: { value: number } } }).hits.total.value, 15);
        assert.equal((multi.responses[1] as { status: number }).status, 404);

        const pit = await client.openPointInTime({ index, keep_alive: '1m' });
        const pitPage = await client.search<Book>({ pit: { id: pit.id, keep_alive: '1m' }, size: 3, sort: [{ year: 'asc' }] });
        assert.deepEqual(
          pitPage.hits.hits.map((hit) => hit._source?.year),
          [1950, 1951, 1952],
        );
        assert.equal((await client.closePointInTime({ id: pit.id })).num_freed, 2);

        const explained = await client.explain({ index, id: '1960', query: { match: { title: 'space' } } });
        assert.equal(explained.matched, true);
        assert.ok(explained.explanation!.value > 0);
        // Kibana's filter suggestions: the terms of a keyword field that start with a prefix.
        const suggested = await client.termsEnum({ index, field: 'genre', string: 'f' });
        assert.deepEqual(suggested, { _shards: { total: 2, successful: 2, failed: 0 }, terms: ['fantasy'], complete: true });
        const allGenres = await client.termsEnum({ index, field: 'genre', size: 2, case_insensitive: true, string: 'C' });
        assert.deepEqual(allGenres.terms, ['crime']);

        await assert.rejects(
          client.search({ index, query: { term: { year: 'not-a-year' } } }),
          (err: { meta?: { statusCode?: number; body?: { error?: { type?: string } } } }) => err.meta?.statusCode === 400 && err.meta.body?.error?.type === 'search_phase_execution_exception',
        );
      } finally {
        await client.indices.delete({ index }).catch(() => undefined);
        await client.close();
      }
    });
  });
}
