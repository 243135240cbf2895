/**
 * A Gannet node: builds every service from the settings, starts them in dependency order and stops them in
 * reverse. This is the only place that knows how the pieces fit together.
 */
import { setOwnValue } from '../common/own-keys.js';
import { availableParallelism, hostname } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Settings } from '../common/settings.js';
import { parsePortRange } from '../common/settings.js';
import { versionInfo, GANNET_VERSION } from '../common/version.js';
import { randomBase64Uuid } from '../common/uuid.js';
import { indexingWorkersPerCopy, ThreadPools } from '../common/thread-pools.js';
import { CircuitBreakerService } from '../common/circuit-breakers.js';
import { ClusterService, transportNode, type DiscoveryNode } from '../cluster/index.js';
import { EmbeddedCoordinator, initialClusterState } from '../cluster/coordination/embedded-coordinator.js';
import type { ClusterState } from '../cluster/cluster-state.js';
import type { Coordinator } from '../cluster/coordination/coordinator.js';
import { EtcdCoordinator } from '../cluster/coordination/etcd/etcd-coordinator.js';
import { MasterRequests } from '../cluster/master-requests.js';
import { PublicationAcks } from '../cluster/publication-acks.js';
import { NodeConnectionsService } from '../cluster/node-connections.js';
import { reroute } from '../cluster/routing/allocation.js';
import { AllocationService } from '../cluster/routing/allocation-service.js';
import { TaskManager } from '../tasks/index.js';
import { TransportService, registerHandshake } from '../transport/index.js';
import { EventLoopStallMonitor, GcOverheadMonitor, NodeMonitor } from '../monitor/index.js';
import { HttpServer } from '../http/http-server.js';
import { corsConfig } from '../http/cors.js';
import { allowedHostNames } from '../http/request-origin.js';
import {
  IndicesService,
  PeerRecoveryTargetService,
  registerRecoverySource,
  GLOBAL_CHECKPOINT_SYNC_ACTION,
  syncGlobalCheckpointOnReplica,
  listShardStore,
  LIST_SHARD_STORE_ACTION,
  type ListShardStoreRequest,
  type ShardStoreListing,
  type ReplicationServices,
  type RecoveryRateLimiter,
  type RecoverySettings,
  DEFAULT_MAX_BYTES_PER_SEC,
  DEFAULT_MAX_CONCURRENT_FILE_CHUNKS,
} from '../indices/index.js';
import { openEngine } from '../engine/index.js';
import { MetadataService } from '../cluster/metadata/metadata-service.js';
import { IndicesClusterStateApplier } from '../cluster/indices-cluster-state-applier.js';
import { shardSizeKey } from '../cluster/routing/cluster-info.js';
import { ShardStoreCleanup } from '../cluster/shard-store-cleanup.js';
import { logClusterEvents } from '../cluster/cluster-event-log.js';
import { restoredRouting } from '../cluster/routing/shard-allocation.js';
import { DiskThresholdMonitor, READ_ONLY_ALLOW_DELETE } from '../cluster/routing/disk-threshold-monitor.js';
import { DelayedAllocationScheduler } from '../cluster/routing/delayed-allocation.js';
import { allRoutes, type NodeServices } from '../actions/index.js';
import { registerNodeActions } from '../actions/node-actions.js';
import { TaskResultsIndex, readStoredTaskIdFloor } from '../actions/tasks/index.js';
import { NodeEnvironment } from './node-environment.js';
import { liveNodeSettings } from '../cluster/settings/index.js';
import { faultDetectionSettings, nodeRoles } from './node-settings.js';
import { createLogger } from './logger.js';
import { registerRedactedRoot } from '../common/redact.js';
import { setInternalErrorReporter } from '../common/errors.js';
import { RotatingLogFile } from './rotating-log-file.js';
import { SlowLogFiles } from './slow-log-files.js';

export class GannetNode {
  readonly settings: Settings;
  readonly logger: Logger;
  private environment: NodeEnvironment | undefined;
  private http: HttpServer | undefined;
  private transport: TransportService | undefined;
  private nodeConnections: NodeConnectionsService | undefined;
  private coordinator: Coordinator | undefined;
  private services: NodeServices | undefined;
  private indicesService: IndicesService | undefined;
  private indicesApplier: IndicesClusterStateApplier | undefined;
  private shardStoreCleanup: ShardStoreCleanup | undefined;
  private diskMonitor: DiskThresholdMonitor | undefined;
  private recoveryLimiter: RecoveryRateLimiter | undefined;
  private delayedAllocation: DelayedAllocationScheduler | undefined;
  private masterRequests: MasterRequests | undefined;
  private clusterService: ClusterService | undefined;
  private publicationAcks: PublicationAcks | undefined;

  private logFile: RotatingLogFile | undefined;
  private slowLogs: SlowLogFiles | undefined;
  private stopEventLog: (() => void) | undefined;
  private gcMonitor: GcOverheadMonitor | undefined;
  private stallMonitor: EventLoopStallMonitor | undefined;

  /** Without a logger, the node logs to stdout and to its log file under `path.logs`. */
  constructor(settings: Settings, logger?: Logger) {
    this.settings = settings;
    const logsPath = resolve(settings.getString('path.logs', 'logs'));
    if (logger !== undefined) {
      // A node given its logger (in-process tests) writes slow log files only where path.logs is set for it.
      this.logger = logger;
      if (settings.raw()['path.logs'] !== undefined) this.slowLogs = this.createSlowLogs(settings, logsPath);
      return;
    }
    try {
      this.logFile = new RotatingLogFile({
        directory: logsPath,
        baseName: `${settings.getString('cluster.name', 'gannet')}_server`,
        maxBytes: settings.getBytes('logger.file.max_size', 128 * 1024 * 1024),
        maxFiles: settings.getInt('logger.file.max_files', 16),
      });
    } catch (err) {
      throw new Error(`unable to use path.logs [${logsPath}]: ${(err as Error).message}`);
    }
    this.logger = createLogger({ level: settings.getString('logger.level', 'info'), nodeName: settings.getString('node.name', hostname()), file: this.logFile });
    this.slowLogs = this.createSlowLogs(settings, logsPath);
  }

  private createSlowLogs(settings: Settings, logsPath: string): SlowLogFiles {
    return new SlowLogFiles({
      directory: logsPath,
      clusterName: settings.getString('cluster.name', 'gannet'),
      nodeName: settings.getString('node.name', hostname()),
      nodeId: () => this.environment?.nodeId,
      maxBytes: settings.getBytes('logger.file.max_size', 128 * 1024 * 1024),
      maxFiles: settings.getInt('logger.file.max_files', 16),
    });
  }

  get httpPort(): number {
    return this.http?.port ?? 0;
  }

  /** The node's coordinator (tests pause an etcd node's state watch through it). */
  get coordinatorForTest(): Coordinator | undefined {
    return this.coordinator;
  }

  get nodeServices(): NodeServices {
    if (!this.services) throw new Error('node is not started');
    return this.services;
  }

  /**
   * Starts every service; if any step fails, whatever already started is stopped again (listeners closed, the
   * data path unlocked) before the error is thrown, so a failed start leaves nothing behind.
   */
  async start(): Promise<void> {
    try {
      await this.startServices();
    } catch (err) {
      await this.shutDown().catch(() => undefined);
      throw err;
    }
  }

  private async startServices(): Promise<void> {
    const settings = this.settings;
    const version = versionInfo(settings.getString('compatibility.version', '8.19.2'));
    const environment = new NodeEnvironment(settings.getString('path.data', 'data'), GANNET_VERSION);
    this.environment = environment;
    // Error reasons sent to clients show these directories by name, never as absolute paths (common/redact.ts);
    // an unexpected error is logged here in full while the client reads a stable internal-error reason.
    registerRedactedRoot(environment.dataPath, '<path.data>');
    registerRedactedRoot(INSTALL_ROOT, '<path.home>');
    setInternalErrorReporter((err) => this.logger.error({ err, event: 'internal_error' }, 'internal error'));
    const host = settings.getString('network.host', '127.0.0.1');
    const httpPorts = parsePortRange(settings.getString('http.port', '9200-9299'), 'http.port');
    const transportPorts = parsePortRange(settings.getString('transport.port', '9300-9399'), 'transport.port');

    const clusterService = new ClusterService(initialClusterState(settings.getString('cluster.name', 'gannet')));
    this.clusterService = clusterService;
    const taskManager = new TaskManager(environment.nodeId);
    // The node id survives restarts and task ids restart: never hand out the id of a task whose result is stored.
    const storedTaskIdFloorPath = join(environment.dataPath, '_tasks', 'stored_task_id_floor');
    taskManager.skipIdsThrough(readStoredTaskIdFloor(storedTaskIdFloorPath));
    // An operator's cancel is an event worth a line (ES's TaskCancellationService); a client that hung up is not.
    taskManager.cancellationLog = ({ taskId, action, reason, descendants }) => {
      const entry = { event: 'task_cancelled', task: taskId, action, reason, descendants };
      const message = `cancelling task [${taskId}] [${action}] and its [${descendants}] descendants, reason [${reason}]`;
      if (reason === 'channel closed') this.logger.debug(entry, message);
      else this.logger.info(entry, message);
    };
    const monitor = new NodeMonitor(environment.dataPath, {
      osMillis: settings.getTimeMillis('monitor.os.refresh_interval', 1000),
      processMillis: settings.getTimeMillis('monitor.process.refresh_interval', 1000),
      fsMillis: settings.getTimeMillis('monitor.fs.refresh_interval', 1000),
    });

    if (settings.getBool('monitor.jvm.gc.enabled', true)) {
      this.gcMonitor = new GcOverheadMonitor(() => monitor.gc(), this.logger, settings.getTimeMillis('monitor.jvm.gc.refresh_interval', 1000), {
        warn: settings.getInt('monitor.jvm.gc.overhead.warn', 50),
        info: settings.getInt('monitor.jvm.gc.overhead.info', 25),
        debug: settings.getInt('monitor.jvm.gc.overhead.debug', 10),
      });
      this.gcMonitor.start();
    }
    this.stallMonitor = new EventLoopStallMonitor(this.logger, settings.getTimeMillis('thread_pool.estimated_time_interval.warn_threshold', 5000), () => {
      const gc = monitor.gc();
      return gc.young.collectionTimeMillis + gc.old.collectionTimeMillis;
    });
    this.stallMonitor.start();

    // Ports are known only once bound, and the local node carries them, so bind before publishing the node.
    const transport = new TransportService(host, transportPorts);
    this.transport = transport;
    const transportPort = await transport.start();
    const localNode: DiscoveryNode = {
      id: environment.nodeId,
      name: settings.getString('node.name', hostname()),
      ephemeralId: randomBase64Uuid(),
      host: settings.getString('network.publish_host', host),
      ip: host,
      transportPort,
      httpPort: undefined,
      roles: nodeRoles(settings),
      attributes: nodeAttributes(settings),
      version: version.number,
      pid: process.pid,
    };
    // Indices: the coordinator restores persisted indices with their primaries recovering from this node's
    // disk; the applier opens the shards every applied state assigns here and reports them started.
    const indicesService = new IndicesService({
      dataPath: environment.dataPath,
      engineFactory: openEngine,
      logger: this.logger,
      indexingWorkersPerCopy: indexingWorkersPerCopy(allocatedProcessors(settings)),
    });
    this.indicesService = indicesService;
    const clusterName = clusterService.state().clusterName;
    transport.setLocalIdentity({ nodeId: localNode.id, nodeName: localNode.name, clusterName, version: version.number });
    const coordination = settings.getString('cluster.coordination', 'embedded');
    // The etcd master's allocation round goes through the allocation service (its disk view), built below.
    let allocationService: AllocationService | undefined;
    const rerouteRound = (previous: ClusterState, next: ClusterState, now: number): ClusterState =>
      allocationService === undefined ? reroute(previous, next, now, { nodeSettings: settings.raw() }) : allocationService.reroute(previous, next, now);
    const coordinator = createCoordinator(coordination, settings, clusterService, localNode, environment.dataPath, this.logger, rerouteRound);
    this.coordinator = coordinator;
    const clustered = coordinator.kind !== 'embedded';
    // Handlers read dynamic settings through this view, so `PUT _cluster/settings` applies from the next request.
    const handlerSettings = liveNodeSettings(settings, clusterService);
    // On a single embedded node master operations run in-process; in a cluster they travel to the master.
    const masterRequests = clustered ? new MasterRequests(clusterService, coordinator, transport, localNode.id) : undefined;
    this.masterRequests = masterRequests;
    // In a cluster every node tells the master which states it applied, for acked requests' `acknowledged`.
    const acks = clustered ? new PublicationAcks(clusterService, transport, localNode.id) : undefined;
    this.publicationAcks = acks;
    const metadata = new MetadataService(clusterService, coordinator, handlerSettings, version.number, masterRequests, acks, this.logger);
    const updateFloodBlock = async (indices: readonly string[], value: 'true' | null): Promise<void> => {
      await metadata.updateSettings(indices, { [READ_ONLY_ALLOW_DELETE]: value }, false);
    };
    // Allocation explain, reroute commands and the master's view of every data node's disk.
    // What each data node holds on disk for a shard, which the master asks before it places a replica (decision 0027).
    transport.registerHandler(LIST_SHARD_STORE_ACTION, (body) => listShardStore(indicesService, body as ListShardStoreRequest));
    const listStoreOn = (node: DiscoveryNode, request: ListShardStoreRequest): Promise<ShardStoreListing> =>
      transport.sendRequest(transportNode(node), LIST_SHARD_STORE_ACTION, request, { timeoutMillis: SHARD_STORE_LIST_TIMEOUT_MILLIS }) as Promise<ShardStoreListing>;
    allocationService = new AllocationService(clusterService, coordinator, masterRequests, settings.raw(), updateFloodBlock, this.logger, acks, listStoreOn);
    // What the cluster does (indices deleted, closed, opened, mappings and settings changed) goes to the log.
    this.stopEventLog = logClusterEvents(clusterService, this.logger, localNode.id);
    // Replication and peer recovery (indices/replication, indices/recovery) reach the master, the transport and the
    // cluster state only through these.
    const replication: ReplicationServices = {
      localNodeId: localNode.id,
      logger: this.logger,
      send: (node, action, body, options) => transport.sendRequest(node, action, body, options),
      shardFailed: (entry) => metadata.shardFailed(entry),
      waitForNewerState: async (timeoutMillis) => {
        const seen = clusterService.state().version;
        await clusterService.waitFor((state) => state.version > seen, timeoutMillis);
      },
    };
    const recoverySettings: RecoverySettings = {
      maxBytesPerSec: () => handlerSettings.getBytes('indices.recovery.max_bytes_per_sec', DEFAULT_MAX_BYTES_PER_SEC),
      maxConcurrentFileChunks: () => handlerSettings.getInt('indices.recovery.max_concurrent_file_chunks', DEFAULT_MAX_CONCURRENT_FILE_CHUNKS),
    };
    const peerRecovery = new PeerRecoveryTargetService(indicesService, replication);
    this.recoveryLimiter = registerRecoverySource(transport, indicesService, replication, recoverySettings);
    peerRecovery.registerHandlers(transport);
    transport.registerHandler(GLOBAL_CHECKPOINT_SYNC_ACTION, (body) => syncGlobalCheckpointOnReplica(indicesService, body as never));
    this.indicesApplier = new IndicesClusterStateApplier(clusterService, indicesService, () => metadata, localNode.id, this.logger, peerRecovery, replication);
    this.indicesApplier.start();
    // Registered after the applier, so a state's copies are closed (or opening) before their stores are judged.
    this.shardStoreCleanup = new ShardStoreCleanup(clusterService, indicesService, localNode.id, this.logger, peerRecovery);
    this.shardStoreCleanup.start();
    if (clustered) {
      // The master's timer for replicas whose delayed allocation runs out (cluster/routing/delayed-allocation.ts).
      this.delayedAllocation = new DelayedAllocationScheduler({
        localNodeId: localNode.id,
        onChange: (listener) => clusterService.onChange((state) => listener(state)),
        submit: (source, update) => coordinator.submitStateUpdate(source, update),
        log: (message, err) => this.logger.warn({ err, event: 'delayed_allocation' }, message),
      });
      this.delayedAllocation.start();
    }
    const threadPools = new ThreadPools(localNode.name, allocatedProcessors(settings), getHeapStatistics().heap_size_limit);
    if (clustered) {
      this.nodeConnections = new NodeConnectionsService(clusterService, transport, localNode.id, {
        probeTimeoutMillis: faultDetectionSettings(settings).probeTimeoutMillis,
        reconnectIntervalMillis: faultDetectionSettings(settings).reconnectIntervalMillis,
        nodeGone: (node) => coordinator.removeGoneNode?.(node) ?? Promise.resolve(),
        log: (level, message, err) => this.logger[level]({ err, event: 'fault_detection' }, message),
      });
      this.nodeConnections.start();
    }
    const services: NodeServices = {
      settings: handlerSettings,
      version,
      localNode,
      clusterService,
      taskManager,
      monitor,
      logger: this.logger,
      ...(this.slowLogs !== undefined && { slowLogs: this.slowLogs }),
      threadPools,
      breakers: new CircuitBreakerService(() => handlerSettings.raw()),
      indices: { service: indicesService, metadata },
      allocation: allocationService,
      transport,
      replication,
    };
    registerNodeActions(services, transport);
    this.services = services;
    // Finished tasks that asked for it (`wait_for_completion=false`) keep their result in the `.tasks` index.
    taskManager.resultStore = new TaskResultsIndex(services, { idFloorPath: storedTaskIdFloorPath });

    this.http = new HttpServer(
      services,
      {
        host,
        ports: httpPorts,
        maxContentLength: settings.getBytes('http.max_content_length', 100 * 1024 * 1024),
        maxInitialLineLength: settings.getBytes('http.max_initial_line_length', 4 * 1024),
        maxHeaderSize: settings.getBytes('http.max_header_size', 16 * 1024),
        compression: settings.getBool('http.compression', true),
        cors: corsConfig(settings),
        allowedHosts: allowedHostNames(settings, hostname()),
      },
      this.logger,
    );
    this.http.register(allRoutes);
    registerHandshake(transport, () => ({
      nodeId: localNode.id,
      nodeName: localNode.name,
      clusterName: clusterService.state().clusterName,
      version: version.number,
    }));
    const httpPort = await this.http.start();
    localNode.httpPort = httpPort;

    await coordinator.start();
    // The flood stage block before the disk is full, released below the high watermark (issue 18).
    this.diskMonitor = new DiskThresholdMonitor({
      settings: handlerSettings,
      clusterService,
      localNodeId: localNode.id,
      localNodeName: localNode.name,
      probe: () => monitor.fs(),
      updateBlock: updateFloodBlock,
      reportUsage: (usage) => allocationService!.reportDiskUsage(localNode.id, usage, localShardSizes(indicesService)),
      retryFailedAllocations: () => metadata.retryDiskFailures(),
      logger: this.logger,
    });
    this.diskMonitor.start();

    this.logger.info(
      {
        event: 'started',
        node_id: localNode.id,
        http_address: `${host}:${httpPort}`,
        transport_address: `${host}:${transportPort}`,
        cluster_name: clusterService.state().clusterName,
      },
      `publish_address {${host}:${httpPort}}, started`,
    );
  }

  async stop(): Promise<void> {
    this.logger.info({ event: 'stopping' }, 'stopping ...');
    await this.shutDown();
    this.logger.info({ event: 'stopped' }, 'stopped');
    this.closeLogs();
  }

  /** Stops what has started, in reverse order; safe on a node that started only in part. */
  private async shutDown(): Promise<void> {
    // Each stage is logged as it begins and ends ("closing [http] ...", "closed [http]"), so a stop that never
    // finishes names the stage it waits on (a node hung after "stopping ..." in the failover bench, no stage named).
    const stage = async (name: string, close: () => unknown): Promise<void> => {
      this.logger.info({ event: 'closing', stage: name }, `closing [${name}] ...`);
      const started = Date.now();
      await close();
      this.logger.info({ event: 'closed', stage: name, took_ms: Date.now() - started }, `closed [${name}] in [${Date.now() - started}ms]`);
    };
    // First of all: a node on its way out never registers again (coordinator.ts, prepareToStop).
    this.coordinator?.prepareToStop?.();
    this.stopEventLog?.();
    this.gcMonitor?.stop();
    this.stallMonitor?.stop();
    await stage('http', () => this.http?.stop());
    this.nodeConnections?.stop();
    // Before the transport: a disk check under way reports to the master, and once the transport is closed the
    // others revoke this node's lease, after which (prepareToStop) it knows no master and the report would wait
    // out its master timeout (a 10 s longer shutdown).
    await stage('disk_monitor', () => this.diskMonitor?.stop());
    // Recoveries this node sends that wait on the rate limit fail now instead of when their wait ends (minutes at a
    // low max_bytes_per_sec, a timer that kept the stopped process alive); their targets retry elsewhere, as ES's.
    this.recoveryLimiter?.close();
    await stage('transport', () => this.transport?.stop());
    // Requests to the master under way (a shard's report, say) end now: no master is reachable any more.
    this.masterRequests?.close();
    // Waits for a state or for acks end too: no state will come that they could act on, and their timers (up to a
    // write's or an ack's timeout) kept the shut-down process alive.
    this.clusterService?.closeWaits();
    this.publicationAcks?.close();
    this.delayedAllocation?.stop();
    this.shardStoreCleanup?.stop();
    await stage('indices_applier', () => this.indicesApplier?.stop());
    await stage('coordinator', () => this.coordinator?.stop());
    await stage('indices', () => this.indicesService?.close());
    this.environment?.close();
    this.environment = undefined;
  }

  /** Closes the log file after a failed start (its last line says why). */
  closeLogs(): void {
    this.logFile?.close();
    this.slowLogs?.close();
  }
}

/** A store listing is a directory read; a node that takes longer counts as holding nothing (the replica waits until then). */
const SHARD_STORE_LIST_TIMEOUT_MILLIS = 15_000;

/** `cluster.coordination`: `embedded` (default, one node) or `etcd` (docs/decisions/0006). */
/** The installation: dist/src/node/ is three levels below it. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function createCoordinator(
  kind: string,
  settings: Settings,
  clusterService: ClusterService,
  localNode: DiscoveryNode,
  dataPath: string,
  logger: Logger,
  reroute: (previous: ClusterState, next: ClusterState, now: number) => ClusterState,
): Coordinator {
  if (kind === 'embedded') return new EmbeddedCoordinator(clusterService, localNode, dataPath, (state) => restoredRouting(state, Date.now()));
  if (kind !== 'etcd') throw new Error(`unknown value [${kind}] for setting [cluster.coordination]: expected [embedded] or [etcd]`);
  const endpoints = (settings.getString('cluster.etcd.endpoints', 'http://127.0.0.1:2379'))
    .split(',')
    .map((endpoint) => endpoint.trim())
    .filter(Boolean);
  return new EtcdCoordinator(clusterService, localNode, {
    endpoints,
    leaseTtlSeconds: faultDetectionSettings(settings).leaseTtlSeconds,
    joinTimeoutMillis: faultDetectionSettings(settings).joinTimeoutMillis,
    reroute,
    log: (level, message, err, fields) => logger[level]({ err, event: 'coordination', ...fields }, message),
  });
}

/** This node's copies' store sizes as the master's ClusterInfo keys them (`[index][shard][p|r]`). */
function localShardSizes(indices: IndicesService): Array<[string, number]> {
  return indices.storeSizes().map((copy) => [shardSizeKey(copy.index, copy.shard, copy.primary), copy.bytes]);
}

/** ES's `node.processors`: the processors thread pools are sized for (default: what the machine offers). */
function allocatedProcessors(settings: Settings): number {
  const available = availableParallelism();
  const configured = Number(settings.getString('node.processors', String(available)));
  return Number.isFinite(configured) && configured > 0 ? Math.min(Math.ceil(configured), available) : available;
}

/** `node.attr.<name>` settings become node attributes. */
function nodeAttributes(settings: Settings): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(settings.raw())) {
    if (key.startsWith('node.attr.')) setOwnValue(attributes, key.slice('node.attr.'.length), value);
  }
  return attributes;
}
