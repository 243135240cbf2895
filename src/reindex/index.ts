/** Reindex, update_by_query and delete_by_query: the bulk-by-scroll worker, its throttle, status and response. */
export { BulkByScrollWorker, type BulkByScrollResult, type BulkFailure, type WorkerOptions } from './worker.js';
export type { BulkByScrollClient, BulkOptions, ScrollHit, ScrollPage, SearchFailure, SourceSearch, WriteRequest, WriteResult, WriteVersionType } from './client.js';
export {
  DEFAULT_SCROLL_KEEP_ALIVE_MILLIS,
  DEFAULT_SCROLL_SIZE,
  MAX_DOCS_ALL_MATCHES,
  type BulkByScrollRequest,
  type DestRouting,
  type HitConversion,
  type HitScript,
  type HitScriptStep,
} from './request.js';
export { scriptApplier, type ScriptApplierOptions } from './script-applier.js';
export { workerHitScript, type WorkerScriptOptions } from './script-pool.js';
export { emptyCounts, FULL_STATUS, statusFields, sumStatuses, type BulkByScrollCounts, type BulkByScrollStatus, type StatusRenderOptions } from './status.js';
export { parseRequestsPerSecond, perfectlyThrottledBatchNanos, rescaledDelayNanos, SYSTEM_CLOCK, Throttle, throttleWaitNanos, MAX_THROTTLE_WAIT_NANOS, type ThrottleClock } from './throttle.js';
export { causeJson, responseBody, responseStatus } from './response.js';
export { BulkByScrollLeader } from './slices/leader.js';
export { autoSliceCount, sliceRequest, AUTO_SLICE_CEILING } from './slices/slice-request.js';
export { bulkByScrollStateOf, registerBulkByScrollTask, type Rethrottleable } from './slices/bulk-by-scroll-tasks.js';
