/**
 * Runs one operator command: parses its command line, answers --help, builds the HTTP client for
 * --url/$GANNET_URL, and turns every failure into a one-line message and the documented exit code.
 */
import { randomBytes } from 'node:crypto';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { DEFAULT_URL, GannetClient, ResponseError, UnreachableError } from './gannet-client.js';
import type { OperatorCommand } from './operator-command.js';
import { COMMON_OPTIONS_HELP, UsageError, booleanOption, parseCommandLine, resolveUrl, wantsHelp } from './operator-options.js';
import { allocationCommand } from './allocation-command.js';
import { cancelCommand } from './cancel-command.js';
import { healthCommand } from './health-command.js';
import { nodesCommand } from './nodes-command.js';
import { reindexCommand } from './reindex-command.js';
import { tasksCommand } from './tasks-command.js';

export const OPERATOR_COMMANDS: readonly OperatorCommand[] = [healthCommand, nodesCommand, allocationCommand, tasksCommand, cancelCommand, reindexCommand];

export function findOperatorCommand(name: string | undefined): OperatorCommand | undefined {
  return OPERATOR_COMMANDS.find((command) => command.name === name);
}

export function commandHelp(command: OperatorCommand): string {
  return `${command.help}\n\n${COMMON_OPTIONS_HELP}\n`;
}

export async function runOperatorCommand(command: OperatorCommand, args: readonly string[], io: CliIo): Promise<number> {
  const prefix = `gannet ${command.name}`;
  if (wantsHelp(args)) {
    io.stdout.write(commandHelp(command));
    return ExitCode.ok;
  }
  let json = false;
  try {
    const commandLine = parseCommandLine(args, command.options, command.maxPositionals);
    json = booleanOption(commandLine.values, 'json');
    // Unique per run, so `gannet tasks` can hide exactly its own request and operators can spot CLI requests in logs.
    const opaqueId = `gannet-cli-${process.pid}-${randomBytes(4).toString('hex')}`;
    const client = GannetClient.forUrl(resolveUrl(commandLine.values, io.env, DEFAULT_URL), { opaqueId });
    return await command.run({ client, io, json, values: commandLine.values, positionals: commandLine.positionals, opaqueId });
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`${prefix}: ${err.message}\nrun "gannet ${command.name} --help" for usage\n`);
      return ExitCode.usage;
    }
    if (err instanceof UnreachableError) {
      io.stderr.write(`${prefix}: ${err.message}\n`);
      return ExitCode.unreachable;
    }
    if (err instanceof ResponseError) {
      // With --json the error body is still what a script wants to read.
      if (json && err.response.text !== '') io.stdout.write(err.response.text.endsWith('\n') ? err.response.text : `${err.response.text}\n`);
      io.stderr.write(`${prefix}: ${err.message}\n`);
      return ExitCode.error;
    }
    io.stderr.write(`${prefix}: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return ExitCode.error;
  }
}
