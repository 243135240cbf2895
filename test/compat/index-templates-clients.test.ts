/**
 * Index templates through unmodified clients: the official JavaScript clients (9.x and the 8.x alias `es8`) on
 * `indices.putIndexTemplate`, `getIndexTemplate`, `existsIndexTemplate`, `simulateIndexTemplate`,
 * `cluster.putComponentTemplate`, `getComponentTemplate`, `indices.putTemplate`, `getTemplate`, `existsTemplate`
 * and `cat.templates`; and elasticdump's `--type=template`, `--type=component_template` and
 * `--type=index_template` export to a file and import back.
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
  node = await NodeProcess.start({ settings: { 'node.name': 'compat-templates' } });
  dir = mkdtempSync(join(tmpdir(), 'gannet-templates-'));
});
after(async () => {
  await node?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/* eslint-disable @typescript-eslint/no-explicit-any */
type Call = (params?: Record<string, unknown>) => Promise<any>;
interface TemplateClient {
  indices: Record<'putIndexTemplate' | 'getIndexTemplate' | 'existsIndexTemplate' | 'deleteIndexTemplate' | 'simulateIndexTemplate' | 'putTemplate' | 'getTemplate' | 'existsTemplate' | 'deleteTemplate' | 'create' | 'getMapping' | 'delete', Call>;
  cluster: Record<'putComponentTemplate' | 'getComponentTemplate' | 'deleteComponentTemplate', Call>;
  cat: Record<'templates', Call>;
  index: Call;
  close(): Promise<void>;
}

const makers: Array<[string, string, () => TemplateClient]> = [
  ['@elastic/elasticsearch 9.x', 'c9', () => new Client9({ node: node.url }) as unknown as TemplateClient],
  ['@elastic/elasticsearch 8.x', 'c8', () => new Client8({ node: node.url }) as unknown as TemplateClient],
];

for (const [label, prefix, make] of makers) {
  describe(label, () => {
    test('component, composable and legacy templates, and an index created from them', async () => {
      const client = make();
      try {
        assert.deepEqual(
          await client.cluster.putComponentTemplate({ name: `${prefix}-ct`, template: { mappings: { properties: { host: { type: 'keyword' } } } }, version: 1 }),
          { acknowledged: true },
        );
        await client.indices.putIndexTemplate({
          name: `${prefix}-it`,
          index_patterns: [`${prefix}-logs-*`],
          composed_of: [`${prefix}-ct`],
          priority: 7,
          template: { settings: { number_of_shards: 2, number_of_replicas: 0 } },
          _meta: { owner: 'compat' },
        });
        const got = await client.indices.getIndexTemplate({ name: `${prefix}-it` });
        assert.equal(got.index_templates[0].name, `${prefix}-it`);
        assert.deepEqual(got.index_templates[0].index_template.composed_of, [`${prefix}-ct`]);
        assert.equal(got.index_templates[0].index_template.priority, 7);
        assert.equal(await client.indices.existsIndexTemplate({ name: `${prefix}-it` }), true);
        assert.equal(await client.indices.existsIndexTemplate({ name: `${prefix}-none` }), false);
        const component = await client.cluster.getComponentTemplate({ name: `${prefix}-ct` });
        assert.equal(component.component_templates[0].component_template.version, 1);
        const simulated = await client.indices.simulateIndexTemplate({ name: `${prefix}-logs-1` });
        assert.equal(simulated.template.settings.index.number_of_shards, '2');
        assert.deepEqual(simulated.template.mappings.properties.host, { type: 'keyword' });

        await client.index({ index: `${prefix}-logs-1`, id: '1', document: { host: 'a b' }, refresh: true });
        const mapping = await client.indices.getMapping({ index: `${prefix}-logs-1` });
        assert.deepEqual(mapping[`${prefix}-logs-1`].mappings.properties.host, { type: 'keyword' });

        await client.indices.putTemplate({ name: `${prefix}-legacy`, index_patterns: [`${prefix}-old-*`], order: 2, settings: { number_of_shards: 1 } });
        const legacy = await client.indices.getTemplate({ name: `${prefix}-legacy` });
        assert.deepEqual(legacy[`${prefix}-legacy`].index_patterns, [`${prefix}-old-*`]);
        assert.equal(legacy[`${prefix}-legacy`].order, 2);
        assert.equal(await client.indices.existsTemplate({ name: `${prefix}-legacy` }), true);
        const cat = await client.cat.templates({ name: `${prefix}-*`, format: 'json' });
        assert.deepEqual(
          (cat as Array<Record<string, string>>).map((row) => row['name']).sort(),
          [`${prefix}-it`, `${prefix}-legacy`],
        );

        await client.indices.delete({ index: `${prefix}-logs-1` });
        await client.indices.deleteIndexTemplate({ name: `${prefix}-it` });
        await client.cluster.deleteComponentTemplate({ name: `${prefix}-ct` });
        await client.indices.deleteTemplate({ name: `${prefix}-legacy` });
        await assert.rejects(client.indices.getIndexTemplate({ name: `${prefix}-it` }), (err: any) => err.meta?.statusCode === 404);
      } finally {
        await client.close();
      }
    });
  });
}

test('elasticdump exports templates to a file and imports them back', async () => {
  const put = async (path: string, body: unknown) => {
    const res = await node.request('PUT', path, { body });
    assert.equal(res.status, 200, res.text);
  };
  await put('/_template/dump-legacy', { index_patterns: ['dumpl-*'], order: 3, settings: { number_of_shards: 1 }, mappings: { properties: { a: { type: 'keyword' } } }, aliases: { dump_alias: {} } });
  await put('/_component_template/dump-ct', { template: { settings: { number_of_replicas: 0 } }, version: 4 });
  await put('/_index_template/dump-it', { index_patterns: ['dumpc-*'], composed_of: ['dump-ct'], priority: 9, template: { mappings: { properties: { b: { type: 'long' } } } } });
  const before = {
    legacy: (await node.request('GET', '/_template/dump-legacy')).body,
    component: (await node.request('GET', '/_component_template/dump-ct')).body,
    composable: (await node.request('GET', '/_index_template/dump-it')).body,
  };

  const url = node.url;
  for (const type of ['template', 'component_template', 'index_template']) {
    await elasticdump([`--input=${url}/dump-*`, `--output=${join(dir, `${type}.json`)}`, `--type=${type}`]);
  }
  // elasticdump writes the GET body as one JSON string line.
  let exported: unknown = JSON.parse(readFileSync(join(dir, 'template.json'), 'utf8'));
  if (typeof exported === 'string') exported = JSON.parse(exported);
  assert.ok(exported !== null && typeof exported === 'object');
  assert.deepEqual(Object.keys(exported), ['dump-legacy']);

  assert.equal((await node.request('DELETE', '/_index_template/dump-it')).status, 200);
  assert.equal((await node.request('DELETE', '/_component_template/dump-ct')).status, 200);
  assert.equal((await node.request('DELETE', '/_template/dump-legacy')).status, 200);

  // Components first: the index template refers to them.
  for (const type of ['template', 'component_template', 'index_template']) {
    await elasticdump([`--input=${join(dir, `${type}.json`)}`, `--output=${url}/dump`, `--type=${type}`]);
  }
  assert.deepEqual((await node.request('GET', '/_template/dump-legacy')).body, before.legacy);
  assert.deepEqual((await node.request('GET', '/_component_template/dump-ct')).body, before.component);
  assert.deepEqual((await node.request('GET', '/_index_template/dump-it')).body, before.composable);
});
