/**
 * The commit point (`segments_<N>`, N in base 36 as Lucene names them): which segments make up the shard
 * at a commit, with the live-docs generation of each, plus the user data that ties the commit to the
 * translog and to sequence numbers (Lucene's SegmentInfos + Elasticsearch's commit user data).
 *
 *   Header (codec framing, codec "GannetCommit", a random commit id, suffix = N in base 36)
 *   Body = Generation(vLong) SegmentCounter(vLong)
 *          SegmentCount(vInt) { Name(string) Id(16 bytes) MaxDoc(vInt) DeletedCount(vInt) LiveGen(vLong) }*
 *          UserDataCount(vInt) { Key(string) Value(string) }*
 *   Footer (CRC-32 of everything before it)
 *
 * A commit point is written once under a temporary name, fsynced, renamed into place and the directory
 * fsynced (commit-store.ts), so it either exists whole or not at all; a damaged one is corruption.
 */
import { randomBytes } from 'node:crypto';
import { finishCodecFile, headerLength, openCodecFile, SEGMENT_ID_LENGTH, startCodecFile } from '../codec/codec-file.js';

export const COMMIT_CODEC = 'GannetCommit';
export const COMMIT_VERSION_START = 1;
export const COMMIT_VERSION_CURRENT = COMMIT_VERSION_START;
export const COMMIT_FILE_PREFIX = 'segments_';

export interface CommittedSegment {
  readonly name: string;
  readonly id: Uint8Array;
  readonly maxDoc: number;
  readonly deletedCount: number;
  /** 0 = no deletes. */
  readonly liveGen: number;
}

/** What Elasticsearch keeps in a commit's user data, typed. */
export interface CommitUserData {
  readonly translogUUID: string;
  /** The oldest translog generation this commit needs for recovery (every newer operation is there). */
  readonly translogGeneration: number;
  readonly localCheckpoint: number;
  readonly maxSeqNo: number;
  readonly historyUUID: string;
  readonly maxUnsafeAutoIdTimestamp: number;
}

export interface CommitPoint {
  readonly generation: number;
  /** Next segment number to hand out, so names are never reused. */
  readonly segmentCounter: number;
  readonly segments: readonly CommittedSegment[];
  readonly userData: CommitUserData;
}

export function commitFileName(generation: number): string {
  return `${COMMIT_FILE_PREFIX}${generation.toString(36)}`;
}

export function parseCommitFileName(name: string): number | undefined {
  const match = /^segments_([0-9a-z]+)$/.exec(name);
  return match === null ? undefined : parseInt(match[1]!, 36);
}

const USER_DATA_KEYS = {
  translogUUID: 'translog_uuid',
  translogGeneration: 'translog_generation',
  localCheckpoint: 'local_checkpoint',
  maxSeqNo: 'max_seq_no',
  historyUUID: 'history_uuid',
  maxUnsafeAutoIdTimestamp: 'max_unsafe_auto_id_timestamp',
} as const;

export function encodeCommitPoint(commit: CommitPoint): Buffer {
  const out = startCodecFile(COMMIT_CODEC, COMMIT_VERSION_CURRENT, randomBytes(SEGMENT_ID_LENGTH), commit.generation.toString(36));
  out.writeVLong(commit.generation);
  out.writeVLong(commit.segmentCounter);
  out.writeVInt(commit.segments.length);
  for (const segment of commit.segments) {
    out.writeString(segment.name);
    out.writeBytes(segment.id);
    out.writeVInt(segment.maxDoc);
    out.writeVInt(segment.deletedCount);
    out.writeVLong(segment.liveGen);
  }
  const user = commit.userData;
  const entries: [string, string][] = [
    [USER_DATA_KEYS.translogUUID, user.translogUUID],
    [USER_DATA_KEYS.translogGeneration, String(user.translogGeneration)],
    [USER_DATA_KEYS.localCheckpoint, String(user.localCheckpoint)],
    [USER_DATA_KEYS.maxSeqNo, String(user.maxSeqNo)],
    [USER_DATA_KEYS.historyUUID, user.historyUUID],
    [USER_DATA_KEYS.maxUnsafeAutoIdTimestamp, String(user.maxUnsafeAutoIdTimestamp)],
  ];
  out.writeVInt(entries.length);
  for (const [key, value] of entries) {
    out.writeString(key);
    out.writeString(value);
  }
  return finishCodecFile(out).bytes;
}

export function decodeCommitPoint(bytes: Buffer, resource: string, generation: number): CommitPoint {
  const suffix = generation.toString(36);
  const idOffset = headerLength(COMMIT_CODEC, suffix) - SEGMENT_ID_LENGTH - 1 - suffix.length;
  const id = bytes.length >= idOffset + SEGMENT_ID_LENGTH ? bytes.subarray(idOffset, idOffset + SEGMENT_ID_LENGTH) : new Uint8Array(SEGMENT_ID_LENGTH);
  const file = openCodecFile(bytes, resource, {
    codec: COMMIT_CODEC,
    minVersion: COMMIT_VERSION_START,
    maxVersion: COMMIT_VERSION_CURRENT,
    segmentId: id,
    suffix,
  });
  const body = file.body;
  const storedGeneration = body.readVLong();
  if (storedGeneration !== generation) throw body.corrupt(`commit point names generation ${storedGeneration}, file name says ${generation}`);
  const segmentCounter = body.readVLong();
  const count = body.readCount(20);
  const segments: CommittedSegment[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    const name = body.readString();
    const segmentId = Buffer.from(body.readBytes(SEGMENT_ID_LENGTH));
    const maxDoc = body.readVInt();
    const deletedCount = body.readVInt();
    const liveGen = body.readVLong();
    if (names.has(name)) throw body.corrupt(`segment [${name}] listed twice`);
    if (deletedCount > maxDoc) throw body.corrupt(`segment [${name}] has ${deletedCount} deleted docs but only ${maxDoc} docs`);
    if ((deletedCount > 0) !== (liveGen > 0)) throw body.corrupt(`segment [${name}] has ${deletedCount} deleted docs and live docs generation ${liveGen}`);
    names.add(name);
    segments.push({ name, id: segmentId, maxDoc, deletedCount, liveGen });
  }
  const entryCount = body.readCount(2);
  const raw = new Map<string, string>();
  for (let i = 0; i < entryCount; i++) raw.set(body.readString(), body.readString());
  if (body.remaining !== 0) throw body.corrupt(`${body.remaining} unexpected bytes after the commit point`);
  const text = (key: string): string => {
    const value = raw.get(key);
    if (value === undefined) throw body.corrupt(`commit user data misses [${key}]`);
    return value;
  };
  const integer = (key: string): number => {
    const value = Number(text(key));
    if (!Number.isSafeInteger(value)) throw body.corrupt(`commit user data [${key}] is not an integer: [${text(key)}]`);
    return value;
  };
  return {
    generation,
    segmentCounter,
    segments,
    userData: {
      translogUUID: text(USER_DATA_KEYS.translogUUID),
      translogGeneration: integer(USER_DATA_KEYS.translogGeneration),
      localCheckpoint: integer(USER_DATA_KEYS.localCheckpoint),
      maxSeqNo: integer(USER_DATA_KEYS.maxSeqNo),
      historyUUID: text(USER_DATA_KEYS.historyUUID),
      maxUnsafeAutoIdTimestamp: integer(USER_DATA_KEYS.maxUnsafeAutoIdTimestamp),
    },
  };
}
