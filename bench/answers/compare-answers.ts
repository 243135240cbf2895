/**
 * `npm run bench -- answers --peer opensearch`: runs the same session (session.ts) against Gannet and a server
 * peer, each started empty, and reports per request where the answers differ: the status, the content type and
 * product headers, and for JSON bodies the keys only one side has, values of different types, and different
 * values (left out where a value is naturally per-run: ids, times, sizes, load). `_cat` text answers are
 * compared by their header row and row count. The report (markdown) is printed and saved under bench/results/.
 */
import { request as httpRequest } from 'node:http';
import type { SearchServer } from '../peers/http-server.js';
import { SESSION, type SessionContext, type Step } from './session.js';

interface Answer {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

interface Exchange {
  step: Step;
  request: string;
  answer: Answer;
}

/** Header names whose presence or value an operator or a client can notice. */
const HEADERS = ['x-elastic-product', 'warning', 'content-type'];

function send(port: number, step: Step, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = step.body === undefined ? undefined : Buffer.from(step.body);
    const headers: Record<string, string | number> = payload ? { 'content-type': step.contentType ?? 'application/json', 'content-length': payload.length } : {};
    const req = httpRequest({ host: '127.0.0.1', port, method: step.method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text.length > 0 ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        const picked: Record<string, string> = {};
        for (const name of HEADERS) {
          const value = res.headers[name];
          if (value !== undefined) picked[name] = Array.isArray(value) ? value.join(' | ') : value;
        }
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), headers: picked, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function runSession(server: SearchServer): Promise<Exchange[]> {
  const local = await send(server.port, { section: 'setup', method: 'GET', path: '/_nodes/_local' }, '/_nodes/_local');
  const nodeId = Object.keys((local.json as { nodes?: Record<string, unknown> })?.nodes ?? {})[0] ?? 'unknown-node';
  const context: SessionContext = { nodeId };
  const exchanges: Exchange[] = [];
  for (const step of SESSION) {
    if (step.waitMs) await new Promise((resolve) => setTimeout(resolve, step.waitMs));
    const path = typeof step.path === 'string' ? step.path : step.path(context);
    const answer = await send(server.port, step, path);
    step.remember?.(answer.json, context);
    // Shown with placeholders, so both servers' requests read the same.
    const shown = path.replaceAll(nodeId, '<node>').replace(/<node>:\d+/g, '<task>');
    exchanges.push({ step, request: `${step.method} ${shown}`, answer });
  }
  return exchanges;
}

/** Keys whose values differ from run to run or from machine to machine on any server. */
const VOLATILE =
  /^(took|uuid|cluster_uuid|_seq_no|_primary_term|_version|start_time_in_millis|running_time_in_nanos|running_time|start_time|timestamp|epoch|node|node_id|id|ip|host|name|transport_address|build_\w+|\w+_in_bytes|\w+_in_millis|\w+_in_nanos|\w*percent\w*|load_\w+|\w*heap\w*|\w*ram\w*|cpu|disk\.\w+|\w*size\w*|task|parent_task_id|description|_score|max_score|minimum_\w+|lucene_version|number|tagline|distribution|cluster_name|_id|index_uuid|resource\.id)$/;
/** A running task's progress counters depend on when the request came: compared by presence only. */
const PROGRESS = /^(total|created|updated|deleted|batches|noops|version_conflicts|throttled_millis|throttled_until_millis|throttled|throttled_until)$/;

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function short(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Differences between two JSON values, as lines naming the path. Node ids as object keys become `<node>`. */
export function jsonDifferences(gannet: unknown, peer: unknown, peerName: string, path = '', key = ''): string[] {
  const out: string[] = [];
  const label = path || '(body)';
  if (typeName(gannet) !== typeName(peer)) {
    out.push(`\`${label}\`: gannet ${typeName(gannet)} ${short(gannet)}, ${peerName} ${typeName(peer)} ${short(peer)}`);
    return out;
  }
  if (Array.isArray(gannet) && Array.isArray(peer)) {
    if (gannet.length !== peer.length) out.push(`\`${label}\`: gannet ${gannet.length} entries, ${peerName} ${peer.length}`);
    for (let i = 0; i < Math.min(gannet.length, peer.length); i++) out.push(...jsonDifferences(gannet[i], peer[i], peerName, `${path}[${i}]`, key));
    return out;
  }
  if (typeof gannet === 'object' && gannet !== null) {
    const a = normalizeNodeKeys(gannet as Record<string, unknown>);
    const b = normalizeNodeKeys(peer as Record<string, unknown>);
    const onlyGannet = Object.keys(a).filter((k) => !(k in b));
    const onlyPeer = Object.keys(b).filter((k) => !(k in a));
    if (onlyGannet.length > 0) out.push(`\`${label}\`: only gannet has ${onlyGannet.map((k) => `\`${k}\``).join(', ')}`);
    if (onlyPeer.length > 0) out.push(`\`${label}\`: only ${peerName} has ${onlyPeer.map((k) => `\`${k}\``).join(', ')}`);
    for (const k of Object.keys(a).filter((k) => k in b)) out.push(...jsonDifferences(a[k], b[k], peerName, path ? `${path}.${k}` : k, k));
    return out;
  }
  const inTaskProgress = /(^|\.)(status|response)(\.|$)/.test(path) || path.startsWith('nodes.');
  if (gannet !== peer && !VOLATILE.test(key) && !(inTaskProgress && PROGRESS.test(key))) out.push(`\`${label}\`: gannet ${short(gannet)}, ${peerName} ${short(peer)}`);
  return out;
}

/** Objects keyed by node id or task id (tasks lists, cancel answers) compare by position, not by the random id. */
function normalizeNodeKeys(object: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(object);
  const idLike = keys.length > 0 && keys.every((key) => /^[A-Za-z0-9_-]{20,22}(:\d+)?$/.test(key));
  if (!idLike) return object;
  return Object.fromEntries(keys.map((key, i) => [key.includes(':') ? `<task ${i}>` : `<node ${i}>`, object[key]]));
}

function catHeader(text: string): string[] {
  return (text.split('\n')[0] ?? '').trim().split(/\s+/);
}

function differences(gannet: Answer, peer: Answer, peerName: string, request: string): string[] {
  const out: string[] = [];
  if (gannet.status !== peer.status) out.push(`status: gannet ${gannet.status}, ${peerName} ${peer.status}`);
  // X-Elastic-Product is ES 8's (Gannet sends it so that the official clients accept it): stated once in the report.
  for (const name of HEADERS.filter((header) => header !== 'x-elastic-product')) {
    const a = gannet.headers[name];
    const b = peer.headers[name];
    if (name === 'content-type' ? a?.split(';')[0] !== b?.split(';')[0] : (a === undefined) !== (b === undefined) || (name === 'warning' && a !== b)) {
      out.push(`header \`${name}\`: gannet ${a === undefined ? '(none)' : `\`${a}\``}, ${peerName} ${b === undefined ? '(none)' : `\`${b}\``}`);
    }
  }
  if (gannet.json !== undefined && peer.json !== undefined) {
    out.push(...jsonDifferences(gannet.json, peer.json, peerName));
  } else if (/\/_cat\//.test(request)) {
    const textual = (answer: Answer) => answer.text.trim().split('\n');
    if (/[?&](v|help)\b/.test(request)) {
      const a = request.includes('help') ? textual(gannet).map((line) => line.split('|')[0]!.trim()) : catHeader(gannet.text);
      const b = request.includes('help') ? textual(peer).map((line) => line.split('|')[0]!.trim()) : catHeader(peer.text);
      const onlyGannet = a.filter((column) => !b.includes(column));
      const onlyPeer = b.filter((column) => !a.includes(column));
      if (onlyGannet.length > 0) out.push(`columns only gannet has: ${onlyGannet.map((c) => `\`${c}\``).join(', ')}`);
      if (onlyPeer.length > 0) out.push(`columns only ${peerName} has: ${onlyPeer.map((c) => `\`${c}\``).join(', ')}`);
      if (onlyGannet.length === 0 && onlyPeer.length === 0 && a.join(' ') !== b.join(' ')) out.push(`same columns in another order: gannet \`${a.join(' ')}\`, ${peerName} \`${b.join(' ')}\``);
    }
    if (!request.includes('help') && textual(gannet).length !== textual(peer).length) out.push(`rows: gannet ${textual(gannet).length} lines, ${peerName} ${textual(peer).length}`);
  } else if (gannet.text !== peer.text && (gannet.json === undefined) !== (peer.json === undefined)) {
    out.push(`body: gannet ${short(gannet.text)}, ${peerName} ${short(peer.text)}`);
  }
  return out;
}

export interface Comparison {
  report: string;
  /** Every request with both servers' raw answers, to read what the report summarizes. */
  exchanges: Array<{ request: string; section: string; gannet: Answer; peer: Answer }>;
}

export async function compareAnswers(gannetServer: SearchServer, peerServer: SearchServer): Promise<Comparison> {
  const gannet = await runSession(gannetServer);
  const peer = await runSession(peerServer);
  const lines = [`# Answers: gannet vs ${peerServer.name}`, '', `${SESSION.length} requests, the same session on each server (bench/answers/session.ts).`, ''];
  let same = 0;
  for (let i = 0; i < gannet.length; i++) {
    const a = gannet[i]!;
    const b = peer[i]!;
    const found = differences(a.answer, b.answer, peerServer.name, a.request);
    if (found.length === 0) {
      same++;
      continue;
    }
    lines.push(`## ${i + 1}. \`${a.request}\` (${a.step.section}; status ${a.answer.status} / ${b.answer.status})`, '', ...found.map((line) => `- ${line}`), '');
  }
  const productHeader = gannet.filter((a, i) => a.answer.headers['x-elastic-product'] !== undefined && peer[i]!.answer.headers['x-elastic-product'] === undefined).length;
  lines.splice(
    3,
    0,
    `${same} of ${gannet.length} answers have no difference beyond per-run values.`,
    `${productHeader} gannet answers carry \`X-Elastic-Product: Elasticsearch\` where ${peerServer.name} sends none (ES 8's header, which the official clients check).`,
    '',
  );
  const exchanges = gannet.map((a, i) => ({ request: a.request, section: a.step.section, gannet: a.answer, peer: peer[i]!.answer }));
  return { report: lines.join('\n'), exchanges };
}
