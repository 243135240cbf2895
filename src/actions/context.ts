/** The services a REST handler may use. The node layer builds one of these and hands it to the HTTP layer. */
import type { Logger } from 'pino';
import type { Settings } from '../common/settings.js';
import type { VersionInfo } from '../common/version.js';
import type { ClusterService, DiscoveryNode } from '../cluster/index.js';
import type { TaskManager } from '../tasks/index.js';
import type { NodeMonitor } from '../monitor/index.js';
import type { IndicesService, SlowLogSink } from '../indices/index.js';
import type { ThreadPoolsView } from './cat/thread-pool-figures.js';
import type { MetadataService } from '../cluster/metadata/metadata-service.js';
import type { TransportService } from '../transport/index.js';

export interface NodeServices {
  readonly settings: Settings;
  readonly version: VersionInfo;
  readonly localNode: DiscoveryNode;
  readonly clusterService: ClusterService;
  readonly taskManager: TaskManager;
  readonly monitor: NodeMonitor;
  readonly logger: Logger;
  /** The node's thread pools, once it runs work on named pools; without them `_cat/thread_pool` reports the event loop. */
  readonly threadPools?: ThreadPoolsView;
  /** Where search and indexing slow log lines go; absent where a node is built without log files (unit tests). */
  readonly slowLogs?: SlowLogSink;
  /** Index and document services; absent only where a node is built without data handling (some unit tests). */
  readonly indices?: IndicesServices;
  /** Node-to-node requests; absent where a node is built without one (unit tests): other nodes are then unreachable. */
  readonly transport?: TransportService;
}

/** What index and document handlers use: this node's shards, and the master-side index operations. */
export interface IndicesServices {
  readonly service: IndicesService;
  readonly metadata: MetadataService;
}
