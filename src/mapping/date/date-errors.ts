/**
 * The two ways a date fails in Elasticsearch: the text does not fit the format (java.time's
 * DateTimeParseException, wrapped by ES in "failed to parse date field [..] with format [..]"), or it fits but
 * names an impossible date (java.time's DateTimeException, which ES lets through unwrapped).
 */
export class DateParseError extends Error {
  constructor(
    /** ES's IllegalArgumentException reason: "failed to parse date field [x] with format [f]". */
    message: string,
    /** The DateTimeParseException's reason, reported as caused_by. */
    readonly parseReason: string,
  ) {
    super(message);
    this.name = 'DateParseError';
  }
}

export class DateTimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DateTimeError';
  }
}

/** Thrown while building a formatter from a `format` string; the message is ES's IllegalArgumentException. */
export class DateFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DateFormatError';
  }
}
