/**
 * Exit codes of the operator commands, one table so scripts can rely on them. Health maps the cluster
 * colour to 0/1/2 (the convention of nagios-style checks); cancel and tasks reuse 1 and 2 for "nothing
 * matched" and "a failure came back". 3 and 4 mean the same for every command.
 */
export const ExitCode = {
  /** health: green; other commands: done. */
  ok: 0,
  /** health: yellow; cancel: no task matched. */
  yellowOrNothingMatched: 1,
  /** health: red; cancel and tasks: a node or task failure came back. */
  redOrFailure: 2,
  /** the node could not be reached: connection refused, DNS failure, no answer in time. */
  unreachable: 3,
  /** any other error: an HTTP error status, a response the CLI cannot read. */
  error: 4,
  /** bad command line (BSD EX_USAGE, as `gannet` already uses for an unknown command). */
  usage: 64,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The health colour as an exit code; undefined for a status string ES never sends. */
export function exitCodeForHealthStatus(status: string): ExitCodeValue | undefined {
  switch (status) {
    case 'green':
      return ExitCode.ok;
    case 'yellow':
      return ExitCode.yellowOrNothingMatched;
    case 'red':
      return ExitCode.redOrFailure;
    default:
      return undefined;
  }
}
