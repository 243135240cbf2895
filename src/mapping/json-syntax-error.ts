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
