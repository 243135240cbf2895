/** The services a REST handler may use. The node layer builds one of these and hands it to the HTTP layer. */
import type { Logger } from 'pino';
import type { Settings } from '../common/settings.js';
import type { VersionInfo } from '../common/version.js';
import type { ClusterService, DiscoveryNode } from '../cluster/index.js';
import type { TaskManager } from '../tasks/index.js';
import type { NodeMonitor } from '../monitor/index.js';
import type { IndicesService, ReplicationServices, SlowLogSink } from '../indices/index.js';
import type { MetadataService } from '../cluster/metadata/metadata-service.js';
import type { AllocationService } from '../cluster/routing/allocation-service.js';
import type { TransportService } from '../transport/index.js';
import type { ThreadPools } from '../common/thread-pools.js';
import type { CircuitBreakerService } from '../common/circuit-breakers.js';

export interface NodeServices {
  readonly settings: Settings;
  readonly version: VersionInfo;
  readonly localNode: DiscoveryNode;
  readonly clusterService: ClusterService;
  readonly taskManager: TaskManager;
  readonly monitor: NodeMonitor;
  readonly logger: Logger;
  /** ES's thread pools: search, write, get... (queues, rejections, the figures `_cat/thread_pool` reads). */
  readonly threadPools: ThreadPools;
  /** ES's circuit breakers (parent, request, fielddata, inflight_requests) over the V8 heap. */
  readonly breakers: CircuitBreakerService;
  /** Where search and indexing slow log lines go; absent where a node is built without log files (unit tests). */
  readonly slowLogs?: SlowLogSink;
  /** Index and document services; absent only where a node is built without data handling (some unit tests). */
  readonly indices?: IndicesServices;
  /** Node-to-node requests; absent where a node is built without one (unit tests): other nodes are then unreachable. */
  readonly transport?: TransportService;
  /** Replication of writes to the other copies of a shard; absent where a node is built without a transport. */
  readonly replication?: ReplicationServices;
  /** `_cluster/allocation/explain`, `_cluster/reroute` and the master's disk view (cluster/routing/allocation-service.ts). */
  readonly allocation?: AllocationService;
}

/** What index and document handlers use: this node's shards, and the master-side index operations. */
export interface IndicesServices {
  readonly service: IndicesService;
  readonly metadata: MetadataService;
}
