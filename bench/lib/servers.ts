/**
 * The servers a track measures side by side: Gannet always, then each `--peer` (OpenSearch) that can run here.
 * A peer that cannot (no Java, no Maven, Maven Central unreachable) becomes a row saying it was skipped and
 * why, and the track goes on with Gannet alone.
 */
import type { EngineResult } from './report.js';
import type { SearchServer } from '../peers/http-server.js';
import { startGannet } from '../peers/gannet-http.js';
import { OPENSEARCH_VERSION, prepareOpenSearch, startOpenSearch } from '../peers/opensearch.js';

export const SERVER_PEERS = ['opensearch'] as const;

export interface ServerEntry {
  /** The engine column of the rows this server produces. */
  name: string;
  start(): Promise<SearchServer>;
}

export interface ServerLineup {
  servers: ServerEntry[];
  /** One row per requested peer that cannot run, with the reason. */
  skipped: EngineResult[];
}

export async function serverLineup(peers: readonly string[]): Promise<ServerLineup> {
  const lineup: ServerLineup = { servers: [{ name: 'gannet', start: startGannet }], skipped: [] };
  for (const peer of new Set(peers)) {
    if (peer !== 'opensearch') throw new Error(`unknown --peer [${peer}]: one of ${SERVER_PEERS.join(', ')}`);
    const name = `opensearch ${OPENSEARCH_VERSION}`;
    const prepared = await prepareOpenSearch();
    if (prepared.ok) {
      lineup.servers.push({ name, start: startOpenSearch });
    } else {
      process.stderr.write(`peer ${name} skipped: ${prepared.reason}\n`);
      lineup.skipped.push({ engine: name, metrics: {}, unavailable: `skipped: ${prepared.reason}` });
    }
  }
  return lineup;
}
