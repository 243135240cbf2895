/**
 * Very large documents are parsed off the event loop (decision 0010): a document of 400,000 numbers takes
 * seconds to parse, encode and check, time in which the node could not answer `_cluster/health`. Documents
 * from LARGE_DOCUMENT_BYTES up go to a parse worker (document-parse-worker.ts); what comes back is the same
 * ParsedDocument, its fields already encoded for the engine (ParsedDocument.encodedFields).
 */
import { availableParallelism } from 'node:os';
import { fromPlainEsError } from '../common/errors.js';
import { toShared } from '../common/shared-bytes.js';
import { WorkerPool } from '../common/worker-pool.js';
import { noteSourceChecksum } from '../engine/index.js';
import type { ParsedDocument } from '../mapping/index.js';
import type { ParseJob, ParseReply } from './document-parse-worker.js';

/** From this size on (128 KiB of JSON), a document is parsed in a worker thread. */
export const LARGE_DOCUMENT_BYTES = 128 * 1024;

let pool: WorkerPool<ParseJob, ParseReply> | undefined;

function parsePool(): WorkerPool<ParseJob, ParseReply> {
  return (pool ??= new WorkerPool(new URL('./document-parse-worker.js', import.meta.url), 'gannet-parse', Math.max(1, Math.min(2, availableParallelism()))));
}

/** Parses `job` in a parse worker; the result is what parseDocument returns (parse errors are thrown alike). */
export async function parseInWorker(job: ParseJob): Promise<ParsedDocument> {
  // The worker reads the bytes in shared memory (decision 0019): a large request body already is (http's
  // body reader), anything else is copied there once, in slices. The document keeps the shared bytes as its
  // source, so the translog and the indexing worker reference them too instead of copying them again.
  const source = await toShared(job.source);
  const reply = await parsePool().run({ ...job, source });
  switch (reply.kind) {
    case 'failed':
      throw fromPlainEsError(reply.error);
    case 'mapping_update':
      return { id: job.id, routing: job.routing, source, storedSource: undefined, fields: [], ignored: [], docCount: undefined, mappingUpdate: reply.mappingUpdate };
    case 'parsed':
      if (reply.sourceChecksum !== undefined) noteSourceChecksum(source, reply.sourceChecksum);
      return {
        id: job.id,
        routing: job.routing,
        source,
        storedSource: reply.storedSource,
        fields: [],
        ignored: reply.ignored,
        docCount: reply.docCount,
        mappingUpdate: undefined,
        encodedFields: reply.encodedFields,
      };
  }
}
