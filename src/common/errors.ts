/**
 * The one error table. Every error a user can see is an EsError built here, so the ES `type`, the HTTP
 * status and the wording live in one place. `type` is what Elasticsearch puts on the wire (the Java
 * exception class in snake_case); `status` is the HTTP status ES answers with for that exception.
 */
import { didYouMean } from './did-you-mean.js';
import { describeSystemError, isSystemError, redactPaths } from './redact.js';

/** ES exception type -> HTTP status, as Elasticsearch maps them. */
export const ERROR_STATUS = {
  illegal_argument_exception: 400,
  parse_exception: 400,
  parsing_exception: 400,
  x_content_parse_exception: 400,
  // An unknown named object (query, score function): an XContentParseException, so an IllegalArgumentException.
  named_object_not_found_exception: 400,
  // QueryValidationException (a ValidationException, so an IllegalArgumentException).
  query_validation_exception: 400,
  json_parse_exception: 400,
  // Netty's decoder limits on the request line and headers, which ES answers with a 400.
  too_long_http_line_exception: 400,
  too_long_http_header_exception: 400,
  not_x_content_exception: 400,
  media_type_header_exception: 400,
  action_request_validation_exception: 400,
  invalid_index_template_exception: 400,
  index_template_missing_exception: 404,
  illegal_state_exception: 500,
  resource_not_found_exception: 404,
  index_not_found_exception: 404,
  resource_already_exists_exception: 400,
  no_such_node_exception: 404,
  failed_node_exception: 500,
  task_cancelled_exception: 400,
  timeout_exception: 500,
  receive_timeout_transport_exception: 500,
  connect_transport_exception: 500,
  node_not_connected_exception: 500,
  node_disconnected_exception: 500,
  action_not_found_transport_exception: 500,
  transport_serialization_exception: 500,
  unsupported_operation_exception: 500,
  version_conflict_engine_exception: 409,
  document_missing_exception: 404,
  circuit_breaking_exception: 429,
  es_rejected_execution_exception: 429,
  master_not_discovered_exception: 503,
  // NotMasterException: internal, a node that stopped being master; senders retry with the next one.
  not_master_exception: 503,
  // FailedToCommitClusterStateException: the fenced state write did not commit (this master was deposed).
  failed_to_commit_cluster_state_exception: 503,
  cluster_block_exception: 403,
  node_closed_exception: 500,
  // NoNodeAvailableException: a replication request's copy sits on a node this node's cluster state does not know.
  no_node_available_exception: 503,
  security_exception: 403,
  status_exception: 400,
  mapper_parsing_exception: 400,
  // Jackson's StreamConstraintsException (an IOException): only ever a caused_by of document_parsing_exception.
  stream_constraints_exception: 500,
  document_parsing_exception: 400,
  // Only ever a caused_by (java.time's parse failure); ES would answer 500 were it thrown bare.
  date_time_parse_exception: 500,
  date_time_exception: 500,
  zone_rules_exception: 500,
  // ES's MapperException (e.g. changing an object's `enabled`): an ElasticsearchException with no status of its own.
  mapper_exception: 500,
  strict_dynamic_mapping_exception: 400,
  invalid_index_name_exception: 400,
  index_closed_exception: 400,
  number_format_exception: 400,
  too_many_buckets_exception: 400,
  // Lucene's IndexSearcher.TooManyClauses / TooManyNestedClauses: only ever causes (query_shard_exception,
  // illegal_argument_exception "Query rewrite failed").
  too_many_clauses: 500,
  too_many_nested_clauses: 500,
  // Lucene's TooComplexToDeterminizeException: only ever a cause of query_shard_exception.
  too_complex_to_determinize_exception: 500,
  // Aggregation builder/collection failures: ElasticsearchExceptions without a status of their own (500).
  aggregation_initialization_exception: 500,
  aggregation_execution_exception: 500,
  search_phase_execution_exception: 400,
  search_context_missing_exception: 404,
  query_shard_exception: 400,
  corrupt_index_exception: 500,
  index_format_too_old_exception: 500,
  index_format_too_new_exception: 500,
  translog_corrupted_exception: 500,
  translog_exception: 500,
  already_closed_exception: 500,
  routing_missing_exception: 400,
  invalid_alias_name_exception: 400,
  // AliasesNotFoundException, a ResourceNotFoundException.
  aliases_not_found_exception: 404,
  unavailable_shards_exception: 503,
  // Replication and recovery (ES: plain ElasticsearchExceptions or IllegalIndexShardStateExceptions, 500).
  no_longer_primary_shard_exception: 500,
  retry_on_primary_exception: 500,
  shard_not_in_primary_mode_exception: 500,
  index_shard_relocated_exception: 500,
  recovery_failed_exception: 500,
  delay_recovery_exception: 500,
  no_shard_available_action_exception: 503,
  // ShardNotFoundException (a ResourceNotFoundException): the copy is not on the node asked.
  shard_not_found_exception: 404,
  process_cluster_event_timeout_exception: 503,
  validation_exception: 400,
  document_source_missing_exception: 400,
  // Painless: a ScriptException is a 400; the Java exceptions below only ever appear as its caused_by.
  script_exception: 400,
  null_pointer_exception: 500,
  class_cast_exception: 500,
  arithmetic_exception: 500,
  index_out_of_bounds_exception: 500,
  string_index_out_of_bounds_exception: 500,
  painless_error: 500,
  exception: 500,
} as const;

export type EsErrorType = keyof typeof ERROR_STATUS;

export interface EsErrorOptions {
  /** Extra keys ES writes next to `type` and `reason` (e.g. `index`, `resource.id`). */
  metadata?: Record<string, unknown>;
  causedBy?: EsError;
  /** Overrides the table's status (ES does this for a few wrapped exceptions). */
  status?: number;
  /** ES's guessRootCauses when it is not the cause chain (a search phase failure lists its shards' causes). */
  rootCauses?: readonly EsError[];
  /** What was thrown underneath (a system or internal error): for the node's log and `error_trace`, never the reason. */
  cause?: unknown;
  /** ES built the exception without a message and prints `"reason": null` (an unassigned shard's failure). */
  nullReason?: boolean;
}

/** An error with Elasticsearch's wire identity. */
export class EsError extends Error {
  readonly type: string;
  readonly status: number;
  readonly metadata: Record<string, unknown>;
  readonly causedBy: EsError | undefined;
  readonly rootCauses: readonly EsError[] | undefined;
  /** True when ES prints this exception's reason as `null` (see printedReason). */
  readonly nullReason: boolean;

  constructor(type: EsErrorType, reason: string, options: EsErrorOptions = {}) {
    // A reason is shown to clients: paths under the node's directories are shown relative to them (common/redact.ts).
    super(redactPaths(reason), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EsError';
    this.type = type;
    this.status = options.status ?? ERROR_STATUS[type];
    this.metadata = options.metadata ?? {};
    this.causedBy = options.causedBy;
    this.rootCauses = options.rootCauses;
    this.nullReason = options.nullReason === true;
  }

  get reason(): string {
    return this.message;
  }

  /** The `reason` of the JSON body: null for an exception ES builds without a message. */
  get printedReason(): string | null {
    return this.nullReason ? null : this.message;
  }
}

/** An EsError as plain data, to cross a thread (or any boundary that copies values). */
export interface PlainEsError {
  readonly type: string;
  readonly reason: string;
  readonly status: number;
  readonly metadata: Record<string, unknown>;
  readonly causedBy?: PlainEsError;
}

export function toPlainEsError(error: EsError): PlainEsError {
  return { type: error.type, reason: error.reason, status: error.status, metadata: error.metadata, ...(error.causedBy !== undefined && { causedBy: toPlainEsError(error.causedBy) }) };
}

export function fromPlainEsError(plain: PlainEsError): EsError {
  // The type came from an EsError, so it is one of the table's.
  return new EsError(plain.type as EsErrorType, plain.reason, {
    status: plain.status,
    metadata: plain.metadata,
    ...(plain.causedBy !== undefined && { causedBy: fromPlainEsError(plain.causedBy) }),
  });
}


/** The reason of every internal error a client sees: stable, and free of paths and JavaScript internals. */
export const INTERNAL_ERROR_REASON = 'internal error: the request failed on the node; its log has the details';

type InternalErrorReporter = (error: unknown) => void;
let reportInternalError: InternalErrorReporter = () => undefined;

/** Where an unexpected error (a bug: TypeError, RangeError, ...) is logged in full, once; the node sets it at start. */
export function setInternalErrorReporter(reporter: InternalErrorReporter): void {
  reportInternalError = reporter;
}

// One wrapper per thrown value: callers may convert the same error several times (status, then body).
const wrapped = new WeakMap<object, EsError>();

/**
 * Wraps anything thrown into an EsError, never a crash. An operating system error keeps its code and call
 * ("ENOSPC: no space left on device, write") without the path; anything else unexpected becomes a 500 `exception`
 * with INTERNAL_ERROR_REASON, reported once to the node's log with its stack (the original rides along as `cause`,
 * which `error_trace=true` shows).
 */
export function toEsError(err: unknown): EsError {
  if (err instanceof EsError) return err;
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return new EsError('illegal_argument_exception', 'request is nested too deeply');
  }
  const key = err !== null && typeof err === 'object' ? err : undefined;
  const known = key === undefined ? undefined : wrapped.get(key);
  if (known !== undefined) return known;
  let error: EsError;
  if (isSystemError(err)) error = new EsError('exception', describeSystemError(err), { cause: err });
  else {
    reportInternalError(err);
    error = new EsError('exception', INTERNAL_ERROR_REASON, { cause: err });
  }
  if (key !== undefined) wrapped.set(key, error);
  return error;
}

/** A thrown value's message as a client may read it (for wrapping it into another error's reason). */
export function describeError(err: unknown): string {
  return toEsError(err).reason;
}

// ---- Message templates shared by several modules. Wording follows Elasticsearch. ----

export const errors = {
  illegalArgument: (reason: string, causedBy?: EsError) => new EsError('illegal_argument_exception', reason, { causedBy }),
  /** Java's IllegalStateException, which ES answers with 500. */
  illegalState: (reason: string) => new EsError('illegal_state_exception', reason),

  /** Lucene's TooManyClauses met while rewriting on a shard, as ES 8.16+ reports it (a 400, not a 500). */
  rewriteTooManyClauses: (maxClauseCount: number) =>
    new EsError('illegal_argument_exception', 'Query rewrite failed: too many clauses', {
      causedBy: new EsError('too_many_clauses', `maxClauseCount is set to ${maxClauseCount}`),
    }),

  unrecognizedParameters(path: string, unknown: string[], suggestions: Map<string, string[]>): EsError {
    const parts = unknown.map((name) => {
      const candidates = suggestions.get(name) ?? [];
      if (candidates.length === 1) return `[${name}] -> did you mean [${candidates[0]}]?`;
      if (candidates.length > 1) return `[${name}] -> did you mean any of [${candidates.join(', ')}]?`;
      return `[${name}]`;
    });
    const noun = unknown.length === 1 ? 'parameter' : 'parameters';
    return new EsError('illegal_argument_exception', `request [${path}] contains unrecognized ${noun}: ${parts.join(', ')}`);
  },

  bodyNotSupported: (method: string, path: string) =>
    new EsError('illegal_argument_exception', `request [${method} ${path}] does not support having a body`),

  bodyRequired: () => new EsError('parse_exception', 'request body is required'),

  malformedTaskId: (raw: string) => new EsError('illegal_argument_exception', `malformed task id ${raw}`),

  // ---- Tasks API (TransportGetTaskAction, TransportCancelTasksAction, TaskManager, RestListTasksAction) ----

  taskNotCancellable: (taskId: string) => new EsError('illegal_argument_exception', `task [${taskId}] doesn't support cancellation`),

  taskDoesNotSupportOperation: (taskId: string) =>
    new EsError('illegal_argument_exception', `task [${taskId}] doesn't support this operation`),

  /** TransportTasksAction.processTasks for one target task (rethrottle). */
  taskMissing: (taskId: string) => new EsError('resource_not_found_exception', `task [${taskId}] is missing`),
  taskOperationNotSupported: (taskId: string) => new EsError('resource_not_found_exception', `task [${taskId}] doesn't support this operation`),
  /** RestRethrottleAction without `requests_per_second`. */
  rethrottleRateRequired: () => new EsError('illegal_argument_exception', 'requests_per_second is a required parameter'),
  /** TransportRethrottleAction.rethrottle for a bulk-by-scroll task with neither a worker nor a leader yet. */
  rethrottleNotInitialized: (id: number) =>
    new EsError('illegal_argument_exception', `task [${id}] has not yet been initialized to the point where it knows how to rethrottle itself`),

  taskToCancelNotFound: (taskId: string) => new EsError('resource_not_found_exception', `task [${taskId}] is not found`),

  taskNotRunningNoResults: (taskId: string, causedBy?: EsError) =>
    new EsError('resource_not_found_exception', `task [${taskId}] isn't running and hasn't stored its results`, { causedBy }),

  /** TransportGetTaskAction: the `.tasks` document exists but has no source. */
  storedTaskWithoutSource: (taskId: string) => new EsError('exception', `Stored task status for [${taskId}] didn't contain any source!`),

  /** The `.tasks` document does not parse as a stored task result (ES: TaskResult.PARSER's failure). */
  storedTaskUnreadable: (taskId: string, problem: string) =>
    new EsError('x_content_parse_exception', `[stored_task_result] failed to parse the stored result of task [${taskId}]: ${problem}`),

  taskNodeNotInCluster: (taskId: string, nodeId: string, causedBy: EsError) =>
    new EsError(
      'resource_not_found_exception',
      `task [${taskId}] belongs to the node [${nodeId}] which isn't part of the cluster and there is no record of the task`,
      { causedBy },
    ),

  taskCancelledBeforeStarting: (reason: string) => new EsError('task_cancelled_exception', `task cancelled before starting [${reason}]`),

  parentTaskCancelled: (reason: string) => new EsError('task_cancelled_exception', `parent task was cancelled [${reason}]`),

  tasksGroupByInvalid: (value: string) =>
    new EsError('illegal_argument_exception', `[group_by] must be one of [nodes], [parents] or [none] but was [${value}]`),

  /** ES's ActionRequestValidationException: `Validation Failed: 1: <first>;2: <second>;`. */
  requestValidation: (problems: readonly string[]) =>
    new EsError('action_request_validation_exception', `Validation Failed: ${problems.map((p, i) => `${i + 1}: ${p};`).join('')}`),

  /** SubscribableListener.addTimeout's ElasticsearchTimeoutException. */
  timedOutAfter: (timeoutText: string, timeoutMillis: number) =>
    new EsError('timeout_exception', `timed out after [${timeoutText}/${timeoutMillis}ms]`),

  nodeNotConnected: (nodeName: string, address: string) =>
    new EsError('node_not_connected_exception', `[${nodeName}][${address}] Node not connected`),

  /** NodeDisconnectedException: the connection closed with the request in flight. */
  nodeDisconnected: (nodeName: string, address: string, action: string) =>
    new EsError('node_disconnected_exception', `[${nodeName}][${address}][${action}] disconnected`),

  /** NotMasterException: this node is not (or no longer) the elected master. */
  notMaster: (detail: string) => new EsError('not_master_exception', detail),

  /** MasterNotDiscoveredException as TransportMasterNodeAction raises it when master_timeout passes without a master. */
  masterNotDiscovered: () => new EsError('master_not_discovered_exception', 'no known master node'),

  /** The fenced cluster-state write did not commit: another master took over (or the state moved under us). */
  failedToCommitState: (detail: string) => new EsError('failed_to_commit_cluster_state_exception', detail),

  /** The no-master block (NoMasterBlockService, level write): ClusterBlockException with status 503. */
  noMasterBlock: () => new EsError('cluster_block_exception', 'blocked by: [SERVICE_UNAVAILABLE/2/no master];', { status: 503 }),

  failedToParseBoolean: (name: string, value: string) =>
    new EsError(
      'illegal_argument_exception',
      `Failed to parse value [${value}] only [true] or [false] are allowed.`,
      { metadata: {} },
    ),

  failedToParseTime: (name: string, value: string) =>
    new EsError('illegal_argument_exception', `failed to parse setting [${name}] with value [${value}] as a time value: unit is missing or unrecognized`),

  jsonParse: (detail: string) => new EsError('x_content_parse_exception', detail),

  notXContent: () =>
    new EsError('not_x_content_exception', 'Compressor detection can only be called on some xcontent bytes or compressed xcontent bytes'),

  mediaTypeHeader: (detail: string) =>
    new EsError('media_type_header_exception', 'Invalid media-type value on headers [Accept, Content-Type]', {
      causedBy: new EsError('status_exception', detail),
    }),

  resourceNotFound: (reason: string, causedBy?: EsError) => new EsError('resource_not_found_exception', reason, { causedBy }),

  indexNotFound: (index: string) =>
    new EsError('index_not_found_exception', `no such index [${index}]`, {
      metadata: { 'resource.type': 'index_or_alias', 'resource.id': index, index_uuid: '_na_', index },
    }),

  /**
   * ES's IndexNameExpressionResolver.notFoundException: what a missing index, alias or expression reports,
   * depending on how many expressions the request named.
   */
  indexExpressionNotFound(expressions: readonly string[]): EsError {
    if (expressions.length === 0 || (expressions.length === 1 && expressions[0] === '_all')) {
      return new EsError('index_not_found_exception', 'no such index [_all] and no indices exist', {
        metadata: { 'resource.type': 'index_or_alias', 'resource.id': '_all', index_uuid: '_na_', index: '_all' },
      });
    }
    if (expressions.length === 1) {
      const expression = expressions[0]!;
      const reason = expression.startsWith('-')
        ? `no such index [${expression}] and if you intended to exclude this index, ensure that you use wildcards that include it before explicitly excluding it`
        : `no such index [${expression}]`;
      return new EsError('index_not_found_exception', reason, {
        metadata: { 'resource.type': 'index_or_alias', 'resource.id': expression, index_uuid: '_na_', index: expression },
      });
    }
    return new EsError('index_not_found_exception', 'no such index [null]', {
      metadata: { 'resource.type': 'index_expression', 'resource.id': [...expressions] },
    });
  },

  invalidIndexName: (name: string, description: string) =>
    new EsError('invalid_index_name_exception', `Invalid index name [${name}], ${description}`, {
      metadata: { index_uuid: '_na_', index: name },
    }),

  indexClosed: (index: string, uuid = '_na_') => new EsError('index_closed_exception', 'closed', { metadata: { index_uuid: uuid, index } }),
  /** ES's MetadataIndexStateService check of `cluster.indices.close.enable` (an IllegalStateException). */
  closingIndicesDisabled: () =>
    new EsError(
      'illegal_state_exception',
      'closing indices is disabled - set [cluster.indices.close.enable: true] to enable it. NOTE: closed indices still consume a significant amount of diskspace',
    ),

  /** Java's NumberFormatException from Integer.parseInt, which ES lets through as a 400. */
  numberFormat: (input: string) => new EsError('number_format_exception', `For input string: "${input}"`),

  /** Java's Enum.valueOf failure, e.g. for `wait_for_status=purple`. */
  noEnumConstant: (enumClass: string, name: string) => new EsError('illegal_argument_exception', `No enum constant ${enumClass}.${name}`),

  /**
   * NoShardAvailableActionException as a search reports a shard copy that is not there: a shard with no started
   * copy has no message (`"reason": null`); a copy that failed as not available (ES's isShardNotAvailableException)
   * is wrapped under this type with the message of the transport exception it arrived in,
   * `[node name][address][action]` (AbstractSearchAsyncAction.onShardFailure), and neither keeps a cause.
   */
  searchShardNotAvailable: (transportMessage: string | undefined) =>
    new EsError('no_shard_available_action_exception', transportMessage ?? '', { nullReason: transportMessage === undefined }),

  noSuchNode: (nodeId: string) => new EsError('no_such_node_exception', `No such node [${nodeId}]`, { metadata: { node_id: nodeId } }),

  /** SearchScrollAsyncAction: a scroll context on a node the cluster does not know (it left, taking its contexts along). */
  scrollNodeNotAvailable: (nodeId: string) => new EsError('illegal_state_exception', `node [${nodeId}] is not available`),

  /** ShardNotFoundException: the node asked holds no such copy (broadcast actions count it as not available). */
  shardNotFound: (index: string, indexUuid: string, shard: number) =>
    new EsError('shard_not_found_exception', 'no such shard', { metadata: { index_uuid: indexUuid, shard: String(shard), index } }),

  failedNode: (nodeId: string, causedBy: EsError) =>
    new EsError('failed_node_exception', `Failed node [${nodeId}]`, { metadata: { node_id: nodeId }, causedBy }),

  // ---- Nodes info/stats (RestNodesStatsAction, BaseRestHandler.unrecognized, NodeStatsLevel) ----

  /** BaseRestHandler.unrecognized for metric names: `contains unrecognized metric: [x]` / `metrics: [a] -> did you mean [b]?, [c]`. */
  unrecognizedMetrics(path: string, unknown: readonly string[], suggestions: ReadonlyMap<string, readonly string[]>, kind: string): EsError {
    const parts = unknown.map((name) => {
      const candidates = suggestions.get(name) ?? [];
      if (candidates.length === 1) return `[${name}] -> did you mean [${candidates[0]}]?`;
      if (candidates.length > 1) return `[${name}] -> did you mean any of [${candidates.join(', ')}]?`;
      return `[${name}]`;
    });
    const noun = unknown.length === 1 ? kind : `${kind}s`;
    return new EsError('illegal_argument_exception', `request [${path}] contains unrecognized ${noun}: ${parts.join(', ')}`);
  },

  allAndIndividualMetrics: (path: string, metrics: string) =>
    new EsError('illegal_argument_exception', `request [${path}] contains _all and individual metrics [${metrics}]`),

  indexMetricsWithAllStats: (path: string, indexMetrics: string) =>
    new EsError('illegal_argument_exception', `request [${path}] contains index metrics [${indexMetrics}] but all stats requested`),

  indexMetricsWithoutIndices: (path: string, indexMetrics: string) =>
    new EsError('illegal_argument_exception', `request [${path}] contains index metrics [${indexMetrics}] but indices stats not requested`),

  nodeStatsLevel: (level: string) =>
    new EsError('illegal_argument_exception', `level parameter must be one of [node] or [indices] or [shards] but was [${level}]`),

  taskCancelled: (reason: string) => new EsError('task_cancelled_exception', `task cancelled [${reason}]`),

  /**
   * An API family Gannet does not have (snapshots, licensing, security, ...): 501 Not Implemented with Java's
   * UnsupportedOperationException as the type, so a client parses an ordinary ES error body and an operator
   * reads why. Never a routing error that suggests the path exists (docs/decisions/0009).
   */
  featureNotAvailable: (feature: string, why: string) =>
    new EsError('unsupported_operation_exception', `${feature}: not available in Gannet; ${why} (see docs/compat.md)`, { status: 501 }),

  timeout: (reason: string) => new EsError('timeout_exception', reason),

  // Lucene's CorruptIndexException and IndexFormatTooOld/NewException, as ES reports them: the resource
  // (the file) is appended in parentheses so the operator knows which file to look at.
  corruptIndex: (message: string, resource: string) =>
    new EsError('corrupt_index_exception', `${message} (resource=${resource})`),

  indexFormatTooOld: (resource: string, version: number, minVersion: number, maxVersion: number) =>
    new EsError(
      'index_format_too_old_exception',
      `Format version is not supported (resource ${resource}): ${version} (needs to be between ${minVersion} and ${maxVersion}). This version of Gannet does not support this index anymore; reindex it with a version that can still read it`,
    ),

  indexFormatTooNew: (resource: string, version: number, minVersion: number, maxVersion: number) =>
    new EsError(
      'index_format_too_new_exception',
      `Format version is not supported (resource ${resource}): ${version} (needs to be between ${minVersion} and ${maxVersion})`,
    ),
};

// ---- Indices and documents (MetadataCreateIndexService, IndexRouting, UpdateHelper, ClusterBlocks). ----

export const indexErrors = {
  alreadyExists: (index: string, uuid: string) =>
    new EsError('resource_already_exists_exception', `index [${index}/${uuid}] already exists`, { metadata: { index_uuid: uuid, index } }),

  routingMissing: (index: string, id: string) =>
    new EsError('routing_missing_exception', `routing is required for [${index}]/[${id}]`, { metadata: { index_uuid: '_na_', index } }),

  /** IndexNotFoundException(message, index): "no such index [x] and <why>". */
  indexNotFoundBecause: (index: string, why: string) =>
    new EsError('index_not_found_exception', `no such index [${index}] and ${why}`, {
      metadata: { 'resource.type': 'index_or_alias', 'resource.id': index, index_uuid: '_na_', index },
    }),

  documentMissing: (index: string, uuid: string, shard: number, id: string) =>
    new EsError('document_missing_exception', `[${id}]: document missing`, { metadata: { index_uuid: uuid, shard: String(shard), index } }),

  documentSourceMissing: (index: string, uuid: string, shard: number, id: string) =>
    new EsError('document_source_missing_exception', `[${id}]: document source missing`, { metadata: { index_uuid: uuid, shard: String(shard), index } }),

  /** ClusterBlockException for index-level blocks: "index [x] blocked by: [FORBIDDEN/8/index write (api)];". */
  blocked: (index: string, block: string, status = 403) =>
    new EsError('cluster_block_exception', `index [${index}] blocked by: [${block}];`, { status }),

  wildcardsNotAllowed: () => new EsError('illegal_argument_exception', 'Wildcard expressions or all indices are not allowed'),

  /** RestCreateIndexAction.prepareMappings (also legacy templates): a mapping under `_doc` in an ES 8 request. */
  typedCreateMappings: () =>
    new EsError('illegal_argument_exception', 'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.'),

  /** RestPutMappingAction: a mapping under `_doc` (ES 8), or a type without include_type_name (compatible-with=7). */
  typedPutMapping: (compatibleWith7: boolean) =>
    new EsError(
      'illegal_argument_exception',
      compatibleWith7 ? 'Types cannot be provided in put mapping requests, unless the include_type_name parameter is set to true.' : 'Types cannot be provided in put mapping requests',
    ),

  /** RestCreateIndexAction.prepareMappingsV7: include_type_name with an empty type name. */
  emptyTypeName: () => new EsError('illegal_argument_exception', 'name cannot be empty string'),

  /** DateMathExpressionResolver's ElasticsearchParseException for a malformed `<name-{math}>` expression. */
  dateMathNameInvalid: (message: string) => new EsError('parse_exception', message),

  /** java.time's ZoneRulesException from DateUtils.of for the zone of a date math index name (unhandled in ES: 500). */
  unknownTimeZone: (zoneId: string) => new EsError('zone_rules_exception', `Unknown time-zone ID: ${zoneId}`),

  // ---- Shard engine (InternalEngine): errors carry the shard's metadata as ES's EngineException does ----

  /** VersionConflictEngineException: `[<id>]: version conflict, <explanation>`. */
  versionConflict: (id: string, explanation: string, shard: ShardLabel) =>
    new EsError('version_conflict_engine_exception', `[${id}]: version conflict, ${explanation}`, { metadata: shardMetadata(shard) }),

  /** AlreadyClosedException of a closed or failed engine; `causedBy` is the failure that closed it. */
  engineClosed: (shard: ShardLabel, causedBy?: EsError) =>
    new EsError('already_closed_exception', `[${shard.index}][${shard.shard}] engine is closed`, { causedBy }),

  /** No active copy of a shard to run an operation on (ES's UnavailableShardsException). */
  unavailableShards: (index: string, shard: number, reason: string) =>
    new EsError('unavailable_shards_exception', `[${index}][${shard}] ${reason}`, { metadata: {} }),
};

// ---- Where a request comes from (http/request-origin.ts; ES has no such checks: decision 0008) ----

export const httpOriginErrors = {
  /** A browser's cross-site request that could change state, while CORS is off. */
  /** `source` says how the request was recognised: `from [<origin>]` or `marked [Sec-Fetch-Site: cross-site]`. */
  crossSiteRequest: (source: string) =>
    new EsError(
      'security_exception',
      `cross-site request ${source} refused: with CORS disabled a web page may not send requests that change state; ` +
        'to allow a site, set [http.cors.enabled] to true and list it in [http.cors.allow-origin]',
    ),
  /** A Host header naming neither an address of the node nor a configured name (DNS rebinding). */
  hostNotAllowed: (host: string) =>
    new EsError(
      'security_exception',
      `request addressed to host [${host}] refused: it is not an IP address, localhost, this machine's host name or a name in [http.allowed_hosts]; ` +
        'add the name to [http.allowed_hosts] to accept it',
    ),
};

// ---- Replication and peer recovery (ReplicationOperation, ShardStateAction, IndexShard, RecoveryTarget). ----

export const replicationErrors = {
  /** ReplicasProxy.performOn's NoNodeAvailableException: the copy's node is not in the primary's cluster state. */
  unknownNode: (nodeId: string) => new EsError('no_node_available_exception', `unknown node [${nodeId}]`),

  /** ShardNotFoundException: the copy is not (or no longer) on this node. */
  shardNotFound: (index: string, uuid: string, shard: number, detail?: string) =>
    new EsError('shard_not_found_exception', detail === undefined ? 'no such shard' : `no such shard (${detail})`, { metadata: { index_uuid: uuid, shard: String(shard), index } }),

  /** IndexShard.acquireReplicaOperationPermit: an operation of an older primary term. */
  termTooOld: (index: string, shard: number, operationTerm: number, currentTerm: number) =>
    new EsError('illegal_state_exception', `[${index}][${shard}] operation primary term [${operationTerm}] is too old (current [${currentTerm}])`),

  /**
   * Gannet's rollback (docs/decisions/0013): a copy that meets a new primary term while it holds operations above
   * the global checkpoint refuses it; its new primary fails it and it recovers from that primary. ES resets the
   * engine in place instead (IndexShard.resetEngineToGlobalCheckpoint), so it has no such error.
   */
  rollbackByRecovery: (index: string, shard: number, operationTerm: number, currentTerm: number, maxSeqNo: number, globalCheckpoint: number) =>
    new EsError(
      'illegal_state_exception',
      `[${index}][${shard}] cannot take operations of primary term [${operationTerm}] (current [${currentTerm}]): this copy holds operations up to seq_no [${maxSeqNo}] above the global checkpoint [${globalCheckpoint}] that the new primary may not have; it must recover from the new primary`,
    ),

  /** ShardStateAction.NoLongerPrimaryShardException: the master has a newer primary term for the shard. */
  noLongerPrimary: (index: string, uuid: string, shard: number, sentTerm: number, currentTerm: number) =>
    new EsError('no_longer_primary_shard_exception', `primary term [${sentTerm}] did not match current primary term [${currentTerm}]`, {
      metadata: { index_uuid: uuid, shard: String(shard), index },
    }),

  /** RetryOnPrimaryException: this copy stopped being the primary while the write ran; the write failed. */
  retryOnPrimary: (index: string, uuid: string, shard: number, reason: string, causedBy?: EsError) =>
    new EsError('retry_on_primary_exception', reason, { metadata: { index_uuid: uuid, shard: String(shard), index }, causedBy }),

  /** ShardNotInPrimaryModeException: a write reached a copy that is not (or no longer) in primary mode. */
  notInPrimaryMode: (index: string, uuid: string, shard: number, state: string) =>
    new EsError('shard_not_in_primary_mode_exception', `CurrentState[${state}] shard is not in primary mode`, { metadata: { index_uuid: uuid, shard: String(shard), index } }),

  /**
   * IndexShardRelocatedException (IndexShard.updateShardState): a primary that handed its context to its relocation
   * target is told the relocation is off (the target failed or left); it cannot take primary mode back without
   * risking two primaries, so it fails and an in-sync replica is promoted under a new term.
   */
  shardRelocated: (index: string, uuid: string, shard: number, newState: string) =>
    new EsError('index_shard_relocated_exception', `CurrentState[RELOCATED] Shard is marked as relocated, cannot safely move to state ${newState}`, {
      metadata: { index_uuid: uuid, shard: String(shard), index },
    }),

  /** RecoveryFailedException: "[index][shard]: Recovery failed from {source} into {target}". */
  recoveryFailed: (index: string, shard: number, sourceNode: string, targetNode: string, causedBy: EsError) =>
    new EsError('recovery_failed_exception', `[${index}][${shard}]: Recovery failed from ${sourceNode} into ${targetNode}`, { causedBy }),

  /** DelayRecoveryException: the primary has not applied the state that names the recovering copy yet. */
  delayRecovery: (reason: string) => new EsError('delay_recovery_exception', reason),
};

// ---- Scripts (ScriptService, UpdateHelper); painless's own causes are worded in src/script/messages.ts ----

export const scriptErrors = {
  /** ScriptService.compile: a lang with no script engine. */
  langNotSupported: (lang: string) => new EsError('illegal_argument_exception', `script_lang not supported [${lang}]`),
  /** A stored script lookup: Gannet keeps no stored scripts, so every id is missing. */
  storedScriptMissing: (id: string) => new EsError('resource_not_found_exception', `unable to find script [${id}] in cluster state`),
  /** ExpressionScriptEngine / MustacheScriptEngine.compile for a context they cannot run (the write contexts). */
  engineContextUnsupported: (lang: 'expression' | 'mustache', context: string) =>
    new EsError(
      'illegal_argument_exception',
      lang === 'expression' ? `expression engine does not know how to handle script context [${context}]` : `mustache engine does not know how to handle context [${context}]`,
    ),
  /** ScriptService's `script.max_size_in_bytes` check. */
  tooLarge: (max: number, size: number, source: string) =>
    new EsError('illegal_argument_exception', `exceeded max allowed inline script size in bytes [${max}] with size [${size}] for script [${source}]`),
  /** Painless's ScriptException: `compile error` or `runtime error`, with the script stack and position. */
  scriptException: (reason: 'compile error' | 'runtime error', metadata: Record<string, unknown>, causedBy: EsError) =>
    new EsError('script_exception', reason, { metadata, causedBy }),
  /** UpdateHelper.executeScript wraps any script failure. */
  updateScriptFailed: (causedBy: EsError) => new EsError('illegal_argument_exception', 'failed to execute script', { causedBy }),
};

/** Which shard an engine error is about. */
export interface ShardLabel {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
}

/** The keys ES adds to a shard-level exception, in its order (the shard id is a string on the wire). */
function shardMetadata(shard: ShardLabel): Record<string, unknown> {
  return { index_uuid: shard.indexUuid, shard: String(shard.shard), index: shard.index };
}

// ---- Aliases ----

/** The alias APIs' refusals (MetadataIndexAliasesService, AliasValidator, IndicesAliasesRequest), in ES's words. */
export const aliasErrors = {
  /** AliasesNotFoundException: `Arrays.toString` of the names; one name is a plain `resource.id`. */
  aliasesNotFound: (names: readonly string[]) =>
    new EsError('aliases_not_found_exception', `aliases [${names.join(', ')}] missing`, {
      metadata: { 'resource.type': 'aliases', 'resource.id': names.length === 1 ? names[0] : [...names] },
    }),
  requiredAliasMissing: (alias: string) => new EsError('resource_not_found_exception', `required alias [${alias}] does not exist`),
  /** InvalidAliasNameException(name, description): no index metadata on this form. */
  invalidName: (alias: string, description: string) => new EsError('invalid_alias_name_exception', `Invalid alias name [${alias}]: ${description}`),
  sameNameAsIndex: (alias: string) => aliasErrors.invalidName(alias, 'an index or data stream exists with the same name as the alias'),
  severalIndexRoutings: (alias: string) => new EsError('illegal_argument_exception', `alias [${alias}] has several index routing values associated with it`),
  filterUnparsable: (alias: string, causedBy: EsError) => new EsError('illegal_argument_exception', `failed to parse filter for alias [${alias}]`, { causedBy }),
  moreThanOneWriteIndex: (alias: string, indices: readonly string[]) =>
    new EsError('illegal_state_exception', `alias [${alias}] has more than one write index [${indices.join(',')}]`),
  hiddenMismatch: (alias: string, hiddenOn: readonly string[], visibleOn: readonly string[]) =>
    new EsError(
      'illegal_state_exception',
      `alias [${alias}] has is_hidden set to true on indices [${hiddenOn.join(',')}] but does not have is_hidden set to true on indices [${visibleOn.join(',')}]; alias must have the same is_hidden setting on all indices`,
    ),
};

// ---- Reindex, update_by_query, delete_by_query (AbstractBulkByScrollRequest, ReindexValidator, the REST handlers) ----

export const reindexErrors = {
  /** AbstractAsyncBulkByScrollAction.buildBulk for a hit without `_source`. */
  sourceNotStored: (index: string, id: string) => new EsError('illegal_argument_exception', `[${index}][${id}] didn't store _source`),
  requestsPerSecond: () => new EsError('illegal_argument_exception', '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.'),
  conflicts: (value: string) => new EsError('illegal_argument_exception', `conflicts may only be "proceed" or "abort" but was [${value}]`),
  slices: (value: string) => new EsError('illegal_argument_exception', `[slices] must be a positive integer or the string "auto", but was [${value}]`),
  /** Gannet runs slice workers only through the slices leader; until it is wired, more than one slice is refused. */
  slicesUnsupported: (value: string) =>
    new EsError('illegal_argument_exception', `[slices] of [${value}] is not supported by this node yet; use slices=1 or a manual [slice] in the source`),
  maxDocsNegative: (value: number) => new EsError('illegal_argument_exception', `[max_docs] parameter cannot be negative, found [${value}]`),
  maxDocsBelowSlices: () => new EsError('illegal_argument_exception', '[max_docs] should be >= [slices]'),
  /** ReindexValidator.checkAllowedRemote with the default (empty) whitelist: no remote is allowed. */
  remoteNotWhitelisted: (hostAndPort: string) => new EsError('illegal_argument_exception', `[${hostAndPort}] not whitelisted in reindex.remote.whitelist`),
  remoteHostForm: (host: string) =>
    new EsError('illegal_argument_exception', `[host] must be of the form [scheme]://[host]:[port](/[pathPrefix])? but was [${host}]`),
  /** CtxMap's source map: a reindex / update_by_query script must leave a map in `ctx._source`. */
  scriptSourceNull: () => new EsError('illegal_argument_exception', '[_source] cannot be null'),
  scriptSourceNotMap: (value: string, javaClass: string) => new EsError('illegal_argument_exception', `[_source] must be a map, not [${value}] with type [${javaClass}]`),
  unknownField: (parser: string, field: string) => new EsError('x_content_parse_exception', `[${parser}] unknown field [${field}]`),
  fieldType: (parser: string, field: string, token: string) => new EsError('x_content_parse_exception', `[${parser}] ${field} doesn't support values of type: ${token}`),
  /** ES 8's RestUpdateByQueryAction / RestDeleteByQueryAction for a `size` URL parameter or body field. */
  sizeParameter: () => new EsError('illegal_argument_exception', 'invalid parameter [size], use [max_docs] instead'),
};

// ---- Index templates (MetadataIndexTemplateService, the template REST and transport actions) ----

/** Java's List.toString: `[a, b]`. */
function javaList(items: readonly string[]): string {
  return `[${items.join(', ')}]`;
}

export const templateErrors = {
  /** InvalidIndexTemplateException. */
  invalid: (name: string, cause: string) => new EsError('invalid_index_template_exception', `index_template [${name}] invalid, cause [${cause}]`),
  /** ValidationException.getMessage. */
  validationFailed: (problems: readonly string[]) => `Validation Failed: ${problems.map((problem, i) => `${i + 1}: ${problem};`).join('')}`,
  requestValidation: (problems: readonly string[]) =>
    new EsError('action_request_validation_exception', `Validation Failed: ${problems.map((problem, i) => `${i + 1}: ${problem};`).join('')}`),
  missingComponents: (name: string, missing: readonly string[]) =>
    `index template [${name}] specifies component templates ${javaList(missing)} that do not exist`,
  missingComponentsNotIgnored: (name: string, missing: readonly string[]) =>
    `index template [${name}] specifies a missing component templates ${javaList(missing)} that does not exist and is not part of 'ignore_missing_component_templates'`,
  composableExists: (name: string) => new EsError('illegal_argument_exception', `index template [${name}] already exists`),
  componentExists: (name: string) => new EsError('illegal_argument_exception', `component template [${name}] already exists`),
  legacyExists: (name: string) => new EsError('illegal_argument_exception', `index_template [${name}] already exists`),
  samePriorityOverlap: (name: string, patterns: readonly string[], overlaps: ReadonlyArray<[string, readonly string[]]>, priority: number) =>
    new EsError(
      'illegal_argument_exception',
      `index template [${name}] has index patterns ${javaList(patterns)} matching patterns from existing templates [${overlaps.map(([other]) => other).join(',')}] ` +
        `with patterns (${overlaps.map(([other, otherPatterns]) => `${other} => ${javaList(otherPatterns)}`).join(',')}) that have the same priority [${priority}], ` +
        'multiple index templates may not match during index creation, please use a different priority',
    ),
  /** The warning (not an error) ES adds when a composable template shadows legacy ones. */
  shadowsLegacyWarning: (name: string, patterns: readonly string[], overlaps: ReadonlyArray<[string, readonly string[]]>) =>
    `index template [${name}] has index patterns ${javaList(patterns)} matching patterns from existing older templates [${overlaps.map(([other]) => other).join(',')}] ` +
    `with patterns (${overlaps.map(([other, otherPatterns]) => `${other} => ${javaList(otherPatterns)}`).join(',')}); this template [${name}] will take precedence during new index creation`,
  legacyOverlapsComposable: (name: string, patterns: readonly string[], overlaps: ReadonlyArray<[string, readonly string[]]>) =>
    new EsError(
      'illegal_argument_exception',
      `legacy template [${name}] has index patterns ${javaList(patterns)} matching patterns from existing composable templates [${overlaps.map(([other]) => other).join(',')}] ` +
        `with patterns (${overlaps.map(([other, otherPatterns]) => `${other} => ${javaList(otherPatterns)}`).join(',')}), use composable templates (/_index_template) instead`,
    ),
  legacyOverlapsComposableWarning: (name: string, patterns: readonly string[], overlaps: ReadonlyArray<[string, readonly string[]]>) =>
    `legacy template [${name}] has index patterns ${javaList(patterns)} matching patterns from existing composable templates [${overlaps.map(([other]) => other).join(',')}] ` +
    `with patterns (${overlaps.map(([other, otherPatterns]) => `${other} => ${javaList(otherPatterns)}`).join(',')}); this template [${name}] may be ignored in favor of a composable template at index creation time`,
  compositionInvalid: (name: string, composedOf: readonly string[], cause: EsError) =>
    new EsError(
      'illegal_argument_exception',
      `composable template [${name}] template after composition ${composedOf.length > 0 ? `with component templates ${javaList(composedOf)} ` : ''}is invalid`,
      { causedBy: cause },
    ),
  componentUpdateBreaks: (component: string, composable: string, cause: EsError) =>
    new EsError('illegal_argument_exception', `updating component template [${component}] results in invalid composable template [${composable}] after templates are merged`, {
      causedBy: cause,
    }),
  componentInUse: (components: readonly string[], templates: readonly string[]) =>
    new EsError('illegal_argument_exception', `component templates ${javaList(components)} cannot be removed as they are still in use by index templates ${javaList(templates)}`),
  componentHiddenInGlobal: (component: string, globals: readonly string[]) =>
    new EsError(
      'illegal_argument_exception',
      `cannot update component template [${component}] because the following global templates would resolve to specifying the [index.hidden] setting: [${globals.join(',')}]`,
    ),
  aliasSameAsPattern: (alias: string, patterns: readonly string[]) =>
    new EsError('illegal_argument_exception', `alias [${alias}] cannot be the same as any pattern in [${patterns.join(', ')}]`),
  /** IndexTemplateMissingException (legacy and composable delete). */
  missing: (name: string) => new EsError('index_template_missing_exception', `index_template [${name}] missing`),
  composableNotFound: (name: string) => new EsError('resource_not_found_exception', `index template matching [${name}] not found`),
  componentNotFound: (name: string) => new EsError('resource_not_found_exception', `component template matching [${name}] not found`),
  /** ResourceNotFoundException with the names as the whole message (component template delete). */
  componentsMissing: (names: readonly string[]) => new EsError('resource_not_found_exception', names.join(',')),
  nameWithComma: () => new EsError('action_request_validation_exception', "Validation Failed: 1: template name may not contain ',';"),
  globalHidden: (name: string) => new EsError('illegal_state_exception', `A global index template [${name}] defined the index hidden setting, which is not allowed`),
  simulateMissing: (name: string) => new EsError('illegal_argument_exception', `unable to simulate template [${name}] that does not exist`),
  simulateNothing: () => new EsError('illegal_argument_exception', 'a template name to match or a new template body must be specified'),
  /** Gannet has no data streams: a template that would create them is refused rather than half-applied. */
  dataStreamUnsupported: (name: string) =>
    new EsError('illegal_argument_exception', `index template [${name}] specifies [data_stream], but data streams are not supported by this cluster; remove [data_stream] to create indices from this template`),
  /** Fields of templates Gannet does not implement (lifecycle, data_stream_options, ...). */
  unsupportedField: (parser: string, field: string) =>
    new EsError('illegal_argument_exception', `[${parser}] field [${field}] is not supported by this cluster`),
  /** ObjectParser's unknown field, with SuggestingErrorOnUnknown's "did you mean" over the parser's fields. */
  unknownField: (parser: string, field: string, candidates: Iterable<string> = []) =>
    new EsError('x_content_parse_exception', `[${parser}] unknown field [${field}]${didYouMean(field, candidates)}`),
  fieldType: (parser: string, field: string, expected: string) => new EsError('x_content_parse_exception', `[${parser}] failed to parse field [${field}]: expected ${expected}`),
  /** ConstructingObjectParser's missing constructor argument: a bare IllegalArgumentException. */
  requiredField: (field: string) => new EsError('illegal_argument_exception', `Required [${field}]`),
  /** PutIndexTemplateRequest.source for a key it does not know. */
  legacyUnknownKey: (key: string) => new EsError('parse_exception', `unknown key [${key}] in the template `),
  legacyMalformedPatterns: () => new EsError('illegal_argument_exception', 'Malformed [index_patterns] value, should be a string or a list of strings'),
  autoCreateForbidden: (patterns: readonly string[]) => `composable template ${javaList(patterns)} forbids index auto creation`,
};

// ---- Allocation tools: `_cluster/allocation/explain` and `_cluster/reroute` (their commands' ES messages). ----

export const allocationErrors = {
  /** TransportClusterAllocationExplainAction.findShardToExplain, no shard named and none unassigned. */
  noUnassignedShards: () =>
    new EsError(
      'illegal_argument_exception',
      'There are no unassigned shards in this cluster. Specify an assigned shard in the request body to explain its allocation. See https://www.elastic.co/guide/en/elasticsearch/reference/8.19/cluster-allocation-explain.html for more information.',
    ),
  primaryNotOnNode: (node: string) => new EsError('illegal_argument_exception', `unable to find primary shard assigned to node [${node}]`),
  replicaNotOnNode: (node: string) => new EsError('illegal_argument_exception', `unable to find a replica shard assigned to node [${node}]`),
  noShardsToExplain: (request: string) => new EsError('illegal_argument_exception', `unable to find any shards to explain [${request}] in the routing table`),
  /** DiscoveryNodes.resolveNode. */
  nodeNotResolved: (node: string) => new EsError('illegal_argument_exception', `failed to resolve [${node}], no matching nodes`),
  nodeAmbiguous: (node: string) => new EsError('illegal_argument_exception', `failed to resolve [${node}], matched multiple nodes`),
  /** A reroute command refused (AbstractAllocateAllocationCommand.explainOrThrowRejectedCommand and the others). */
  commandRejected: (message: string) => new EsError('illegal_argument_exception', message),
  /** A command's own parse failure, wrapped as ES's ObjectParser wraps it for the `commands` field. */
  commandParse: (message: string, type: 'parse_exception' | 'illegal_argument_exception' | 'x_content_parse_exception' = 'parse_exception') =>
    new EsError('x_content_parse_exception', '[cluster_reroute] failed to parse field [commands]', { causedBy: new EsError(type, message) }),
  /** NamedXContentRegistry: no allocation command of that name. */
  unknownCommand: (name: string) =>
    new EsError('x_content_parse_exception', '[cluster_reroute] failed to parse field [commands]', {
      causedBy: new EsError('named_object_not_found_exception', `unknown AllocationCommand [${name}]`),
    }),
};
