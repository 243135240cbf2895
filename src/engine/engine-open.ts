/**
 * Opening a shard's engine (ES's InternalEngine constructor + recoverFromTranslog): load the newest commit
 * point, open and verify every segment it names (checksums, ids, doc counts), delete files no commit
 * references (leftovers of a crash or of abandoned merges), open the translog the commit names and replay
 * its operations above the commit's local checkpoint. A shard directory without any commit point never
 * acknowledged anything (the first commit is written before the engine is handed out), so it is started
 * afresh.
 *
 * Layout of a shard directory:
 *   <path>/index/segments_<N>               commit point (commit-point.ts)
 *   <path>/index/_<n>.{si,tim,doc,pos,nvd,dvd,fdt}  one segment (codec/)
 *   <path>/index/_<n>_<gen>.liv             live docs of a segment with deletes
 *   <path>/translog/translog-<gen>.tlog, translog-<gen>.ckp, translog.ckp   (translog/)
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBase64Uuid } from '../common/uuid.js';
import { readLatestCommitPoint, writeCommitPoint } from './commit/commit-store.js';
import type { CommitPoint } from './commit/commit-point.js';
import type { EngineConfig } from './engine.js';
import { InternalEngine } from './internal-engine.js';
import { createSegmentJobs } from './segments/segment-jobs.js';
import { CachedAnalyzers } from './indexing/indexing-buffer.js';
import { ShardSegments } from './segments/shard-segments.js';
import type { LoadedSegment } from './segments/loaded-segment.js';
import { FsDirectory } from './store/index.js';
import { Translog } from './translog/index.js';
import { LocalCheckpointTracker, NO_OPS_PERFORMED } from './versions/local-checkpoint-tracker.js';

export const INDEX_FOLDER = 'index';
export const TRANSLOG_FOLDER = 'translog';

export async function openEngine(config: EngineConfig): Promise<InternalEngine> {
  const indexPath = join(config.path, INDEX_FOLDER);
  const translogPath = join(config.path, TRANSLOG_FOLDER);
  const directory = await FsDirectory.open(indexPath);
  const files = await directory.listAll();
  const latest = await readLatestCommitPoint(indexPath, files);
  const translogOptions = { durability: config.durability, syncIntervalMs: config.translogSyncIntervalMillis, primaryTerm: config.primaryTerm };

  let commit: CommitPoint;
  let segments: ShardSegments;
  let translog: Translog;
  if (latest === null) {
    for (const file of files) await directory.deleteFile(file);
    await rm(translogPath, { recursive: true, force: true });
    translog = await Translog.open(translogPath, { ...translogOptions, createIfMissing: true });
    commit = {
      generation: 1,
      segmentCounter: 0,
      segments: [],
      userData: {
        translogUUID: translog.translogUUID,
        translogGeneration: translog.currentGeneration,
        localCheckpoint: NO_OPS_PERFORMED,
        maxSeqNo: NO_OPS_PERFORMED,
        historyUUID: randomBase64Uuid(),
        maxUnsafeAutoIdTimestamp: -1,
      },
    };
    try {
      const written = await writeCommitPoint(indexPath, commit);
      segments = ShardSegments.create(indexPath, directory, commit, [], written.bytes);
    } catch (err) {
      await translog.close().catch(() => undefined);
      throw err;
    }
  } else if (config.openMode === 'recovery_target') {
    // Files just copied from the primary (or a store kept from before, for an operations-based recovery): the
    // commit is the starting point and every operation above it comes from the primary, so the translog starts
    // empty under a new uuid, and a new commit ties the segments to it (ES's associateIndexWithNewTranslog).
    const loaded: LoadedSegment[] = [];
    for (const segment of latest.commit.segments) {
      loaded.push(await ShardSegments.loadCommitted(directory, segment.name, segment.id, segment.maxDoc, segment.deletedCount, segment.liveGen));
    }
    const referenced = new Set([...loaded.flatMap((segment) => segment.files()), latest.name]);
    for (const file of files) if (!referenced.has(file)) await directory.deleteFile(file);
    segments = ShardSegments.create(indexPath, directory, latest.commit, loaded, latest.bytes);
    await rm(translogPath, { recursive: true, force: true });
    translog = await Translog.open(translogPath, { ...translogOptions, createIfMissing: true });
    try {
      commit = await segments.commit({ ...latest.commit.userData, translogUUID: translog.translogUUID, translogGeneration: translog.currentGeneration });
    } catch (err) {
      await translog.close().catch(() => undefined);
      throw err;
    }
  } else {
    commit = latest.commit;
    const loaded: LoadedSegment[] = [];
    for (const segment of commit.segments) {
      loaded.push(await ShardSegments.loadCommitted(directory, segment.name, segment.id, segment.maxDoc, segment.deletedCount, segment.liveGen));
    }
    const referenced = new Set([...loaded.flatMap((segment) => segment.files()), latest.name]);
    for (const file of files) if (!referenced.has(file)) await directory.deleteFile(file);
    segments = ShardSegments.create(indexPath, directory, commit, loaded, latest.bytes);
    translog = await Translog.open(translogPath, { ...translogOptions, translogUUID: commit.userData.translogUUID });
  }

  const tracker = new LocalCheckpointTracker(commit.userData.maxSeqNo, commit.userData.localCheckpoint);
  const analyzers = new CachedAnalyzers(config.analyzers);
  const jobs = createSegmentJobs({
    mode: config.backgroundWork ?? 'worker',
    indexPath,
    compression: config.storedCompression ?? 'lz4',
    analyzers,
    analysis: config.analysisSettings === undefined ? null : { settings: config.analysisSettings, indexName: config.shardLabel.index },
    recovering: config.openMode === 'recovery_target',
    ...(config.indexingWorkers !== undefined && { indexingWorkers: config.indexingWorkers }),
  });
  const engine = new InternalEngine({
    config,
    translog,
    segments,
    jobs,
    tracker,
    historyUUID: commit.userData.historyUUID,
    maxUnsafeAutoIdTimestamp: commit.userData.maxUnsafeAutoIdTimestamp,
  });
  try {
    if (latest !== null && config.openMode !== 'recovery_target') await engine.recoverFromTranslog(commit.userData.localCheckpoint, config.replayUpToSeqNo);
  } catch (err) {
    await engine.close().catch(() => undefined);
    throw err;
  }
  engine.start();
  return engine;
}
