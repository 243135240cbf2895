/** A malformed JSON document, located like Jackson locates it: 1-based line, 1-based byte column. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/**
 * A value past Jackson's StreamReadConstraints (ES's JSON parser): the literal is well formed but too long to
 * be read, which ES reports as a document_parsing_exception caused by stream_constraints_exception.
 */
export class JsonConstraintError extends JsonSyntaxError {
  constructor(message: string, line: number, column: number) {
    super(message, line, column);
    this.name = 'JsonConstraintError';
  }
}

/** StreamReadConstraints.DEFAULT_MAX_NUM_LEN: the longest number literal Jackson reads. */
export const MAX_NUMBER_LENGTH = 1000;
