/** The `gannet` command: `start` runs a node; the operator commands talk to a running node over HTTP. */
import { startCommand } from './start-command.js';

const USAGE = `usage: gannet <command> [options]

commands:
  start         run a node in the foreground (-E key=value, --config DIR)
`;

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'start':
      return startCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 64 : 0;
    default:
      process.stderr.write(`gannet: unknown command [${command}]\n${USAGE}`);
      return 64;
  }
}
