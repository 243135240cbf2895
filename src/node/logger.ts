/** Structured JSON logs (pino) to stdout; `logger.level` sets the level (default info). */
import { pino, type Logger } from 'pino';

export function createLogger(level: string, nodeName: string): Logger {
  return pino({
    level,
    base: { node: nodeName },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
