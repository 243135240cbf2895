/**
 * One node's answer to a nodes info request (what ES's TransportNodesInfoAction computes on each node),
 * rendered in NodesInfoResponse's field order: identity and build, roles, attributes, then each requested
 * section. Sections Gannet has no honest content for are left out (see docs/compat.md): thread_pool,
 * remote_cluster_server, aggregations, and the `indices` section's indexing buffer.
 */
import type { DiscoveryNode } from '../../cluster/index.js';
import { transportAddress } from '../../cluster/index.js';
import { osInfo, runtimeInfo } from '../../monitor/index.js';
import type { NodeServices } from '../context.js';
import { putBytes, putMillis, putTimestamp, type JsonObject } from './human-fields.js';
import type { InfoMetric } from './nodes-request.js';
import { settingsJson } from './settings-json.js';

export interface RenderOptions {
  human: boolean;
  flatSettings: boolean;
}

/** The node identity block that info, stats and usage responses all open with. */
export function nodeIdentity(node: DiscoveryNode): JsonObject {
  return { name: node.name, transport_address: transportAddress(node), host: node.host, ip: node.ip };
}

/**
 * ES prints a publish address as `ip:port`, or `host/ip:port` when the node publishes a host name; clients
 * that sniff take the part before the slash as the host to connect to.
 */
export function publishAddress(node: DiscoveryNode, port: number): string {
  const address = `${node.ip}:${port}`;
  return node.host !== node.ip && !/^[\d.]+$|:/.test(node.host) ? `${node.host}/${address}` : address;
}

export function localNodeInfo(services: NodeServices, metrics: ReadonlySet<InfoMetric>, options: RenderOptions): JsonObject {
  const node = services.localNode;
  const version = services.version;
  const settings = services.settings;
  const out: JsonObject = {
    ...nodeIdentity(node),
    version: node.version,
    build_flavor: version.buildFlavor,
    build_type: version.buildType,
    build_hash: version.buildHash,
    roles: [...node.roles],
  };
  if (Object.keys(node.attributes).length > 0) out['attributes'] = { ...node.attributes };
  if (metrics.has('settings')) {
    out['settings'] = settingsJson(
      { ...settings.raw(), 'cluster.name': services.clusterService.state().clusterName, 'node.name': node.name },
      options.flatSettings,
    );
  }
  if (metrics.has('os')) {
    const os = osInfo();
    const section: JsonObject = {};
    putMillis(section, 'refresh_interval', settings.getTimeMillis('monitor.os.refresh_interval', 1000), options.human);
    Object.assign(section, {
      name: os.name,
      pretty_name: os.prettyName,
      arch: os.arch,
      version: os.version,
      available_processors: os.availableProcessors,
      allocated_processors: os.availableProcessors,
    });
    out['os'] = section;
  }
  if (metrics.has('process')) {
    const section: JsonObject = {};
    putMillis(section, 'refresh_interval', settings.getTimeMillis('monitor.process.refresh_interval', 1000), options.human);
    // Node.js cannot lock its memory (no mlockall), so this is always false.
    Object.assign(section, { id: process.pid, mlockall: false });
    out['process'] = section;
  }
  if (metrics.has('jvm')) out['jvm'] = runtimeSection(options.human);
  if (metrics.has('transport')) {
    const address = publishAddress(node, node.transportPort);
    out['transport'] = { bound_address: [`${node.ip}:${node.transportPort}`], publish_address: address, profiles: {} };
  }
  if (metrics.has('http') && node.httpPort !== undefined) {
    const section: JsonObject = { bound_address: [`${node.ip}:${node.httpPort}`], publish_address: publishAddress(node, node.httpPort) };
    putBytes(section, 'max_content_length', settings.getBytes('http.max_content_length', 100 * 1024 * 1024), options.human);
    out['http'] = section;
  }
  if (metrics.has('plugins')) {
    out['plugins'] = [];
    out['modules'] = [];
  }
  // No ingest pipelines or processors exist in Gannet.
  if (metrics.has('ingest')) out['ingest'] = { processors: [] };
  return out;
}

/** JvmInfo's shape with V8's figures: the runtime really running the node. */
function runtimeSection(human: boolean): JsonObject {
  const runtime = runtimeInfo();
  const section: JsonObject = {
    pid: runtime.pid,
    version: runtime.version,
    vm_name: runtime.vmName,
    vm_version: runtime.vmVersion,
    vm_vendor: runtime.vmVendor,
    // There is no bundled JDK; ES prints null where it cannot tell.
    using_bundled_jdk: null,
  };
  putTimestamp(section, 'start_time_in_millis', 'start_time', runtime.startTimeMillis, human);
  const mem: JsonObject = {};
  putBytes(mem, 'heap_init', runtime.heapInitBytes, human);
  putBytes(mem, 'heap_max', runtime.heapMaxBytes, human);
  // V8 has no separate non-heap or direct-memory limit: the JVM prints 0 for a pool without a defined size.
  putBytes(mem, 'non_heap_init', 0, human);
  putBytes(mem, 'non_heap_max', 0, human);
  putBytes(mem, 'direct_max', 0, human);
  section['mem'] = mem;
  section['gc_collectors'] = runtime.gcCollectors;
  section['memory_pools'] = runtime.memoryPools;
  section['using_compressed_ordinary_object_pointers'] = String(runtime.usingCompressedPointers);
  section['input_arguments'] = runtime.inputArguments;
  return section;
}
