import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  UsageError,
  parseCommandLine,
  parseHealthStatus,
  parseTaskId,
  parseTimeout,
  resolveUrl,
  wantsHelp,
} from '../../../src/cli/operator-options.js';
import { GannetClient } from '../../../src/cli/gannet-client.js';

test('common and command options parse; unknown options and extra positionals are usage errors', () => {
  const parsed = parseCommandLine(['--url', 'http://h:1', '--json', '--actions', '*reindex', 'n1:5'], { actions: { type: 'string' } }, 1);
  assert.deepEqual(parsed.values, { url: 'http://h:1', json: true, actions: '*reindex' });
  assert.deepEqual(parsed.positionals, ['n1:5']);
  assert.throws(() => parseCommandLine(['--nodez', 'a'], { nodes: { type: 'string' } }, 0), (err: unknown) => {
    assert.ok(err instanceof UsageError);
    assert.match(err.message, /Unknown option '--nodez'/);
    assert.doesNotMatch(err.message, /positional argument/);
    return true;
  });
  assert.throws(() => parseCommandLine(['a:1', 'b:2'], {}, 1), /unexpected argument \[b:2\]/);
  assert.throws(() => parseCommandLine(['x'], {}, 0), /unexpected argument \[x\]/);
  assert.throws(() => parseCommandLine(['--timeout'], { timeout: { type: 'string' } }, 0), UsageError);
});

test('--help and -h are recognised anywhere', () => {
  assert.equal(wantsHelp(['--json', '--help']), true);
  assert.equal(wantsHelp(['-h']), true);
  assert.equal(wantsHelp(['--json']), false);
});

test('--url wins over GANNET_URL, which wins over the default; an empty GANNET_URL is ignored', () => {
  assert.equal(resolveUrl({ url: 'http://a:1' }, { GANNET_URL: 'http://b:2' }, 'http://d'), 'http://a:1');
  assert.equal(resolveUrl({}, { GANNET_URL: 'http://b:2' }, 'http://d'), 'http://b:2');
  assert.equal(resolveUrl({}, { GANNET_URL: '' }, 'http://d'), 'http://d');
  assert.equal(resolveUrl({}, {}, 'http://d'), 'http://d');
});

test('URLs: a bare host:port gets http://, credentials leave the URL, other schemes are refused', () => {
  assert.equal(GannetClient.forUrl('localhost:9201').displayUrl, 'http://localhost:9201');
  assert.equal(GannetClient.forUrl('https://es.example:9243/prefix/').displayUrl, 'https://es.example:9243/prefix');
  assert.equal(GannetClient.forUrl('http://elastic:s3cret@h:9200').displayUrl, 'http://h:9200');
  assert.throws(() => GannetClient.forUrl('ftp://h'), /only http:\/\/ and https:\/\//);
  assert.throws(() => GannetClient.forUrl('http://'), /invalid --url/);
});

test('health status, timeouts and task ids are validated with messages that say what to type', () => {
  assert.equal(parseHealthStatus('GREEN', 'wait-for-status'), 'green');
  assert.throws(() => parseHealthStatus('blue', 'wait-for-status'), /must be green, yellow or red, not \[blue\]/);
  assert.equal(parseTimeout('30s', 'timeout'), 30_000);
  assert.equal(parseTimeout('500ms', 'timeout'), 500);
  assert.equal(parseTimeout('0', 'timeout'), 0);
  assert.throws(() => parseTimeout('30', 'timeout'), /time value such as 30s/);
  assert.throws(() => parseTimeout('-1', 'timeout'), UsageError);
  assert.equal(parseTaskId('oTUltX4IQMOUUVeiohTt8A:12345'), 'oTUltX4IQMOUUVeiohTt8A:12345');
  assert.throws(() => parseTaskId('12345'), /<node_id>:<number>/);
  assert.throws(() => parseTaskId('a:b'), UsageError);
  assert.throws(() => parseTaskId('a:1:2'), UsageError);
});

test('a value that starts with a dash (a base64url node id) stays the value of its option', async () => {
  const { parseCommandLine } = await import('../../../src/cli/operator-options.js');
  const parsed = parseCommandLine(['--follow', '-Xy3:12'], { follow: { type: 'string' } }, 0);
  assert.equal(parsed.values['follow'], '-Xy3:12');
});
