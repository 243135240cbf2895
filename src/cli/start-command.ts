/**
 * `gannet start [-E key=value ...] [--config PATH]`: runs one node in the foreground until SIGINT/SIGTERM,
 * then shuts down cleanly. Settings come from config/gannet.yml (or --config / GANNET_PATH_CONF) and -E flags.
 */
import { join } from 'node:path';
import { GannetNode } from '../node/node.js';
import { parseCommandLineSettings, resolveSettings } from '../node/node-settings.js';

export async function startCommand(args: string[]): Promise<number> {
  const pairs: string[] = [];
  let configDir = process.env['GANNET_PATH_CONF'] ?? 'config';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-E') pairs.push(args[++i] ?? '');
    else if (arg.startsWith('-E')) pairs.push(arg.slice(2));
    else if (arg === '--config') configDir = args[++i] ?? configDir;
    else {
      process.stderr.write(`gannet start: unknown argument [${arg}]\n`);
      return 64;
    }
  }
  // Signal handlers go in before the node starts: a SIGTERM that arrives while the node is starting (or just
  // after it logged "started") must still shut it down cleanly, never kill it mid-write.
  let requestedSignal: string | undefined;
  let onSignal: (signal: string) => void = (signal) => {
    requestedSignal ??= signal;
  };
  const sigint = () => onSignal('SIGINT');
  const sigterm = () => onSignal('SIGTERM');
  process.on('SIGINT', sigint);
  process.on('SIGTERM', sigterm);

  let node: GannetNode;
  try {
    const settings = resolveSettings({ configFile: join(configDir, 'gannet.yml'), commandLine: parseCommandLineSettings(pairs) });
    node = new GannetNode(settings);
    await node.start();
  } catch (err) {
    process.stderr.write(`gannet: failed to start: ${(err as Error).message}\n`);
    process.off('SIGINT', sigint);
    process.off('SIGTERM', sigterm);
    return 1;
  }
  return new Promise<number>((resolve) => {
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      node.logger.info({ event: 'signal', signal }, `received ${signal}, shutting down`);
      node.stop().then(
        () => resolve(0),
        (err: unknown) => {
          process.stderr.write(`gannet: error during shutdown: ${(err as Error).message}\n`);
          resolve(1);
        },
      );
    };
    onSignal = shutdown;
    if (requestedSignal) shutdown(requestedSignal);
  });
}
