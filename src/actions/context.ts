/** The services a REST handler may use. The node layer builds one of these and hands it to the HTTP layer. */
import type { Logger } from 'pino';
import type { Settings } from '../common/settings.js';
import type { VersionInfo } from '../common/version.js';
import type { ClusterService, DiscoveryNode } from '../cluster/index.js';
import type { TaskManager } from '../tasks/index.js';
import type { NodeMonitor } from '../monitor/index.js';

export interface NodeServices {
  readonly settings: Settings;
  readonly version: VersionInfo;
  readonly localNode: DiscoveryNode;
  readonly clusterService: ClusterService;
  readonly taskManager: TaskManager;
  readonly monitor: NodeMonitor;
  readonly logger: Logger;
}
