/**
 * The fault suite's checkers, pure functions over what the run recorded (reliability-security.md §8.8):
 *
 * - acknowledged writes: every acknowledged item is on every in-sync copy with its acknowledged version;
 * - history: no (shard, seq_no) was acknowledged twice and, per id, later acknowledged attempts have higher
 *   versions (a history that forgot an acknowledged write and reused its number shows up here even when a
 *   later write hid the loss in the final state);
 * - divergence: every in-sync copy of a shard holds the same documents with the same version, seq_no and term;
 * - failover: no item failed only because its primary moved (it must be routed to the new primary);
 * - publications: one publisher per master term, one state per version, terms never go back with versions,
 *   and each node applied versions in order.
 */
import type { WriteRecord } from './bulk-writer.js';

export interface StoredDoc {
  readonly version: number;
  readonly seqNo: number;
  readonly term: number;
  readonly attempt: number;
}

/** One copy's documents by id (a copy holds the documents of its shard only). */
export interface CopyView {
  readonly label: string;
  readonly shard: number;
  readonly docs: ReadonlyMap<string, StoredDoc>;
}

export function checkAcknowledged(records: readonly WriteRecord[], copies: readonly CopyView[], shardOf: (id: string) => number): string[] {
  const problems: string[] = [];
  const acked = records.filter((record) => record.outcome === 'ok');
  const bySeqNo = new Map<string, WriteRecord>();
  for (const record of acked) {
    const key = `${shardOf(record.id)}/${record.seqNo}`;
    const earlier = bySeqNo.get(key);
    if (earlier !== undefined) problems.push(`seq_no ${key} acknowledged twice: ${describe(earlier)} and ${describe(record)}`);
    else bySeqNo.set(key, record);
  }
  const byId = new Map<string, WriteRecord[]>();
  for (const record of acked) (byId.get(record.id) ?? byId.set(record.id, []).get(record.id)!).push(record);
  const attemptsById = new Map<string, Map<number, WriteRecord>>();
  for (const record of records) (attemptsById.get(record.id) ?? attemptsById.set(record.id, new Map()).get(record.id)!).set(record.attempt, record);
  for (const [id, history] of byId) {
    history.sort((a, b) => a.attempt - b.attempt);
    for (let i = 1; i < history.length; i++) {
      const before = history[i - 1]!;
      const after = history[i]!;
      if (after.version! <= before.version!) problems.push(`${id}: acknowledged ${describe(after)} after ${describe(before)} with no higher version (a write was forgotten)`);
    }
    const last = history[history.length - 1]!;
    const shard = shardOf(id);
    const shardCopies = copies.filter((copy) => copy.shard === shard);
    if (shardCopies.length === 0) problems.push(`${id}: no in-sync copy of shard ${shard} was read`);
    for (const copy of shardCopies) {
      const doc = copy.docs.get(id);
      if (doc === undefined) {
        problems.push(`${id}: missing on ${copy.label}; last acknowledged ${describe(last)}`);
        continue;
      }
      if (doc.version < last.version!) problems.push(`${id}: ${copy.label} has version ${doc.version} below acknowledged ${describe(last)}`);
      const finalAttempt = attemptsById.get(id)?.get(doc.attempt);
      if (finalAttempt?.outcome === 'ok' && (finalAttempt.version !== doc.version || finalAttempt.seqNo !== doc.seqNo || finalAttempt.term !== doc.term)) {
        problems.push(`${id}: ${copy.label} holds attempt ${doc.attempt} as v${doc.version}/seq ${doc.seqNo}/term ${doc.term} but it was acknowledged as ${describe(finalAttempt)}`);
      }
      if (finalAttempt === undefined) problems.push(`${id}: ${copy.label} holds attempt ${doc.attempt} that was never sent`);
    }
  }
  return problems;
}

export function checkDivergence(copies: readonly CopyView[]): string[] {
  const problems: string[] = [];
  const byShard = new Map<number, CopyView[]>();
  for (const copy of copies) (byShard.get(copy.shard) ?? byShard.set(copy.shard, []).get(copy.shard)!).push(copy);
  for (const [shard, views] of byShard) {
    const [first, ...rest] = views;
    for (const other of rest) {
      const ids = new Set([...first!.docs.keys(), ...other.docs.keys()]);
      for (const id of ids) {
        const a = first!.docs.get(id);
        const b = other.docs.get(id);
        if (a === undefined || b === undefined || a.version !== b.version || a.seqNo !== b.seqNo || a.term !== b.term || a.attempt !== b.attempt) {
          problems.push(`shard ${shard}: ${first!.label} and ${other.label} differ on ${id}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
        }
      }
    }
  }
  return problems;
}

export interface Publication {
  readonly node: string;
  readonly incarnation: number;
  readonly kind: 'published' | 'applied';
  readonly term: number;
  readonly version: number;
  readonly stateUuid: string;
}

/** The publication records in the nodes' JSON logs (`state_published` at info, `state_applied` at debug). */
export function publicationsOf(node: string, incarnations: readonly (readonly string[])[]): Publication[] {
  const out: Publication[] = [];
  incarnations.forEach((lines, incarnation) => {
    for (const line of lines) {
      if (!line.includes('"state_')) continue;
      let entry: { event?: string; term?: number; version?: number; state_uuid?: string };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (entry.event !== 'state_published' && entry.event !== 'state_applied') continue;
      out.push({ node, incarnation, kind: entry.event === 'state_published' ? 'published' : 'applied', term: entry.term!, version: entry.version!, stateUuid: entry.state_uuid! });
    }
  });
  return out;
}

export function checkPublications(publications: readonly Publication[]): string[] {
  const problems: string[] = [];
  const publishers = new Map<number, Set<string>>();
  const stateOfVersion = new Map<number, Publication>();
  for (const publication of publications) {
    if (publication.kind === 'published') (publishers.get(publication.term) ?? publishers.set(publication.term, new Set()).get(publication.term)!).add(publication.node);
    const known = stateOfVersion.get(publication.version);
    if (known === undefined) stateOfVersion.set(publication.version, publication);
    else if (known.stateUuid !== publication.stateUuid || known.term !== publication.term) {
      problems.push(`version ${publication.version} is two states: ${known.stateUuid} (term ${known.term}, ${known.kind} on ${known.node}) and ${publication.stateUuid} (term ${publication.term}, ${publication.kind} on ${publication.node})`);
    }
  }
  for (const [term, nodes] of publishers) if (nodes.size > 1) problems.push(`term ${term} was published by ${[...nodes].join(' and ')}`);
  const versions = [...stateOfVersion.values()].sort((a, b) => a.version - b.version);
  for (let i = 1; i < versions.length; i++) {
    if (versions[i]!.term < versions[i - 1]!.term) problems.push(`term went back: version ${versions[i - 1]!.version} in term ${versions[i - 1]!.term}, version ${versions[i]!.version} in term ${versions[i]!.term}`);
  }
  const lastApplied = new Map<string, number>();
  for (const publication of publications) {
    if (publication.kind !== 'applied') continue;
    const key = `${publication.node}#${publication.incarnation}`;
    const previous = lastApplied.get(key) ?? 0;
    if (publication.version <= previous) problems.push(`${publication.node} (incarnation ${publication.incarnation}) applied version ${publication.version} after ${previous}`);
    lastApplied.set(key, publication.version);
  }
  return problems;
}

/**
 * Errors that only say a bulk item met no primary (its node died, closed, or the copy was demoted) must never reach
 * the client: the coordinating node routes the item again to the promoted primary within the request's timeout
 * (write-executor.ts), which is longer than the writer's client timeout.
 */
const PRIMARY_MOVED = /already_closed_exception|node_disconnected_exception|node_not_connected_exception|connect_transport_exception|node_closed_exception|shard_not_in_primary_mode_exception|retry_on_primary_exception|shard_not_found_exception/;

export function checkNoPrimaryMovedErrors(records: readonly WriteRecord[]): string[] {
  return records.filter((record) => record.outcome === 'fail' && PRIMARY_MOVED.test(record.error ?? '')).map((record) => `${record.id}#${record.attempt} via ${record.via} failed with a moved-primary error instead of being retried: ${record.error}`);
}

function describe(record: WriteRecord): string {
  return `attempt ${record.attempt} (v${record.version}, seq ${record.seqNo}, term ${record.term}, via ${record.via})`;
}
