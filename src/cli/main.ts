/** The `gannet` command: `start` runs a node; the operator commands talk to a running node over HTTP. */
import { processIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { DEFAULT_COMPATIBILITY_VERSION, GANNET_VERSION } from '../common/version.js';
import { OPERATOR_COMMANDS, commandHelp, findOperatorCommand, runOperatorCommand } from './run-operator-command.js';

const USAGE = `usage: gannet <command> [options]

commands:
  start         run a node in the foreground (-E key=value, --config DIR; gannet start --help)
  cluster       start|status|stop a local cluster on etcd (--nodes N, --dir DIR)

operator commands (talk to a running node over HTTP; --url URL or $GANNET_URL, default http://127.0.0.1:9200):
${OPERATOR_COMMANDS.map((command) => `  ${command.name.padEnd(12)}  ${command.summary}`).join('\n')}

every operator command takes --json (print the node's JSON response) and --help; gannet --version prints
the version.
exit codes: 0 ok/green, 1 yellow/nothing matched, 2 red/failure reported, 3 node unreachable,
4 other error, 5 followed task cancelled, 64 bad command line, 130 Ctrl-C stopped following.
"gannet help <command>" explains each one.
`;

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const operatorCommand = findOperatorCommand(command);
  if (operatorCommand !== undefined) return runOperatorCommand(operatorCommand, rest, processIo());
  switch (command) {
    case 'start': {
      // Loaded on demand: the operator commands are pure HTTP clients and should not pay for (or depend on) the server code.
      const { startCommand } = await import('./start-command.js');
      return startCommand(rest);
    }
    case 'cluster': {
      const { clusterCommand } = await import('./cluster-command.js');
      return clusterCommand(rest);
    }
    case 'help': {
      const topic = findOperatorCommand(rest[0]);
      if (rest[0] === 'start') {
        const { START_HELP } = await import('./start-command.js');
        process.stdout.write(START_HELP);
      } else process.stdout.write(topic !== undefined ? commandHelp(topic) : USAGE);
      return ExitCode.ok;
    }
    case '--version':
    case '-V':
    case 'version':
      process.stdout.write(versionLine());
      return ExitCode.ok;
    case undefined:
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? ExitCode.usage : ExitCode.ok;
    default:
      process.stderr.write(`gannet: unknown command [${command}]\n${USAGE}`);
      return ExitCode.usage;
  }
}

/** As `elasticsearch --version` prints its version, build and runtime on one line. */
function versionLine(): string {
  return `Gannet ${GANNET_VERSION} (Elasticsearch API ${DEFAULT_COMPATIBILITY_VERSION} by default), Node.js ${process.version}\n`;
}
