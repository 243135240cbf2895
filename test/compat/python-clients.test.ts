/**
 * The Python clients operators' tools are built on, unmodified, from PyPI, against a real Gannet node: the
 * official `elasticsearch` client 8.x and 9.x (each with its `elasticsearch.dsl` layer) and `opensearch-py`.
 * test/compat/python/setup-venvs.sh makes one virtual environment per client under .python-venvs/ (reused while
 * the requirements file is unchanged; `.ci/run` builds them first), and each client's script (es_client.py,
 * opensearch_client.py) runs its checks: info, health, cat.*, tasks list/get/cancel, index/get/search/delete,
 * helpers.bulk/parallel_bulk/scan, reindex as a task then tasks.get, and the DSL's Document and Search.
 *
 * Where Python or the package index cannot be had, the tests skip and say so; any other setup failure fails them.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeProcess } from '../helpers/node-process.js';

/** test/compat/python in the source tree: beside the build (dist/..) or under the working directory. */
function repositoryRoot(): string {
  const besideBuild = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  return existsSync(join(besideBuild, 'test', 'compat', 'python', 'setup-venvs.sh')) ? besideBuild : process.cwd();
}

const root = repositoryRoot();
const scripts = join(root, 'test', 'compat', 'python');
const venvs = process.env['GANNET_PYTHON_VENVS'] ?? join(root, '.python-venvs');

interface Outcome {
  code: number;
  output: string;
}

function run(file: string, args: string[], timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: scripts, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

let node: NodeProcess;
/** Undefined when the venvs are ready; else why the Python clients cannot run here. */
let unavailable: string | undefined;

before(async () => {
  const setup = await run(join(scripts, 'setup-venvs.sh'), [], 10 * 60_000);
  if (setup.code === 3) unavailable = setup.output.trim();
  else assert.equal(setup.code, 0, `setting up the Python venvs failed:\n${setup.output}`);
  node = await NodeProcess.start({ settings: { 'node.name': 'compat-python' } });
});
after(async () => {
  await node?.stop();
});

const clients = [
  { label: 'elasticsearch-py 8.x', venv: 'elasticsearch8', script: 'es_client.py' },
  { label: 'elasticsearch-py 9.x', venv: 'elasticsearch9', script: 'es_client.py' },
  { label: 'opensearch-py', venv: 'opensearch', script: 'opensearch_client.py' },
];

for (const client of clients) {
  test(`${client.label}, unmodified: info, health, cat, tasks, documents, bulk/scan helpers, reindex task, DSL`, async (t) => {
    if (unavailable !== undefined) {
      t.skip(`Python clients not installed on this machine: ${unavailable}`);
      return;
    }
    const outcome = await run(join(venvs, client.venv, 'bin', 'python'), [client.script, node.url], 5 * 60_000);
    assert.equal(outcome.code, 0, `${client.label} checks failed:\n${outcome.output}`);
    assert.match(outcome.output, /: 10 passed, 0 failed/, outcome.output);
  });
}
