/**
 * Deleting through an alias and with wildcards, through the unmodified official JavaScript clients (9.x and 8.x):
 * `indices.delete` of an alias is ES 8's 400 and leaves the index alone; wildcards are refused while
 * `action.destructive_requires_name` holds, and once lifted expand to indices only (`allow_no_indices: false` 404).
 * `indices.addBlock` through an alias blocks the indices behind it and refuses wildcards the same way.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client as Client9 } from '@elastic/elasticsearch';
import { Client as Client8 } from 'es8';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'cluster.name': 'compat-destructive' } });
});
after(async () => {
  await node?.stop();
});

interface DeleteClient {
  indices: {
    create(params: Record<string, unknown>): Promise<Record<string, any>>;
    delete(params: Record<string, unknown>): Promise<Record<string, any>>;
    exists(params: Record<string, unknown>): Promise<boolean>;
    addBlock(params: Record<string, unknown>): Promise<Record<string, any>>;
  };
  index(params: Record<string, unknown>): Promise<Record<string, any>>;
  cluster: { putSettings(params: Record<string, unknown>): Promise<Record<string, any>> };
  close(): Promise<void>;
}

const makers: Array<[string, string, () => DeleteClient]> = [
  ['@elastic/elasticsearch 9.x', 'c9', () => new Client9({ node: node.url }) as unknown as DeleteClient],
  ['@elastic/elasticsearch 8.x', 'c8', () => new Client8({ node: node.url }) as unknown as DeleteClient],
];

function rejectedWith(status: number, type: string, reason: string): (err: any) => boolean {
  return (err: any) => {
    assert.equal(err.meta?.statusCode, status);
    assert.equal(err.meta?.body?.error?.type, type);
    assert.equal(err.meta?.body?.error?.reason, reason);
    return true;
  };
}

for (const [label, prefix, make] of makers) {
  describe(label, () => {
    test('indices.delete of an alias or a wildcard never removes the index behind an alias', async () => {
      const client = make();
      const index = `${prefix}-orders-v1`;
      const alias = `${prefix}-orders`;
      try {
        await client.indices.create({ index, settings: { number_of_replicas: 0 }, aliases: { [alias]: {} } });
        await assert.rejects(
          client.indices.delete({ index: alias }),
          rejectedWith(400, 'illegal_argument_exception', `The provided expression [${alias}] matches an alias, specify the corresponding concrete indices instead.`),
        );
        await assert.rejects(client.indices.delete({ index: `${prefix}-orders*` }), rejectedWith(400, 'illegal_argument_exception', 'Wildcard expressions or all indices are not allowed'));
        assert.equal(await client.indices.exists({ index }), true);

        await client.cluster.putSettings({ transient: { 'action.destructive_requires_name': false } });
        try {
          await assert.rejects(
            // `-*ders` matches the alias only.
            client.indices.delete({ index: `${prefix}-*ders`, allow_no_indices: false }),
            rejectedWith(404, 'index_not_found_exception', `no such index [${prefix}-*ders]`),
          );
          // The pattern matches the index itself: that one is deleted, by its own name.
          assert.deepEqual(await client.indices.delete({ index: `${prefix}-orders-*` }), { acknowledged: true });
          assert.equal(await client.indices.exists({ index }), false);
        } finally {
          await client.cluster.putSettings({ transient: { 'action.destructive_requires_name': null } });
        }
      } finally {
        await client.close();
      }
    });

    test('indices.addBlock through an alias blocks the index behind it; a wildcard is refused', async () => {
      const client = make();
      const index = `${prefix}-logs-v1`;
      const alias = `${prefix}-logs`;
      try {
        await client.indices.create({ index, settings: { number_of_replicas: 0 }, aliases: { [alias]: {} } });
        await assert.rejects(client.indices.addBlock({ index: `${prefix}-logs*`, block: 'write' }), rejectedWith(400, 'illegal_argument_exception', 'Wildcard expressions or all indices are not allowed'));
        assert.deepEqual(await client.indices.addBlock({ index: alias, block: 'write' }), { acknowledged: true, shards_acknowledged: true, indices: [{ name: index, blocked: true }] });
        await assert.rejects(
          client.index({ index, document: { message: 'refused' } }),
          rejectedWith(403, 'cluster_block_exception', `index [${index}] blocked by: [FORBIDDEN/8/index write (api)];`),
        );
      } finally {
        await client.indices.delete({ index }).catch(() => undefined);
        await client.close();
      }
    });
  });
}
