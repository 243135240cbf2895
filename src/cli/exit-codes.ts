/**
 * Exit codes of the operator commands, one table so scripts can rely on them. Health maps the cluster
 * colour to 0/1/2 (the convention of nagios-style checks); cancel and tasks reuse 1 and 2 for "nothing
 * matched" and "a failure came back". 3 and 4 mean the same for every command. Following a task
 * (`tasks --follow`, `reindex`) adds 5 for "the task was cancelled" and 130 (128 + SIGINT, the shell's
 * convention) for "the operator pressed Ctrl-C and stopped following".
 */
export const ExitCode = {
  /** health: green; other commands: done. */
  ok: 0,
  /** health: yellow; cancel: no task matched; following: no such task. */
  yellowOrNothingMatched: 1,
  /** health: red; cancel and tasks: a node or task failure came back; following: the task failed or reported failures. */
  redOrFailure: 2,
  /** the node could not be reached: connection refused, DNS failure, no answer in time. */
  unreachable: 3,
  /** any other error: an HTTP error status, a response the CLI cannot read. */
  error: 4,
  /** a followed task ended because it was cancelled (its partial counts are printed). */
  cancelled: 5,
  /** bad command line (BSD EX_USAGE, as `gannet` already uses for an unknown command). */
  usage: 64,
  /** Ctrl-C stopped following a task (the task itself keeps running unless --cancel-on-interrupt). */
  interrupted: 130,
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
