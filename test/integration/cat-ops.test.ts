/** `_cat/master`, `_cat/plugins`, `_cat/fielddata`, `_cat/pending_tasks` and `_cluster/pending_tasks` on one node. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

test('cat master, plugins, fielddata and pending tasks with ES columns', async () => {
  const node = await NodeProcess.start({ settings: { 'node.name': 'cat-ops-node' } });
  try {
    // The elected master: this node when it is alone; in cluster mode (GANNET_TEST_CLUSTER) another node.
    const state = await node.request('GET', '/_cluster/state/master_node,nodes');
    const masterId: string = state.body.master_node;
    const masterName: string = state.body.nodes[masterId].name;
    if (node.peers.length === 0) assert.equal(masterId, node.nodeId);
    const master = await node.request('GET', '/_cat/master?v');
    assert.equal(master.status, 200);
    const [header, row] = master.text.trimEnd().split('\n');
    assert.match(header!, /^id\s+host\s+ip\s+node$/);
    assert.match(row!, new RegExp(`^${masterId}\\s+\\S+\\s+127\\.0\\.0\\.1\\s+${masterName}$`));
    const masterJson = await node.request('GET', '/_cat/master?format=json&h=id,n');
    assert.deepEqual(masterJson.body, [{ id: masterId, n: masterName }]);

    const plugins = await node.request('GET', '/_cat/plugins?v');
    assert.equal(plugins.text, 'name component version\n');
    assert.deepEqual((await node.request('GET', '/_cat/plugins?format=json')).body, []);
    const pluginsHelp = await node.request('GET', '/_cat/plugins?help');
    assert.match(pluginsHelp.text, /^type\s+\|\s*t\s+\|\s*plugin type\s*$/m);

    assert.equal((await node.request('GET', '/_cat/fielddata?v')).text, 'id host ip node field size\n');
    assert.equal((await node.request('GET', '/_cat/fielddata/title,body?v&h=field,size')).text, 'field size\n');

    assert.equal((await node.request('GET', '/_cat/pending_tasks?v')).text, 'insertOrder timeInQueue priority source\n');
    const pending = await node.request('GET', '/_cluster/pending_tasks');
    assert.equal(pending.text, '{"tasks":[]}');

    const root = await node.request('GET', '/_cat');
    const lines = root.text.split('\n');
    for (const path of ['/_cat/master', '/_cat/pending_tasks', '/_cat/plugins', '/_cat/fielddata', '/_cat/fielddata/{fields}']) assert.ok(lines.includes(path), path);
    assert.ok(lines.indexOf('/_cat/shards') < lines.indexOf('/_cat/master') && lines.indexOf('/_cat/master') < lines.indexOf('/_cat/nodes'));
    assert.ok(lines.indexOf('/_cat/health') < lines.indexOf('/_cat/pending_tasks'));
    assert.ok(lines.indexOf('/_cat/plugins') < lines.indexOf('/_cat/fielddata'));
  } finally {
    await node.stop();
  }
});
