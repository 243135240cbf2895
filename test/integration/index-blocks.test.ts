/**
 * `PUT /{index}/_block/{block}` over HTTP against a real node, as ES 8.19's add index block API answers
 * (indices.blocks/10_basic.yml, TransportAddIndexBlockAction, MetadataIndexStateService.addIndexBlock): the block
 * is enforced, an alias resolves to its indices, wildcards obey `action.destructive_requires_name`, an index that
 * already has the block is left out, and ES's messages for an unknown block and a metadata-blocked index.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { assertError } from '../helpers/es-error-assertions.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'index-blocks-node' } });
});
after(async () => {
  await node.stop();
});

async function createIndex(name: string, body: Record<string, unknown> = {}): Promise<void> {
  const res = await node.request('PUT', `/${name}`, { body: { settings: { number_of_replicas: 0 }, ...body } });
  assert.equal(res.status, 200, res.text);
}

test('a write block refuses writes, reads still work, and the block is an index setting', async () => {
  await createIndex('blocked_writes');
  const added = await node.request('PUT', '/blocked_writes/_block/write');
  assert.equal(added.status, 200, added.text);
  assert.deepEqual(added.body, { acknowledged: true, shards_acknowledged: true, indices: [{ name: 'blocked_writes', blocked: true }] });
  assertError(
    await node.request('PUT', '/blocked_writes/_doc/1', { body: { foo: 'bar' } }),
    403,
    'cluster_block_exception',
    'index [blocked_writes] blocked by: [FORBIDDEN/8/index write (api)];',
  );
  assert.equal((await node.request('GET', '/blocked_writes/_search')).status, 200);
  const settings = await node.request('GET', '/blocked_writes/_settings?flat_settings=true');
  assert.equal(settings.body.blocked_writes.settings['index.blocks.write'], 'true');
  // Removing it through the setting lets writes in again (the YAML test's remove_block is ES 9.1).
  await node.request('PUT', '/blocked_writes/_settings', { body: { 'index.blocks.write': false } });
  assert.equal((await node.request('PUT', '/blocked_writes/_doc/1', { body: { foo: 'bar' } })).status, 201);
});

test('an index that already has the block is left out: AddIndexBlockResponse.EMPTY', async () => {
  await createIndex('twice');
  await node.request('PUT', '/twice/_block/read_only');
  const again = await node.request('PUT', '/twice/_block/read_only');
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body, { acknowledged: true, shards_acknowledged: false, indices: [] });
});

test('an alias resolves to its indices; a wildcard is refused while destructive_requires_name holds', async () => {
  await createIndex('aliased_a', { aliases: { blocks_alias: {} } });
  await createIndex('aliased_b', { aliases: { blocks_alias: {} } });
  const added = await node.request('PUT', '/blocks_alias/_block/write');
  assert.equal(added.status, 200, added.text);
  assert.deepEqual(added.body.indices, [
    { name: 'aliased_a', blocked: true },
    { name: 'aliased_b', blocked: true },
  ]);
  for (const expression of ['aliased_*', '_all', 'aliased_a,-aliased_b*']) {
    assertError(await node.request('PUT', `/${expression}/_block/read`), 400, 'illegal_argument_exception', 'Wildcard expressions or all indices are not allowed');
  }
  await node.request('PUT', '/_cluster/settings', { body: { transient: { 'action.destructive_requires_name': false } } });
  try {
    await node.request('POST', '/aliased_b/_close');
    // strictExpandOpen: the wildcard reaches open indices only.
    const wild = await node.request('PUT', '/aliased_*/_block/read');
    assert.equal(wild.status, 200, wild.text);
    assert.deepEqual(wild.body.indices, [{ name: 'aliased_a', blocked: true }]);
  } finally {
    await node.request('PUT', '/_cluster/settings', { body: { transient: { 'action.destructive_requires_name': null } } });
  }
});

test('unknown block, missing index and a metadata-blocked index answer as ES', async () => {
  await createIndex('meta_blocked');
  assertError(await node.request('PUT', '/meta_blocked/_block/readonly'), 400, 'illegal_argument_exception', 'No block found with name readonly');
  const missing = await node.request('PUT', '/no_such_index/_block/write');
  assert.equal(missing.status, 404, missing.text);
  assert.equal(missing.body.error.type, 'index_not_found_exception');
  assert.equal((await node.request('PUT', '/no_such_index/_block/write?ignore_unavailable=true')).status, 200);
  assert.equal((await node.request('PUT', '/meta_blocked/_block/metadata')).status, 200);
  // TransportAddIndexBlockAction.checkBlock: read and write blocks need metadata writes.
  assertError(
    await node.request('PUT', '/meta_blocked/_block/write'),
    403,
    'cluster_block_exception',
    'index [meta_blocked] blocked by: [FORBIDDEN/9/index metadata (api)];',
  );
  // A block that itself stops metadata writes may still be added.
  assert.equal((await node.request('PUT', '/meta_blocked/_block/read_only')).status, 200);
});
