/** The contract between the runner and each operator command (health, nodes, allocation, tasks, cancel, reindex). */
import type { CliIo } from './cli-io.js';
import type { GannetClient } from './gannet-client.js';
import type { OptionSpecs, OptionValues } from './operator-options.js';

export interface CommandContext {
  client: GannetClient;
  io: CliIo;
  /** --json: print the node's body as received; exit codes stay the same. */
  json: boolean;
  values: OptionValues;
  positionals: string[];
  /** The X-Opaque-Id this run sends, so `tasks` can leave its own request out of the list. */
  opaqueId: string;
}

export interface OperatorCommand {
  name: string;
  /** One line for `gannet --help`. */
  summary: string;
  /** The body of `gannet <name> --help`, above the common options. */
  help: string;
  options: OptionSpecs;
  maxPositionals: number;
  /** Validates its options (throwing UsageError), talks to the node, writes output; returns the exit code. */
  run(context: CommandContext): Promise<number>;
}

/** Writes the body as received, so `--json | jq` sees exactly what the node sent. */
export function writeRawJson(io: CliIo, text: string): void {
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
