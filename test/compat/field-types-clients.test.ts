/**
 * Log-style data with ip, date_nanos and binary fields through the official JavaScript clients, unmodified
 * (9.x and 8.x as `es8`): the index is created with those types, the bulk helper loads it, and CIDR queries,
 * ip_range and terms aggregations, date_nanos sorting and range queries, and binary doc values come back as
 * the clients expect them. A failure is a Gannet compatibility bug.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'compat-field-types' } });
});
after(async () => {
  await node.stop();
});

const clients: Array<[string, () => Client9]> = [
  ['@elastic/elasticsearch 9.x', () => new Client9({ node: node.url })],
  ['@elastic/elasticsearch 8.x', () => new Client8({ node: node.url }) as unknown as Client9],
];

interface LogLine {
  client: string;
  '@timestamp': string;
  payload: string;
}

const LINES: LogLine[] = Array.from({ length: 40 }, (_, i) => ({
  client: i % 4 === 0 ? `2001:db8::${i.toString(16)}` : `10.1.${i % 3}.${i}`,
  '@timestamp': `2024-05-01T10:00:00.${String(i).padStart(9, '0')}Z`,
  payload: Buffer.from(`line ${i}`).toString('base64'),
}));

for (const [name, make] of clients) {
  describe(name, () => {
    test('create, bulk load, CIDR and range queries, ip_range and terms aggregations, nanosecond sorting, binary doc values', async () => {
      const client = make();
      const index = name.includes('9.x') ? 'logs9' : 'logs8';
      try {
        await client.indices.create({
          index,
          settings: { number_of_shards: 2, number_of_replicas: 0 },
          mappings: {
            properties: { client: { type: 'ip' }, '@timestamp': { type: 'date_nanos' }, payload: { type: 'binary', doc_values: true } },
          },
        });
        const mapping = await client.indices.getMapping({ index });
        assert.deepEqual(mapping[index]!.mappings.properties, {
          '@timestamp': { type: 'date_nanos' },
          client: { type: 'ip' },
          payload: { type: 'binary', doc_values: true },
        });
        const loaded = await client.helpers.bulk<LogLine>({ datasource: LINES, onDocument: () => ({ index: { _index: index } }), refreshOnCompletion: index });
        assert.equal(loaded.successful, LINES.length);

        const lan = await client.search({ index, query: { term: { client: '10.1.0.0/16' } }, size: 0, track_total_hits: true });
        assert.deepEqual(lan.hits.total, { value: 30, relation: 'eq' });
        const v6 = await client.count({ index, query: { terms: { client: ['2001:db8::/32'] } } });
        assert.equal(v6.count, 10);

        const window = await client.search<LogLine>({
          index,
          query: { range: { '@timestamp': { gt: '2024-05-01T10:00:00.000000010Z', lte: '2024-05-01T10:00:00.000000013Z' } } },
          sort: [{ '@timestamp': { order: 'asc', format: 'strict_date_optional_time_nanos' } }],
        });
        assert.deepEqual(
          window.hits.hits.map((hit) => hit.sort),
          [['2024-05-01T10:00:00.000000011Z'], ['2024-05-01T10:00:00.000000012Z'], ['2024-05-01T10:00:00.000000013Z']],
        );

        // `keyed` is an ES ip_range option the 9.x client's types leave out: passed as a plain object.
        const ipRange = { field: 'client', ranges: [{ mask: '10.1.0.0/24' }, { mask: '10.1.1.0/24' }, { mask: '2001:db8::/32' }], keyed: true };
        const aggs = await client.search({
          index,
          size: 0,
          aggs: {
            nets: { ip_range: ipRange },
            top: { terms: { field: 'client', size: 2, order: { _key: 'asc' } } },
          },
        });
        const nets = aggs.aggregations!['nets'] as { buckets: Record<string, { doc_count: number; from?: string; to?: string }> };
        assert.equal(nets.buckets['10.1.0.0/24']!.doc_count, 10);
        assert.equal(nets.buckets['10.1.1.0/24']!.doc_count, 10);
        assert.deepEqual(nets.buckets['2001:db8::/32'], { from: '2001:db8::', to: '2001:db9::', doc_count: 10 });
        const top = aggs.aggregations!['top'] as { buckets: Array<{ key: string }> };
        assert.deepEqual(top.buckets.map((bucket) => bucket.key), ['10.1.0.3', '10.1.0.6']);

        const blobs = await client.search({ index, query: { term: { client: '10.1.2.5' } }, docvalue_fields: ['payload'], _source: false });
        assert.deepEqual(blobs.hits.hits[0]!.fields, { payload: [Buffer.from('line 5').toString('base64')] });
      } finally {
        await client.indices.delete({ index }, { ignore: [404] });
        await client.close();
      }
    });
  });
}
