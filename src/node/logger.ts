/**
 * The node's logs: structured JSON lines (pino) on stdout and in `<path.logs>/<cluster.name>_server.json`,
 * rotated by size. `logger.level` takes ES's (log4j's) level names. An error is logged as its type and
 * reason on one line; its stack is added only when the level is debug or trace, so an operator's log is never
 * flooded with stack traces by requests that failed as they should.
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

/** What an error becomes in a log line: type and reason, with the stack only at debug. */
function errorSerializer(withStack: boolean) {
  return (err: unknown): Record<string, unknown> => {
    if (!(err instanceof Error)) return { message: String(err) };
    const out: Record<string, unknown> = err instanceof EsError ? { type: err.type, reason: err.message } : { type: err.name, message: err.message };
    if (err instanceof EsError && err.causedBy !== undefined) out['caused_by'] = { type: err.causedBy.type, reason: err.causedBy.message };
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
