/**
 * `gannet start [-E key=value ...] [--config DIR] [--pidfile FILE]`: runs one node in the foreground until
 * SIGINT/SIGTERM, then shuts down cleanly (exit 0). Settings come from DIR/gannet.yml (DIR: --config, else
 * GANNET_PATH_CONF, else ./config) and -E flags.
 *
 * A start that fails, whatever the cause (bad settings, port taken, data path unusable or locked), prints one
 * line `gannet: failed to start: <cause>` on stderr, stops whatever had started (no listener is left, the node
 * lock is released) and exits 1 at once, as a service manager expects of a daemon that cannot run.
 */
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { EsError } from '../common/errors.js';
import type { GannetNode } from '../node/node.js';
import { traceTimerCreation } from '../common/live-timers.js';
import { checkConfigFolder, parseCommandLineSettings, resolveSettings } from '../node/node-settings.js';
import { ExitCode } from './exit-codes.js';
import { exitAfterShutdown } from './exit-watchdog.js';

export const START_HELP = `usage: gannet start [-E key=value ...] [--config DIR] [--pidfile FILE]

Runs a Gannet node in the foreground until SIGINT or SIGTERM, then shuts it down cleanly.

options:
  -E key=value      a node setting; wins over the config file (repeatable)
  --config DIR      the folder of gannet.yml and node.options (default: $GANNET_PATH_CONF, else ./config);
                    it must exist; a missing gannet.yml inside it means no settings from a file
  -p, --pidfile FILE
                    write the node's process id to FILE once it has started; removed on shutdown
  -h, --help        show this help

Unknown settings, index-level settings and malformed values stop the start, as Elasticsearch does.
The settings and their defaults are listed in README.md ("Settings"). Logs are JSON lines on stdout and in
<path.logs>/<cluster.name>_server.json.

exit codes: 0 stopped by a signal after a clean shutdown; 1 failed to start (the reason is on stderr) or
failed to shut down; 64 bad command line.
`;

interface StartOptions {
  readonly pairs: string[];
  readonly configDir: string;
  readonly pidFile: string | undefined;
}

function parseStartArgs(args: readonly string[]): StartOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      E: { type: 'string', short: 'E', multiple: true },
      config: { type: 'string' },
      pidfile: { type: 'string', short: 'p' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help === true) return 'help';
  if (positionals.length > 0) throw new Error(`unexpected argument [${positionals[0]}]`);
  return {
    pairs: values.E ?? [],
    configDir: values.config ?? process.env['GANNET_PATH_CONF'] ?? 'config',
    pidFile: values.pidfile,
  };
}

/** The one line that says why a start failed: an ES error's reason with its cause, or a plain message. */
function failureLine(err: unknown): string {
  if (err instanceof EsError) return err.causedBy === undefined ? err.message : `${err.message}: ${err.causedBy.message}`;
  return err instanceof Error ? err.message : String(err);
}

export async function startCommand(args: string[]): Promise<number> {
  let options: StartOptions;
  try {
    const parsed = parseStartArgs(args);
    if (parsed === 'help') {
      process.stdout.write(START_HELP);
      return ExitCode.ok;
    }
    options = parsed;
  } catch (err) {
    process.stderr.write(`gannet start: ${(err as Error).message.replace(/\. To specify a positional argument.*$/s, '')}\n(see gannet start --help)\n`);
    return ExitCode.usage;
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

  let node: GannetNode | undefined;
  let running = false;
  try {
    checkConfigFolder(options.configDir);
    const settings = resolveSettings({ configFile: join(options.configDir, 'gannet.yml'), commandLine: parseCommandLineSettings(options.pairs) });
    // The node's modules (~760 files, 1-2 s of CPU on a loaded host) load only once the settings are known to be
    // good: a start refused for its settings or its config folder answers at once (node-settings.js loads ~20).
    const { GannetNode } = await import('../node/node.js');
    node = new GannetNode(settings);
    // GannetNode.start stops whatever it started before it throws.
    await node.start();
    running = true;
    if (options.pidFile !== undefined) writeFileSync(options.pidFile, `${process.pid}\n`);
  } catch (err) {
    const line = failureLine(err);
    node?.logger.error({ event: 'start_failed', reason: line }, `failed to start: ${line}`);
    if (running) await node?.stop().catch(() => undefined);
    node?.closeLogs();
    process.stderr.write(`gannet: failed to start: ${line}\n`);
    // Exit now rather than when the event loop drains: nothing is left to finish, and a service manager must
    // see the failure at once (a stray timer or socket must not keep a failed node's process alive).
    process.exit(1);
  }
  const started = node;
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      started.logger.info({ event: 'signal', signal }, `received ${signal}, shutting down`);
      // Should a timer outlive the shutdown, the exit watchdog names it with the stack that created it.
      traceTimerCreation();
      started.stop().then(
        () => {
          if (options.pidFile !== undefined) rmSync(resolve(options.pidFile), { force: true });
          exitAfterShutdown(0);
          resolveExit(0);
        },
        (err: unknown) => {
          process.stderr.write(`gannet: error during shutdown: ${(err as Error).message}\n`);
          exitAfterShutdown(1);
          resolveExit(1);
        },
      );
    };
    onSignal = shutdown;
    if (requestedSignal) shutdown(requestedSignal);
  });
}
