/**
 * `gannet cluster start|status|stop`: a local cluster for a newcomer, in one folder (default ./gannet-cluster):
 * an etcd from PATH (Debian's etcd-server) on free loopback ports, N nodes (default 3) each with its own data
 * path and OS-assigned HTTP/transport ports, all running in the background. `start` waits for green and prints
 * the addresses; the pids go to `<folder>/cluster.json`, which `status` and `stop` read (stop ends exactly
 * those processes, nodes first, then etcd).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeOptionsFor } from '../node/node-options.js';
import { EtcdProcess, findEtcdBinary, missingEtcdMessage } from './etcd-launcher.js';

const USAGE = `usage: gannet cluster start [--nodes N] [--dir DIR] [--name CLUSTER_NAME]
       gannet cluster status [--dir DIR]
       gannet cluster stop [--dir DIR]
`;

interface ClusterRecord {
  clusterName: string;
  etcd: { pid: number; endpoint: string };
  nodes: Array<{ name: string; pid: number; http: string; transport: string; dataPath: string; log: string }>;
}

const cliDir = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(cliDir, '..', '..', '..');

function parse(args: string[]): { command: string | undefined; nodes: number; dir: string; name: string } | string {
  const [command, ...rest] = args;
  let nodes = 3;
  let dir = 'gannet-cluster';
  let name = 'gannet-local';
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = rest[i + 1];
    if (arg === '--nodes' && value !== undefined) {
      nodes = Number(value);
      if (!Number.isInteger(nodes) || nodes < 1 || nodes > 9) return `--nodes must be a whole number from 1 to 9, got [${value}]`;
      i++;
    } else if (arg === '--dir' && value !== undefined) {
      dir = value;
      i++;
    } else if (arg === '--name' && value !== undefined) {
      name = value;
      i++;
    } else return `unknown argument [${arg}]`;
  }
  return { command, nodes, dir: resolve(dir), name };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function recordPath(dir: string): string {
  return join(dir, 'cluster.json');
}

function readRecord(dir: string): ClusterRecord | undefined {
  return existsSync(recordPath(dir)) ? (JSON.parse(readFileSync(recordPath(dir), 'utf8')) as ClusterRecord) : undefined;
}

/** Reads the node's "started" line from its log: its HTTP and transport addresses. */
async function waitStarted(log: string, pid: number, timeoutMillis: number): Promise<{ http: string; transport: string }> {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (existsSync(log)) {
      for (const line of readFileSync(log, 'utf8').split('\n')) {
        if (!line.includes('"event":"started"')) continue;
        const entry = JSON.parse(line) as { http_address: string; transport_address: string };
        return { http: entry.http_address, transport: entry.transport_address };
      }
    }
    if (!alive(pid)) throw new Error(`the node exited while starting; see ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the node did not start in ${timeoutMillis / 1000}s; see ${log}`);
}

async function start(dir: string, count: number, clusterName: string): Promise<number> {
  const existing = readRecord(dir);
  if (existing !== undefined && (alive(existing.etcd.pid) || existing.nodes.some((node) => alive(node.pid)))) {
    process.stderr.write(`gannet cluster: a cluster is already running from ${dir} (gannet cluster stop --dir ${dir})\n`);
    return 1;
  }
  if (findEtcdBinary() === undefined) {
    process.stderr.write(`gannet cluster: ${missingEtcdMessage()}\n`);
    return 78;
  }
  mkdirSync(dir, { recursive: true });
  const etcd = await EtcdProcess.start({ dataDir: join(dir, 'etcd'), logFile: join(dir, 'etcd.log'), detached: true });
  const record: ClusterRecord = { clusterName, etcd: { pid: etcd.pid, endpoint: etcd.endpoint }, nodes: [] };
  const entry = join(cliDir, 'run.js');
  const options = nodeOptionsFor(join(repositoryRoot, 'config'));
  const starting: Array<Promise<void>> = [];
  for (let i = 1; i <= count; i++) {
    const name = `node-${i}`;
    const dataPath = join(dir, name, 'data');
    const log = join(dir, name, 'node.log');
    mkdirSync(dataPath, { recursive: true });
    rmSync(log, { force: true });
    const settings = {
      'path.data': dataPath,
      'path.logs': join(dir, name, 'logs'),
      'node.name': name,
      'cluster.name': clusterName,
      'cluster.coordination': 'etcd',
      'cluster.etcd.endpoints': etcd.endpoint,
      'http.port': '0',
      'transport.port': '0',
    };
    const args = [...options, entry, 'start', '--config', join(dir, name)];
    for (const [key, value] of Object.entries(settings)) args.push('-E', `${key}=${value}`);
    const output = openSync(log, 'a');
    const child = spawn(process.execPath, args, { stdio: ['ignore', output, output], detached: true });
    child.unref();
    const pid = child.pid ?? 0;
    starting.push(
      waitStarted(log, pid, 60_000).then((addresses) => {
        record.nodes.push({ name, pid, dataPath, log, ...addresses });
      }),
    );
    // Record as we go, so `stop` can end what started even if a later node fails.
    writeFileSync(recordPath(dir), JSON.stringify({ ...record, nodes: [...record.nodes, { name, pid, http: '', transport: '', dataPath, log }] }, null, 2));
  }
  try {
    await Promise.all(starting);
  } finally {
    record.nodes.sort((a, b) => a.name.localeCompare(b.name));
    writeFileSync(recordPath(dir), JSON.stringify(record, null, 2));
  }
  const first = record.nodes[0]!;
  const health = (await (await fetch(`http://${first.http}/_cluster/health?wait_for_status=green&wait_for_nodes=${count}&timeout=60s`)).json()) as {
    status: string;
    number_of_nodes: number;
  };
  process.stdout.write(`cluster [${clusterName}] is ${health.status} with ${health.number_of_nodes} nodes (folder ${dir})\n`);
  process.stdout.write(`etcd      ${etcd.endpoint}\n`);
  for (const node of record.nodes) process.stdout.write(`${node.name.padEnd(8)}  http://${node.http}  transport ${node.transport}  pid ${node.pid}\n`);
  process.stdout.write(`\ntry: curl http://${first.http}/_cat/nodes?v\nstop with: gannet cluster stop --dir ${dir}\n`);
  return health.status === 'green' ? 0 : 1;
}

async function status(dir: string): Promise<number> {
  const record = readRecord(dir);
  if (record === undefined) {
    process.stderr.write(`gannet cluster: no cluster recorded in ${dir}\n`);
    return 1;
  }
  process.stdout.write(`etcd      ${record.etcd.endpoint}  pid ${record.etcd.pid}  ${alive(record.etcd.pid) ? 'running' : 'stopped'}\n`);
  for (const node of record.nodes) process.stdout.write(`${node.name.padEnd(8)}  http://${node.http}  pid ${node.pid}  ${alive(node.pid) ? 'running' : 'stopped'}\n`);
  const live = record.nodes.find((node) => alive(node.pid));
  if (live === undefined) return 2;
  try {
    const health = (await (await fetch(`http://${live.http}/_cluster/health`, { signal: AbortSignal.timeout(5000) })).json()) as { status: string; number_of_nodes: number };
    process.stdout.write(`health    ${health.status}, ${health.number_of_nodes} nodes\n`);
    return health.status === 'green' ? 0 : 1;
  } catch (err) {
    process.stdout.write(`health    unreachable (${(err as Error).message})\n`);
    return 3;
  }
}

async function stopProcess(pid: number, timeoutMillis: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMillis;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

async function stop(dir: string): Promise<number> {
  const record = readRecord(dir);
  if (record === undefined) {
    process.stderr.write(`gannet cluster: no cluster recorded in ${dir}\n`);
    return 1;
  }
  // Nodes first (a clean leave), then etcd.
  await Promise.all(record.nodes.map((node) => stopProcess(node.pid, 30_000)));
  await stopProcess(record.etcd.pid, 10_000);
  process.stdout.write(`stopped ${record.nodes.length} nodes and etcd (data kept in ${dir})\n`);
  return 0;
}

export async function clusterCommand(args: string[]): Promise<number> {
  const parsed = parse(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`gannet cluster: ${parsed}\n${USAGE}`);
    return 64;
  }
  try {
    if (parsed.command === 'start') return await start(parsed.dir, parsed.nodes, parsed.name);
    if (parsed.command === 'status') return await status(parsed.dir);
    if (parsed.command === 'stop') return await stop(parsed.dir);
  } catch (err) {
    process.stderr.write(`gannet cluster: ${(err as Error).message}\n`);
    return 4;
  }
  process.stdout.write(USAGE);
  return parsed.command === undefined ? 64 : 64;
}
