/** Gannet as a benchmarked server: a real node process (test/helpers/node-process.ts), driven over HTTP. */
import { NodeProcess } from '../../test/helpers/node-process.js';
import { SearchServer } from './http-server.js';

export async function startGannet(): Promise<SearchServer> {
  const node = await NodeProcess.start({ settings: { 'node.name': 'bench' } });
  return new SearchServer('gannet', {
    port: node.port,
    pid: node.child.pid,
    async stop() {
      await node.stop();
    },
  });
}
