/**
 * The node's logs: structured JSON lines (pino) on stdout and in `<path.logs>/<cluster.name>_server.json`,
 * rotated by size. `logger.level` takes ES's (log4j's) level names. An error is logged as its type and
 * reason on one line; the stack of a request that failed as it should is added only when the level is debug or
 * trace, so an operator's log is never flooded with stack traces (errorSerializer).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { EsError } from '../common/errors.js';
import { RotatingLogFile } from './rotating-log-file.js';

/** ES's level names (log4j) as pino's. */
const PINO_LEVELS: Readonly<Record<string, string>> = {
  OFF: 'silent',
  FATAL: 'fatal',
  ERROR: 'error',
  WARN: 'warn',
  INFO: 'info',
  DEBUG: 'debug',
  TRACE: 'trace',
  ALL: 'trace',
};

export function pinoLevel(esLevel: string): string {
  return PINO_LEVELS[esLevel.toUpperCase()] ?? 'info';
}

export interface LoggerOptions {
  /** ES level name (`info`, `DEBUG`, ...). */
  readonly level: string;
  readonly nodeName: string;
  /** The log file; none for loggers of tests and tools that only want stdout. */
  readonly file?: RotatingLogFile;
  /** Where the stdout lines go (tests capture them); default stdout, written synchronously. */
  readonly stdout?: DestinationStream;
}

/**
 * What an error becomes in a log line. One of ES's errors (a request that failed as it should) is its type and
 * reason, the JavaScript failure underneath it as `cause` (its type and message: a system error's path is there),
 * and the stacks only at debug. Any other error is a bug or a failure the node did not expect (common/errors.ts
 * reports those once, as `internal_error`): its stack is what finds it, so it is always there, inside the one
 * JSON line.
 */
function errorSerializer(withStack: boolean) {
  return (err: unknown): Record<string, unknown> => {
    if (!(err instanceof Error)) return { message: String(err) };
    if (!(err instanceof EsError)) return { type: err.name, message: err.message, ...(err.stack !== undefined && { stack: err.stack }) };
    const out: Record<string, unknown> = { type: err.type, reason: err.message };
    if (err.causedBy !== undefined) out['caused_by'] = { type: err.causedBy.type, reason: err.causedBy.message };
    const cause = err.cause;
    if (cause instanceof Error && !(cause instanceof EsError)) {
      out['cause'] = { type: cause.name, message: cause.message, ...(withStack && cause.stack !== undefined && { stack: cause.stack }) };
    }
    if (withStack && err.stack !== undefined) out['stack'] = err.stack;
    return out;
  };
}

export function createLogger(options: LoggerOptions): Logger {
  const level = pinoLevel(options.level);
  const withStack = level === 'debug' || level === 'trace';
  const stdout = options.stdout ?? pino.destination({ fd: 1, sync: true });
  if (level === 'silent') return pino({ level });
  const streams: pino.StreamEntry[] = [{ stream: stdout, level: level as pino.Level }];
  if (options.file !== undefined) streams.push({ stream: options.file, level: level as pino.Level });
  return pino(
    {
      level,
      base: { node: options.nodeName },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: errorSerializer(withStack) },
    },
    streams.length === 1 ? stdout : pino.multistream(streams),
  );
}
