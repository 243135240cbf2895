import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start();
});
after(async () => {
  await node.stop();
});

async function ok(method: string, path: string, body?: unknown) {
  const res = await node.request(method, path, body === undefined ? {} : { body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

function reasonOf(body: unknown): string {
  return (body as { error: { reason: string } }).error.reason;
}

function typeOf(body: unknown): string {
  return (body as { error: { type: string } }).error.type;
}

test('composable template CRUD answers as the ES YAML tests expect', async () => {
  const put = await ok('PUT', '/_index_template/crud', {
    index_patterns: 'crud-*',
    template: { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { field: { type: 'keyword' } } } },
  });
  assert.deepEqual(put.body, { acknowledged: true });
  const get = await ok('GET', '/_index_template/crud');
  assert.deepEqual(get.body, {
    index_templates: [
      {
        name: 'crud',
        index_template: {
          index_patterns: ['crud-*'],
          template: { settings: { index: { number_of_shards: '1', number_of_replicas: '0' } }, mappings: { properties: { field: { type: 'keyword' } } } },
          composed_of: [],
        },
      },
    ],
  });
  const flat = await ok('GET', '/_index_template/crud?flat_settings=true');
  assert.deepEqual(flat.body.index_templates[0].index_template.template.settings, { 'index.number_of_shards': '1', 'index.number_of_replicas': '0' });
  assert.equal((await node.request('HEAD', '/_index_template/crud')).status, 200);
  assert.equal((await node.request('HEAD', '/_index_template/nope')).status, 404);

  const missing = await node.request('GET', '/_index_template/does-not-exist');
  assert.equal(missing.status, 404);
  assert.equal(typeOf(missing.body), 'resource_not_found_exception');
  assert.equal(reasonOf(missing.body), 'index template matching [does-not-exist] not found');
  const wildcard = await node.request('GET', '/_index_template/non-matching-wildcard*');
  assert.equal(wildcard.status, 404);
  assert.deepEqual(wildcard.body, { index_templates: [] });
  const comma = await node.request('GET', '/_index_template/a,b');
  assert.equal(comma.status, 400);

  await ok('DELETE', '/_index_template/crud');
  const gone = await node.request('DELETE', '/_index_template/crud');
  assert.equal(gone.status, 404);
  assert.equal(typeOf(gone.body), 'index_template_missing_exception');
  assert.equal(reasonOf(gone.body), 'index_template [crud] missing');
});

test('overlapping patterns at the same priority are refused with ES message; another priority is fine', async () => {
  await ok('PUT', '/_index_template/ov-a', { index_patterns: ['ov-*'], priority: 5 });
  const clash = await node.request('PUT', '/_index_template/ov-b', { body: { index_patterns: ['ov-x*', 'other'], priority: 5 } });
  assert.equal(clash.status, 400);
  assert.equal(
    reasonOf(clash.body),
    'index template [ov-b] has index patterns [ov-x*, other] matching patterns from existing templates [ov-a] with patterns (ov-a => [ov-*]) ' +
      'that have the same priority [5], multiple index templates may not match during index creation, please use a different priority',
  );
  await ok('PUT', '/_index_template/ov-b', { index_patterns: ['ov-x*'], priority: 6 });
  const exists = await node.request('PUT', '/_index_template/ov-b?create=true', { body: { index_patterns: ['ov-x*'], priority: 6 } });
  assert.equal(exists.status, 400);
  assert.equal(reasonOf(exists.body), 'index template [ov-b] already exists');
  await ok('DELETE', '/_index_template/ov-a,ov-b');
});

test('validation: missing component templates, bad names, data streams, unknown fields', async () => {
  const missing = await node.request('PUT', '/_index_template/needs', { body: { index_patterns: ['needs-*'], composed_of: ['nope1', 'nope2'] } });
  assert.equal(missing.status, 400);
  assert.equal(typeOf(missing.body), 'invalid_index_template_exception');
  assert.equal(reasonOf(missing.body), 'index_template [needs] invalid, cause [index template [needs] specifies component templates [nope1, nope2] that do not exist]');

  const badName = await node.request('PUT', '/_index_template/Bad', { body: { index_patterns: ['_x', 'a b'] } });
  assert.equal(badName.status, 400);
  assert.equal(
    reasonOf(badName.body),
    "index_template [Bad] invalid, cause [Validation Failed: 1: name must be lower cased;2: index_pattern [_x] must not start with '_';3: index_patterns [a b] must not contain a space;4: index_pattern [a b] must not contain the following characters [ , \", *, \\, <, |, ,, >, /, ?];]",
  );

  const dataStream = await node.request('PUT', '/_index_template/ds', { body: { index_patterns: ['logs-*'], data_stream: {} } });
  assert.equal(dataStream.status, 400);
  assert.equal(typeOf(dataStream.body), 'illegal_argument_exception');
  assert.match(reasonOf(dataStream.body), /data streams are not supported/);

  const noPatterns = await node.request('PUT', '/_index_template/nopat', { body: { priority: 1 } });
  assert.equal(noPatterns.status, 400);
  assert.equal(typeOf(noPatterns.body), 'illegal_argument_exception');
  assert.equal(reasonOf(noPatterns.body), 'Required [index_patterns]');

  const unknown = await node.request('PUT', '/_index_template/unk', { body: { index_patterns: ['unk-*'], bogus: 1 } });
  assert.equal(unknown.status, 400);
  assert.equal(reasonOf(unknown.body), '[index_template] unknown field [bogus]');

  const badSetting = await node.request('PUT', '/_index_template/bad-setting', { body: { index_patterns: ['bs-*'], template: { settings: { 'index.nope': 1 } } } });
  assert.equal(badSetting.status, 400);
  assert.match(reasonOf(badSetting.body), /^index_template \[bad-setting\] invalid, cause \[Validation Failed: 1: unknown setting \[index.nope\]/);

  const badAlias = await node.request('PUT', '/_index_template/bad-alias', { body: { index_patterns: ['ba-*'], template: { aliases: { _nope: {} } } } });
  assert.equal(badAlias.status, 400);
  assert.equal(typeOf(badAlias.body), 'invalid_alias_name_exception');
  const aliasIsPattern = await node.request('PUT', '/_index_template/alias-pattern', { body: { index_patterns: ['ap', 'ap-*'], template: { aliases: { ap: {} } } } });
  assert.equal(reasonOf(aliasIsPattern.body), 'alias [ap] cannot be the same as any pattern in [ap, ap-*]');

  const globalHidden = await node.request('PUT', '/_index_template/global', { body: { index_patterns: ['*'], template: { settings: { 'index.hidden': true } } } });
  assert.equal(globalHidden.status, 400);
  assert.equal(reasonOf(globalHidden.body), 'index_template [global] invalid, cause [global composable templates may not specify the setting index.hidden]');

  const badMapping = await node.request('PUT', '/_index_template/bad-mapping', { body: { index_patterns: ['bm-*'], template: { mappings: { properties: { f: { type: 'no_such_type' } } } } } });
  assert.equal(badMapping.status, 400);
  assert.equal(reasonOf(badMapping.body), 'composable template [bad-mapping] template after composition is invalid');
});

test('component templates: CRUD, composition order, and in-use protection', async () => {
  await ok('PUT', '/_component_template/ct-settings', {
    template: { settings: { number_of_shards: 2, number_of_replicas: 0 }, aliases: { ct_alias: {} } },
    version: 2,
    _meta: { foo: 'bar', baz: { eggplant: true } },
  });
  await ok('PUT', '/_component_template/ct-mappings', {
    template: { settings: { number_of_shards: 3 }, mappings: { properties: { a: { type: 'keyword' }, obj: { properties: { x: { type: 'long' } } } } } },
  });
  const get = await ok('GET', '/_component_template/ct-settings');
  assert.deepEqual(get.body, {
    component_templates: [
      {
        name: 'ct-settings',
        component_template: {
          template: { settings: { index: { number_of_shards: '2', number_of_replicas: '0' } }, aliases: { ct_alias: {} } },
          version: 2,
          _meta: { foo: 'bar', baz: { eggplant: true } },
        },
      },
    ],
  });
  const missing = await node.request('GET', '/_component_template/nope');
  assert.equal(missing.status, 404);
  assert.equal(reasonOf(missing.body), 'component template matching [nope] not found');

  await ok('PUT', '/_index_template/composed', {
    index_patterns: ['composed-*'],
    composed_of: ['ct-settings', 'ct-mappings'],
    priority: 10,
    template: { mappings: { properties: { obj: { properties: { y: { type: 'keyword' } } } } } },
  });
  const inUse = await node.request('DELETE', '/_component_template/ct-settings');
  assert.equal(inUse.status, 400);
  assert.equal(reasonOf(inUse.body), 'component templates [ct-settings] cannot be removed as they are still in use by index templates [composed]');

  // The request's own settings win; mappings merge deeply; the later component's shard count wins over the earlier.
  await ok('PUT', '/composed-1', { settings: { number_of_replicas: 0, refresh_interval: '5s' }, mappings: { properties: { b: { type: 'long' } } } });
  const settings = await ok('GET', '/composed-1/_settings?flat_settings=true');
  const indexSettings = settings.body['composed-1'].settings;
  assert.equal(indexSettings['index.number_of_shards'], '3');
  assert.equal(indexSettings['index.number_of_replicas'], '0');
  assert.equal(indexSettings['index.refresh_interval'], '5s');
  const mapping = await ok('GET', '/composed-1/_mapping');
  assert.deepEqual(mapping.body['composed-1'].mappings.properties, {
    a: { type: 'keyword' },
    b: { type: 'long' },
    obj: { properties: { x: { type: 'long' }, y: { type: 'keyword' } } },
  });
  const aliases = await ok('GET', '/composed-1');
  assert.deepEqual(Object.keys(aliases.body['composed-1'].aliases), ['ct_alias']);

  // A component change that breaks a composable template using it is refused.
  const breaking = await node.request('PUT', '/_component_template/ct-mappings', { body: { template: { mappings: { properties: { a: { type: 'nope' } } } } } });
  assert.equal(breaking.status, 400);

  await ok('DELETE', '/_index_template/composed');
  await ok('DELETE', '/_component_template/ct-settings,ct-mappings');
  const gone = await node.request('DELETE', '/_component_template/ct-settings,other');
  assert.equal(gone.status, 404);
  assert.equal(reasonOf(gone.body), 'ct-settings,other');
});

test('auto-create by a bulk write picks up the highest-priority matching template', async () => {
  await ok('PUT', '/_index_template/logs-low', { index_patterns: ['logs-*'], priority: 1, template: { settings: { number_of_shards: 1 } } });
  await ok('PUT', '/_index_template/logs-high', {
    index_patterns: ['logs-app-*'],
    priority: 50,
    template: { settings: { number_of_shards: 2, number_of_replicas: 0 }, mappings: { properties: { message: { type: 'keyword' } } } },
  });
  const bulk = await node.request('POST', '/_bulk?refresh=true', { raw: '{"index":{"_index":"logs-app-1"}}\n{"message":"hello world"}\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
  assert.equal(bulk.body.errors, false, JSON.stringify(bulk.body));
  const settings = await ok('GET', '/logs-app-1/_settings?flat_settings=true');
  assert.equal(settings.body['logs-app-1'].settings['index.number_of_shards'], '2');
  const mapping = await ok('GET', '/logs-app-1/_mapping');
  assert.deepEqual(mapping.body['logs-app-1'].mappings.properties.message, { type: 'keyword' });
  // The keyword mapping came from the template: an exact term finds the whole value.
  const search = await ok('POST', '/logs-app-1/_search', { query: { term: { message: 'hello world' } } });
  assert.equal(search.body.hits.total.value, 1);

  const other = await ok('PUT', '/logs-other/_doc/1?refresh=true', { message: 'x' });
  assert.equal(other.status, 201);
  assert.equal((await ok('GET', '/logs-other/_settings?flat_settings=true')).body['logs-other'].settings['index.number_of_shards'], '1');
  await ok('DELETE', '/_index_template/logs-low');
  await ok('DELETE', '/_index_template/logs-high');
});

test('allow_auto_create: false forbids auto-creation of matching indices', async () => {
  await ok('PUT', '/_index_template/no-auto', { index_patterns: ['noauto-*'], allow_auto_create: false });
  const write = await node.request('PUT', '/noauto-1/_doc/1', { body: { a: 1 } });
  assert.equal(write.status, 404);
  assert.equal(reasonOf(write.body), 'no such index [composable template [noauto-*] forbids index auto creation]');
  // An explicit create is still allowed.
  await ok('PUT', '/noauto-1');
  await ok('DELETE', '/_index_template/no-auto');
});

test('legacy templates: CRUD, order, and only when no composable template matches', async () => {
  const put = await ok('PUT', '/_template/legacy-low', { index_patterns: ['leg-*'], order: 0, settings: { number_of_shards: 1, refresh_interval: '7s' }, mappings: { properties: { a: { type: 'keyword' } } } });
  assert.match(String(put.headers['warning']), /Legacy index templates are deprecated in favor of composable templates\./);
  await ok('PUT', '/_template/legacy-high', { index_patterns: ['leg-*'], order: 5, version: 3, settings: { number_of_shards: 2 }, mappings: { properties: { a: { type: 'text' }, b: { type: 'long' } } }, aliases: { leg_alias: { routing: 'r' } } });
  const get = await ok('GET', '/_template/legacy-high?flat_settings=true');
  assert.deepEqual(get.body, {
    'legacy-high': {
      order: 5,
      version: 3,
      index_patterns: ['leg-*'],
      settings: { 'index.number_of_shards': '2' },
      mappings: { properties: { a: { type: 'text' }, b: { type: 'long' } } },
      aliases: { leg_alias: { index_routing: 'r', search_routing: 'r' } },
    },
  });
  assert.equal((await node.request('HEAD', '/_template/legacy-low')).status, 200);
  const missing = await node.request('GET', '/_template/nope');
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, {});
  const noPatterns = await node.request('PUT', '/_template/nopat', { body: {} });
  assert.equal(noPatterns.status, 400);
  assert.match(reasonOf(noPatterns.body), /index patterns are missing/);
  const create = await node.request('PUT', '/_template/legacy-low?create=true', { body: { index_patterns: ['leg-*'] } });
  assert.equal(create.status, 400);
  assert.equal(reasonOf(create.body), 'index_template [legacy-low] already exists');

  await ok('PUT', '/leg-1');
  const settings = (await ok('GET', '/leg-1/_settings?flat_settings=true')).body['leg-1'].settings;
  assert.equal(settings['index.number_of_shards'], '2');
  assert.equal(settings['index.refresh_interval'], '7s');
  const mapping = (await ok('GET', '/leg-1/_mapping')).body['leg-1'].mappings.properties;
  assert.deepEqual(mapping, { a: { type: 'text' }, b: { type: 'long' } });

  // A composable template that matches takes over: legacy ones no longer apply (and ES warns on the PUT).
  const composable = await ok('PUT', '/_index_template/leg-v2', { index_patterns: ['leg-v2-*'], template: { settings: { number_of_shards: 4 } } });
  assert.match(String(composable.headers['warning']), /matching patterns from existing older templates \[legacy-low,legacy-high\]|matching patterns from existing older templates \[legacy-high,legacy-low\]/);
  await ok('PUT', '/leg-v2-1');
  const v2 = (await ok('GET', '/leg-v2-1/_settings?flat_settings=true')).body['leg-v2-1'].settings;
  assert.equal(v2['index.number_of_shards'], '4');
  assert.equal(v2['index.refresh_interval'], undefined);

  const legacyClash = await node.request('PUT', '/_template/leg-clash', { body: { index_patterns: ['leg-v2-x*'] } });
  assert.equal(legacyClash.status, 400);
  assert.equal(
    reasonOf(legacyClash.body),
    'legacy template [leg-clash] has index patterns [leg-v2-x*] matching patterns from existing composable templates [leg-v2] with patterns (leg-v2 => [leg-v2-*]), use composable templates (/_index_template) instead',
  );

  const cat = await ok('GET', '/_cat/templates/leg*?v=true&s=name');
  assert.equal(
    cat.text,
    'name        index_patterns order version composed_of\n' +
      'leg-v2      [leg-v2-*]     0             []\n' +
      'legacy-high [leg-*]        5     3       \n' +
      'legacy-low  [leg-*]        0             \n',
  );
  await ok('DELETE', '/_index_template/leg-v2');
  await ok('DELETE', '/_template/legacy-*');
  const none = await node.request('DELETE', '/_template/legacy-low');
  assert.equal(none.status, 404);
  assert.equal(reasonOf(none.body), 'index_template [legacy-low] missing');
});

test('hidden indices skip global templates; a template may make an index hidden', async () => {
  await ok('PUT', '/_index_template/global-all', { index_patterns: ['*'], priority: 0, template: { settings: { refresh_interval: '9s' } } });
  await ok('PUT', '/_index_template/hide-me', { index_patterns: ['hideme-*'], priority: 1, template: { settings: { 'index.hidden': true } } });
  await ok('PUT', '/visible-1');
  assert.equal((await ok('GET', '/visible-1/_settings?flat_settings=true')).body['visible-1'].settings['index.refresh_interval'], '9s');
  await ok('PUT', '/secret-1', { settings: { 'index.hidden': true } });
  assert.equal((await ok('GET', '/secret-1/_settings?flat_settings=true')).body['secret-1'].settings['index.refresh_interval'], undefined);
  await ok('PUT', '/hideme-1');
  assert.equal((await ok('GET', '/hideme-1/_settings?flat_settings=true')).body['hideme-1'].settings['index.hidden'], 'true');
  const listed = await ok('GET', '/_cat/indices/hideme-*?h=index');
  assert.equal(listed.text, '');
  await ok('DELETE', '/_index_template/global-all');
  await ok('DELETE', '/_index_template/hide-me');
});

test('simulate an index and a template', async () => {
  await ok('PUT', '/_template/sim-v1', { index_patterns: ['sim*', 't1*'], settings: { number_of_shards: 5 } });
  await ok('PUT', '/_index_template/sim-v2', { index_patterns: ['sim*'], priority: 10, template: { settings: { number_of_shards: 10, number_of_replicas: 2 }, mappings: { properties: { field: { type: 'text' } } } } });
  await ok('PUT', '/_index_template/sim-winner', { index_patterns: ['sim*'], priority: 20, template: { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { field: { type: 'keyword' } } } } });
  const simulated = await ok('POST', '/_index_template/_simulate_index/sim-index');
  assert.deepEqual(simulated.body, {
    template: {
      settings: { index: { number_of_shards: '1', number_of_replicas: '0', routing: { allocation: { include: { _tier_preference: 'data_content' } } } } },
      mappings: { properties: { field: { type: 'keyword' } } },
      aliases: {},
    },
    overlapping: [
      { name: 'sim-v1', index_patterns: ['sim*', 't1*'] },
      { name: 'sim-v2', index_patterns: ['sim*'] },
    ],
  });
  const noMatch = await ok('POST', '/_index_template/_simulate_index/will_not_match');
  assert.deepEqual(noMatch.body, {});

  await ok('PUT', '/_component_template/sim-ct', { template: { settings: { 'index.number_of_replicas': 2 }, mappings: { properties: { ct_field: { type: 'keyword' } } } } });
  const withBody = await ok('POST', '/_index_template/_simulate_index/sim-index', {
    index_patterns: ['sim*'],
    priority: 25,
    template: { settings: { 'index.blocks.write': true }, aliases: { test_alias: {} } },
    composed_of: ['sim-ct'],
  });
  assert.equal(withBody.body.template.settings.index.blocks.write, 'true');
  assert.equal(withBody.body.template.settings.index.number_of_replicas, '2');
  assert.deepEqual(withBody.body.template.mappings, { properties: { ct_field: { type: 'keyword' } } });
  assert.deepEqual(withBody.body.template.aliases, { test_alias: {} });

  const template = await ok('POST', '/_index_template/_simulate/sim-v2');
  assert.equal(template.body.template.settings.index.number_of_shards, '10');
  assert.deepEqual(template.body.overlapping, [
    { name: 'sim-v1', index_patterns: ['sim*', 't1*'] },
    { name: 'sim-winner', index_patterns: ['sim*'] },
  ]);
  const missing = await node.request('POST', '/_index_template/_simulate/nope');
  assert.equal(missing.status, 400);
  assert.equal(reasonOf(missing.body), 'unable to simulate template [nope] that does not exist');
  const nothing = await node.request('POST', '/_index_template/_simulate');
  assert.equal(reasonOf(nothing.body), 'a template name to match or a new template body must be specified');
  await ok('DELETE', '/_index_template/sim-v2,sim-winner');
  await ok('DELETE', '/_component_template/sim-ct');
  await ok('DELETE', '/_template/sim-v1');
});

test('component and index template composition with aliases (ES YAML 15_composition)', async () => {
  await ok('PUT', '/_component_template/ct_low', {
    template: { settings: { number_of_replicas: 1 }, mappings: { properties: { field1: { type: 'text' } } }, aliases: { aliasname: { is_write_index: false } } },
  });
  await ok('PUT', '/_component_template/ct_high', {
    template: { settings: { 'index.number_of_replicas': 0 }, mappings: { properties: { field2: { type: 'keyword' } } }, aliases: { aliasname: { is_write_index: true } } },
  });
  await ok('PUT', '/_index_template/my-template', {
    index_patterns: ['foo', 'bar-*'],
    template: {
      settings: { 'index.number_of_shards': 2 },
      mappings: { properties: { field3: { type: 'integer' } } },
      aliases: { my_alias: {}, aliasname: { filter: { match_all: {} } } },
    },
    composed_of: ['ct_low', 'ct_high'],
    priority: 400,
  });
  await ok('PUT', '/bar-baz', { settings: { 'index.priority': 17 }, mappings: { properties: { foo: { type: 'keyword' } } }, aliases: { other: {} } });
  const index = (await ok('GET', '/bar-baz')).body['bar-baz'];
  assert.equal(index.settings.index.number_of_shards, '2');
  assert.equal(index.settings.index.number_of_replicas, '0');
  assert.equal(index.settings.index.priority, '17');
  assert.deepEqual(index.mappings.properties, { field1: { type: 'text' }, field2: { type: 'keyword' }, field3: { type: 'integer' }, foo: { type: 'keyword' } });
  assert.deepEqual(index.aliases, { aliasname: { filter: { match_all: {} } }, my_alias: {}, other: {} });
  await ok('DELETE', '/bar-baz');
  await ok('DELETE', '/_index_template/my-template');
  await ok('DELETE', '/_component_template/ct_low,ct_high');
});

test('GET _cluster/state/metadata lists legacy templates and the template customs', async () => {
  await ok('PUT', '/_template/state-legacy', { index_patterns: ['stl-*'], order: 1, mappings: { properties: { a: { type: 'keyword' } } } });
  await ok('PUT', '/_component_template/state-ct', { template: { settings: { number_of_replicas: 0 } } });
  await ok('PUT', '/_index_template/state-it', { index_patterns: ['sti-*'], composed_of: ['state-ct'] });
  const metadata = (await ok('GET', '/_cluster/state/metadata?flat_settings=true')).body.metadata;
  assert.deepEqual(metadata.templates['state-legacy'], {
    order: 1,
    index_patterns: ['stl-*'],
    settings: {},
    mappings: { _doc: { properties: { a: { type: 'keyword' } } } },
    aliases: {},
  });
  assert.deepEqual(metadata.index_template.index_template['state-it'], { index_patterns: ['sti-*'], composed_of: ['state-ct'] });
  assert.deepEqual(metadata.component_template.component_template['state-ct'], { template: { settings: { 'index.number_of_replicas': '0' } } });
  await ok('DELETE', '/_index_template/state-it');
  await ok('DELETE', '/_component_template/state-ct');
  await ok('DELETE', '/_template/state-legacy');
});
