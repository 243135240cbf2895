import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { NodeProcess } from '../helpers/node-process.js';

test('templates survive a restart and still apply to new indices', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true });
  const dataPath = node.dataPath;
  try {
    const put = async (path: string, body: unknown) => {
      const res = await node.request('PUT', path, { body });
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    };
    await put('/_component_template/keep-ct', { template: { mappings: { properties: { tag: { type: 'keyword' } } } }, version: 1 });
    await put('/_index_template/keep-it', { index_patterns: ['kept-*'], composed_of: ['keep-ct'], priority: 3, template: { settings: { number_of_shards: 2 } } });
    await put('/_template/keep-legacy', { index_patterns: ['old-*'], order: 1, settings: { number_of_shards: 3 } });
    await node.stop();

    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true });
    const composable = await node.request('GET', '/_index_template/keep-it');
    assert.equal(composable.status, 200);
    assert.deepEqual(composable.body.index_templates[0].index_template.composed_of, ['keep-ct']);
    assert.equal((await node.request('GET', '/_component_template/keep-ct')).body.component_templates[0].component_template.version, 1);
    assert.deepEqual((await node.request('GET', '/_template/keep-legacy')).body['keep-legacy'].index_patterns, ['old-*']);

    const write = await node.request('PUT', '/kept-1/_doc/1?refresh=true', { body: { tag: 'a b' } });
    assert.equal(write.status, 201, JSON.stringify(write.body));
    const settings = await node.request('GET', '/kept-1/_settings?flat_settings=true');
    assert.equal(settings.body['kept-1'].settings['index.number_of_shards'], '2');
    const mapping = await node.request('GET', '/kept-1/_mapping');
    assert.deepEqual(mapping.body['kept-1'].mappings.properties.tag, { type: 'keyword' });
    assert.equal((await node.request('PUT', '/old-1')).status, 200);
    assert.equal((await node.request('GET', '/old-1/_settings?flat_settings=true')).body['old-1'].settings['index.number_of_shards'], '3');
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});
