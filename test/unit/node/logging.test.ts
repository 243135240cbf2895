/**
 * The node's log: the file under `path.logs` rolls over by size without losing or splitting a line, keeps only
 * `max_files` rotated copies, and an error is one line with its type and reason (the stack only at debug).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { EsError } from '../../../src/common/errors.js';
import { createLogger, pinoLevel } from '../../../src/node/logger.js';
import { RotatingLogFile } from '../../../src/node/rotating-log-file.js';

test('the log file rotates by size, newest copy first, and keeps max_files copies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gannet-logs-'));
  try {
    const file = new RotatingLogFile({ directory: join(dir, 'logs'), baseName: 'c_server', maxBytes: 100, maxFiles: 2 });
    const line = (n: number) => `${JSON.stringify({ n, pad: 'x'.repeat(30) })}\n`; // 46-47 bytes
    for (let n = 0; n < 9; n++) file.write(line(n));
    file.close();
    const read = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((text) => (JSON.parse(text) as { n: number }).n);
    // Two lines fit in 100 bytes: [0 1] [2 3] [4 5] [6 7] [8]; two rotated copies are kept.
    assert.deepEqual(read(join(dir, 'logs', 'c_server.json')), [8]);
    assert.deepEqual(read(join(dir, 'logs', 'c_server-1.json')), [6, 7]);
    assert.deepEqual(read(join(dir, 'logs', 'c_server-2.json')), [4, 5]);
    assert.equal(existsSync(join(dir, 'logs', 'c_server-3.json')), false);
    // A line longer than the limit still goes whole into a file of its own.
    const again = new RotatingLogFile({ directory: join(dir, 'logs'), baseName: 'c_server', maxBytes: 100, maxFiles: 2 });
    again.write(`${'y'.repeat(300)}\n`);
    again.close();
    assert.equal(readFileSync(join(dir, 'logs', 'c_server.json'), 'utf8'), `${'y'.repeat(300)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function capture(level: string): { lines: Array<Record<string, any>>; logger: ReturnType<typeof createLogger> } {
  const lines: Array<Record<string, any>> = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text !== '') lines.push(JSON.parse(text));
      done();
    },
  });
  return { lines, logger: createLogger({ level, nodeName: 'n1', stdout }) };
}

test('an error is one line with type and reason; the stack only at debug', () => {
  const error = new EsError('illegal_argument_exception', 'bad thing', { causedBy: new EsError('number_format_exception', 'For input string: "x"') });
  const info = capture('INFO');
  info.logger.warn({ err: error }, 'failed');
  info.logger.debug({ err: error }, 'not shown at info');
  assert.equal(info.lines.length, 1);
  assert.deepEqual(info.lines[0]!.err, { type: 'illegal_argument_exception', reason: 'bad thing', caused_by: { type: 'number_format_exception', reason: 'For input string: "x"' } });
  const debug = capture('debug');
  debug.logger.warn({ err: new TypeError('boom') }, 'failed');
  assert.equal(debug.lines[0]!.err.type, 'TypeError');
  assert.match(debug.lines[0]!.err.stack, /^TypeError: boom\n {4}at /);
});

test('an unexpected failure keeps its stack at info, once: the internal error line has it, the request line names it', () => {
  const info = capture('info');
  const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
  info.logger.error({ err: bug, event: 'internal_error' }, 'internal error');
  info.logger.warn({ err: new EsError('exception', 'internal error', { cause: bug }), event: 'request_failed' }, 'path: /x, status: 500');
  assert.equal(info.lines.length, 2);
  assert.equal(info.lines[0]!.err.type, 'TypeError');
  assert.match(info.lines[0]!.err.stack, /^TypeError: Cannot read properties/);
  assert.deepEqual(info.lines[1]!.err, { type: 'exception', reason: 'internal error', cause: { type: 'TypeError', message: "Cannot read properties of undefined (reading 'x')" } });
  const system = Object.assign(new Error("EIO: i/o error, open '/data/x/translog'"), { code: 'EIO' });
  info.logger.warn({ err: new EsError('exception', 'i/o error', { cause: system }) }, 'failed');
  assert.deepEqual(info.lines[2]!.err.cause, { type: 'Error', message: "EIO: i/o error, open '/data/x/translog'" }, 'the path is in the log, not in the answer');
});

test("ES's level names map to pino's", () => {
  assert.deepEqual(['OFF', 'fatal', 'Error', 'WARN', 'info', 'DEBUG', 'trace', 'ALL'].map(pinoLevel), ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'trace']);
  const off = capture('OFF');
  off.logger.fatal('nothing');
  assert.equal(off.lines.length, 0);
});
