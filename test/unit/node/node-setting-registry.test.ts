/**
 * The node setting registry is the one list of node settings: the start refuses anything else with ES's message,
 * README's table is this list, every key the code reads is in it, and the shipped gannet.yml template uses it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EsError } from '../../../src/common/errors.js';
import { loadConfigFile, resolveSettings, validateNodeSettings } from '../../../src/node/node-settings.js';
import { nodeSettingDefinition, nodeSettingDefinitions } from '../../../src/node/node-setting-registry.js';
import { renderSettingsTable, SETTINGS_TABLE_END, SETTINGS_TABLE_START } from '../../../src/node/settings-table.js';

// Runs from the compiled tree; the sources and README sit beside package.json in the cwd.
const root = process.cwd();

function refusal(settings: Record<string, string>): string {
  try {
    validateNodeSettings(settings);
  } catch (err) {
    assert.ok(err instanceof EsError, String(err));
    assert.ok(err.status === 400, err.type);
    return err.message;
  }
  assert.fail(`accepted ${JSON.stringify(settings)}`);
}

test("unknown node settings are refused with ES's message", () => {
  const plugins = 'please check that any required plugins are installed, or check the breaking changes documentation for removed settings';
  assert.equal(refusal({ 'foo.bar': '1' }), `unknown setting [foo.bar] ${plugins}`);
  assert.equal(refusal({ 'xpack.security.enabled': 'true' }), `unknown setting [xpack.security.enabled] ${plugins}`);
  assert.equal(refusal({ 'discovery.seed_hosts': 'a,b' }), `unknown setting [discovery.seed_hosts] ${plugins}`);
  assert.equal(refusal({ 'http.prot': '9200' }), 'unknown setting [http.prot] did you mean [http.port]?');
  assert.equal(refusal({ 'cluster.nme': 'x' }), 'unknown setting [cluster.nme] did you mean [cluster.name]?');
});

test('index settings do not belong on a node', () => {
  assert.match(refusal({ 'index.number_of_shards': '2', 'index.refresh_interval': '5s' }), /^node settings must not contain any index level settings \[index\.number_of_replicas|index\.number_of_shards, index\.refresh_interval\]/);
});

test('values are checked against the setting type, naming the setting', () => {
  assert.equal(refusal({ 'http.compression': 'yes' }), 'Failed to parse value [yes] as only [true] or [false] are allowed. (setting [http.compression])');
  assert.equal(refusal({ 'http.port': 'ninety' }), 'Failed to parse port range [ninety] for setting [http.port]');
  assert.equal(refusal({ 'logger.level': 'loud' }), 'Unknown level constant [LOUD]. (setting [logger.level])');
  assert.equal(refusal({ 'node.roles': 'data,chef' }), 'unknown role [chef] (setting [node.roles])');
  assert.equal(refusal({ 'search.max_buckets': '-3' }), 'Failed to parse value [-3] for setting [search.max_buckets] must be >= 0');
  assert.equal(refusal({ 'cluster.routing.allocation.enable': 'some' }), 'Illegal allocation.enable value [SOME] (setting [cluster.routing.allocation.enable])');
  assert.match(refusal({ 'http.max_content_length': 'lots' }), /failed to parse setting \[http\.max_content_length\] with value \[lots\] as a size in bytes/);
  // Accepted: every level name in any case, groups, lists.
  validateNodeSettings({ 'logger.level': 'DEBUG', 'node.attr.rack': 'r1', 'node.roles': '[master, data]', 'http.port': '9200-9210', 'discovery.type': 'single-node' });
});

test("README's settings table is the registry's", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(SETTINGS_TABLE_START);
  const end = readme.indexOf(SETTINGS_TABLE_END);
  assert.ok(start >= 0 && end > start, 'README.md has the settings-table markers');
  const inReadme = readme.slice(start + SETTINGS_TABLE_START.length, end).trim();
  assert.equal(inReadme, renderSettingsTable(), 'README is out of date: run `node scripts/settings-table.mjs` and paste its output');
});

test('every dotted node setting the code reads is registered', () => {
  const missing: string[] = [];
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        // Analysis component settings and index settings are other registries.
        if (name !== 'analysis') visit(path);
      } else if (name.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const match of text.matchAll(/settings\.get(?:String|Bool|Int|Bytes|TimeMillis|List)?\(\s*'([a-z_]+(?:\.[a-z_.-]+)+)'/g)) {
          const key = match[1]!;
          if (!key.startsWith('index.') && nodeSettingDefinition(key) === undefined) missing.push(`${path}: ${key}`);
        }
      }
    }
  };
  visit(join(root, 'src'));
  assert.deepEqual(missing, []);
});

test('every setting has a type, a description, and a default of its own type', () => {
  for (const definition of nodeSettingDefinitions()) {
    assert.ok(definition.description.length > 0, definition.key);
    if (definition.defaultValue !== undefined && definition.defaultValue !== '' && !definition.key.endsWith('*')) {
      validateNodeSettings({ [definition.key]: definition.defaultValue });
    }
  }
  assert.equal(new Set(nodeSettingDefinitions().map((definition) => definition.key)).size, nodeSettingDefinitions().length, 'no key twice');
});

test('the shipped config/gannet.yml starts a node with defaults, and every commented setting in it is valid', () => {
  const template = readFileSync(join(root, 'config', 'gannet.yml'), 'utf8');
  const dir = mkdtempSync(join(tmpdir(), 'gannet-yml-'));
  try {
    const asShipped = join(dir, 'shipped.yml');
    writeFileSync(asShipped, template);
    assert.deepEqual(loadConfigFile(asShipped, {}), {});
    const uncommented = template
      .split('\n')
      .filter((line) => /^#[a-z_]+(\.[a-z_.-]+)+:/.test(line))
      .map((line) => line.slice(1))
      .join('\n');
    const everything = join(dir, 'uncommented.yml');
    writeFileSync(everything, uncommented);
    const settings = resolveSettings({ configFile: everything, env: {} });
    assert.equal(settings.get('logger.level'), 'info');
    assert.ok(Object.keys(loadConfigFile(everything, {})).length >= 15);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a broken gannet.yml names the file and the line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gannet-yml-'));
  try {
    const file = join(dir, 'gannet.yml');
    writeFileSync(file, 'cluster.name: a\nnode:\n  name: [unclosed\n');
    assert.throws(() => loadConfigFile(file, {}), (err: Error) => err.message.startsWith(`Failed to load settings from [${file}]: `) && /at line \d+, column \d+$/.test(err.message) && !err.message.includes('\n'));
    writeFileSync(file, 'cluster.name: a\ncluster.name: b\n');
    assert.throws(() => loadConfigFile(file, {}), (err: Error) => err.message === `Failed to load settings from [${file}]: Map keys must be unique at line 2, column 1`);
    writeFileSync(file, 'cluster.name: a\ncluster:\n  name: b\n');
    assert.throws(() => loadConfigFile(file, {}), (err: Error) => err.message === `Failed to load settings from [${file}]: duplicate settings key [cluster.name]`);
    writeFileSync(file, 'cluster.name: ${NOT_SET_ANYWHERE}\n');
    assert.throws(() => loadConfigFile(file, {}), (err: Error) => err.message === `Failed to load settings from [${file}]: Could not resolve placeholder 'NOT_SET_ANYWHERE'`);
    writeFileSync(file, '- a\n- b\n');
    assert.throws(() => loadConfigFile(file, {}), (err: Error) => err.message === `Failed to load settings from [${file}]: expected a map of settings`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
