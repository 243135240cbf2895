/**
 * Runs one write on the primary copy of its shard, as TransportShardBulkAction.executeBulkItemRequest does:
 * documents are parsed against the current mapping, and when they introduce fields the mapping update goes
 * to the master first and the document is parsed again (so the indexed document always matches a mapping the
 * cluster knows); updates read the current document, merge, and write with compare-and-set on the version they
 * read, retrying up to `retry_on_conflict` times.
 */
import { EsError, indexErrors } from '../../common/errors.js';
import type { WriteResult } from '../../engine/engine.js';
import type { IndexService, IndexShard } from '../../indices/index.js';
import type { ParsedDocument } from '../../mapping/index.js';
import type { MetadataService } from '../../cluster/metadata/metadata-service.js';
import type { DocWriteItem, DocWriteSuccess, ShardInfo } from './doc-write.js';
import { sourceForResponse } from './fetch-source.js';
import { mergeInto, scriptsNotSupported, treeFromSource, treeToBytes } from './update-request.js';

/** How often a document may trigger a mapping update before we give up (concurrent updates may race). */
const MAX_MAPPING_ATTEMPTS = 5;

export interface PrimaryContext {
  readonly indexService: IndexService;
  readonly shard: IndexShard;
  readonly metadata: MetadataService;
  /** `_shards` of a performed write: every copy counts in total, only the primary answers. */
  readonly shardInfo: () => ShardInfo;
}

function isVersionConflict(err: unknown): boolean {
  return err instanceof EsError && err.type === 'version_conflict_engine_exception';
}

/** Parses `source`, taking any mapping update it needs through the master first. */
export async function parseWithMappingUpdates(context: PrimaryContext, source: Uint8Array, id: string, routing: string | undefined): Promise<ParsedDocument> {
  const { indexService, metadata } = context;
  let lastError: unknown;
  for (let attempt = 0; attempt < MAX_MAPPING_ATTEMPTS; attempt++) {
    const parsed = indexService.parseDocument(source, id, routing);
    if (parsed.mappingUpdate === undefined) return parsed;
    try {
      await metadata.addDynamicMapping(indexService.name, indexService.uuid, parsed.mappingUpdate);
    } catch (err) {
      // Another document may have mapped the field differently meanwhile: parsing again against the new mapping
      // either succeeds or fails with the document's own error. Otherwise the update's error is the answer.
      lastError = err;
      const again = indexService.parseDocument(source, id, routing);
      if (again.mappingUpdate !== undefined) throw err;
      return again;
    }
  }
  throw lastError ?? new EsError('illegal_state_exception', `mapping for document [${id}] kept changing; giving up after ${MAX_MAPPING_ATTEMPTS} attempts`);
}

function success(context: PrimaryContext, item: DocWriteItem, id: string, result: WriteResult, extra: Partial<DocWriteSuccess> = {}): DocWriteSuccess {
  return {
    kind: 'success',
    op: item.op,
    index: context.indexService.name,
    id,
    version: result.version,
    result: result.result,
    seqNo: result.seqNo,
    primaryTerm: result.primaryTerm,
    shards: context.shardInfo(),
    forcedRefresh: false,
    routing: item.routing,
    ...extra,
  };
}

export async function executeOnPrimary(context: PrimaryContext, item: DocWriteItem, id: string): Promise<DocWriteSuccess> {
  switch (item.op) {
    case 'index':
    case 'create': {
      const document = await parseWithMappingUpdates(context, item.source!, id, item.routing);
      const result = await context.shard.index({
        id,
        document,
        opType: item.op,
        versionType: item.versionType,
        version: item.version,
        ifSeqNo: item.ifSeqNo,
        ifPrimaryTerm: item.ifPrimaryTerm,
      });
      return success(context, item, id, result);
    }
    case 'delete': {
      const result = await context.shard.delete({
        id,
        routing: item.routing,
        versionType: item.versionType,
        version: item.version,
        ifSeqNo: item.ifSeqNo,
        ifPrimaryTerm: item.ifPrimaryTerm,
      });
      return success(context, item, id, result);
    }
    case 'update':
      return executeUpdate(context, item, id);
  }
}

async function executeUpdate(context: PrimaryContext, item: DocWriteItem, id: string): Promise<DocWriteSuccess> {
  const spec = item.update!;
  if (spec.hasScript) throw scriptsNotSupported();
  for (let attempt = 0; ; attempt++) {
    try {
      return await updateOnce(context, item, id);
    } catch (err) {
      if (isVersionConflict(err) && attempt < spec.retryOnConflict) continue;
      throw err;
    }
  }
}

function versionConflict(context: PrimaryContext, id: string, ifSeqNo: number, ifPrimaryTerm: number, seqNo: number, primaryTerm: number): EsError {
  return new EsError(
    'version_conflict_engine_exception',
    `[${id}]: version conflict, required seqNo [${ifSeqNo}], primary term [${ifPrimaryTerm}]. current document has seqNo [${seqNo}] and primary term [${primaryTerm}]`,
    { metadata: { index_uuid: context.indexService.uuid, shard: String(context.shard.shardId), index: context.indexService.name } },
  );
}

/** UpdateHelper.prepare + the write it leads to. */
async function updateOnce(context: PrimaryContext, item: DocWriteItem, id: string): Promise<DocWriteSuccess> {
  const spec = item.update!;
  const { indexService, shard } = context;
  const current = await shard.getForUpdate(id);
  const getBlock = (source: Uint8Array, seqNo: number, primaryTerm: number): Record<string, unknown> | undefined => {
    if (spec.fetchSource === undefined || !spec.fetchSource.fetch) return undefined;
    const block: Record<string, unknown> = { _seq_no: seqNo, _primary_term: primaryTerm };
    if (item.routing !== undefined) block['_routing'] = item.routing;
    block['found'] = true;
    block['_source'] = sourceForResponse(source, spec.fetchSource);
    return block;
  };
  if (!current.found) {
    const upsert = spec.docAsUpsert ? spec.doc : spec.upsert;
    if (upsert === undefined) throw indexErrors.documentMissing(indexService.name, indexService.uuid, shard.shardId, id);
    if (spec.scriptedUpsert) throw scriptsNotSupported();
    const source = treeToBytes(upsert);
    const document = await parseWithMappingUpdates(context, source, id, item.routing);
    const result = await shard.index({ id, document, opType: 'create', versionType: 'internal' });
    return success(context, item, id, result, { get: getBlock(source, result.seqNo, result.primaryTerm) });
  }
  if (item.ifSeqNo !== undefined && (item.ifSeqNo !== current.seqNo || item.ifPrimaryTerm !== current.primaryTerm)) {
    throw versionConflict(context, id, item.ifSeqNo, item.ifPrimaryTerm ?? 0, current.seqNo ?? -2, current.primaryTerm ?? 0);
  }
  if (current.source === undefined) throw indexErrors.documentSourceMissing(indexService.name, indexService.uuid, shard.shardId, id);
  const tree = treeFromSource(current.source);
  const modified = mergeInto(tree, spec.doc!, spec.detectNoop);
  if (spec.detectNoop && !modified) {
    const noop: WriteResult = { result: 'updated', version: current.version!, seqNo: current.seqNo!, primaryTerm: current.primaryTerm! };
    return {
      ...success(context, item, id, noop, { get: getBlock(current.source, current.seqNo!, current.primaryTerm!) }),
      result: 'noop',
      shards: { total: 0, successful: 0, failed: 0 },
    };
  }
  const source = treeToBytes(tree);
  const routing = item.routing ?? current.routing;
  const document = await parseWithMappingUpdates(context, source, id, routing);
  const result = await shard.index({
    id,
    document,
    opType: 'index',
    versionType: 'internal',
    ifSeqNo: current.seqNo,
    ifPrimaryTerm: current.primaryTerm,
  });
  return success(context, item, id, result, { get: getBlock(source, result.seqNo, result.primaryTerm) });
}
