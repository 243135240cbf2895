/**
 * The translog's errors, with Elasticsearch's types from the one error table. Corruption names the file and
 * the byte offset so an operator can look at the bytes, and says what the loss means and what to do.
 */
import { EsError, toEsError } from '../../common/errors.js';

/**
 * ES's TranslogCorruptedException ("translog from source [..] is corrupted, .."). `file` and `offset` are
 * also readable as fields so callers and tests need not parse the message; offset is -1 when the problem
 * is the file as a whole (missing, wrong UUID).
 */
export class TranslogCorruptedError extends EsError {
  constructor(
    readonly file: string,
    readonly offset: number,
    details: string,
  ) {
    super('translog_corrupted_exception', `translog from source [${file}] is corrupted, ${details}`);
  }
}

const RECOVER_ADVICE =
  'these bytes were acknowledged as durable, so this shard copy cannot be trusted: recover the shard from a replica or a snapshot';

export const translogErrors = {
  /** Bytes covered by a checkpoint that fail their checksum or do not parse. */
  corruptedAt: (file: string, offset: number, what: string) =>
    new TranslogCorruptedError(file, offset, `${what} at offset [${offset}]; ${RECOVER_ADVICE}`),

  /** A generation file shorter than its checkpoint says it is. */
  truncated: (file: string, actualLength: number, checkpointOffset: number) =>
    new TranslogCorruptedError(
      file,
      actualLength,
      `file is truncated to [${actualLength}] bytes but its checkpoint covers [${checkpointOffset}] bytes (at offset [${actualLength}]); ${RECOVER_ADVICE}`,
    ),

  /** A generation file's header does not decode; the details say which field and where. */
  badHeader: (file: string, what: string) => new TranslogCorruptedError(file, 0, `bad header at offset [0]: ${what}; ${RECOVER_ADVICE}`),

  badFile: (file: string, what: string) => new TranslogCorruptedError(file, -1, `${what}; ${RECOVER_ADVICE}`),

  badCheckpoint: (file: string, what: string) =>
    new TranslogCorruptedError(
      file,
      -1,
      `checkpoint ${what}; the checkpoint says which operations are durable, so recovery cannot proceed: recover the shard from a replica or a snapshot`,
    ),

  uuidMismatch: (file: string, expected: string, actual: string) =>
    new TranslogCorruptedError(
      file,
      -1,
      `expected translog UUID [${expected}] but got [${actual}]: this translog file belongs to a different translog`,
    ),

  notFound: (dir: string) =>
    new EsError('translog_exception', `no translog found in [${dir}]; open it with createIfMissing to start a new one`),

  /** An I/O failure while writing: the translog stops accepting writes (ES calls this a tragic event). */
  ioFailure: (what: string, path: string, cause: unknown) =>
    new EsError('translog_exception', `failed to ${what} [${path}]: ${toEsError(cause).reason}`),

  alreadyClosed: (tragedy: EsError | undefined) =>
    new EsError('already_closed_exception', 'translog is already closed', tragedy ? { causedBy: tragedy } : {}),

  termTooNew: (currentTerm: number, operationTerm: number) =>
    new EsError(
      'illegal_argument_exception',
      `operation term is newer than the current term; current term [${currentTerm}], operation term [${operationTerm}]`,
    ),

  invalidOperation: (reason: string) => new EsError('illegal_argument_exception', `invalid translog operation: ${reason}`),
};
