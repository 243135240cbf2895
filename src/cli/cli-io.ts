/** Where an operator command writes, and whether it may colour its output. Injected so tests capture both streams. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Readonly<Record<string, string | undefined>>;
  /** Colour only for a person at a terminal: never in pipes, files or when NO_COLOR is set (no-color.org). */
  color: boolean;
  /** stdout is a terminal: a progress line may be redrawn in place. Absent: a pipe or a file. */
  stdoutIsTty?: boolean;
  /** The terminal's width, so a redrawn line never wraps. */
  stdoutColumns?: number;
  /** Calls `handler` on Ctrl-C (SIGINT) until the returned function is called. Absent: nothing interrupts. */
  onInterrupt?: (handler: () => void) => () => void;
}

export function processIo(): CliIo {
  const noColor = process.env['NO_COLOR'] !== undefined && process.env['NO_COLOR'] !== '';
  const isTty = process.stdout.isTTY === true;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    color: isTty && !noColor,
    stdoutIsTty: isTty,
    stdoutColumns: isTty ? process.stdout.columns : undefined,
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  };
}

const ANSI = { green: '32', yellow: '33', red: '31', bold: '1', dim: '2' } as const;
export type Paint = keyof typeof ANSI;

export function paint(text: string, style: Paint, enabled: boolean): string {
  return enabled ? `\u001b[${ANSI[style]}m${text}\u001b[0m` : text;
}

/** The printed width of a string, not counting colour escapes. */
export function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '').length;
}
