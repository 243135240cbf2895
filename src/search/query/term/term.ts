/** A term of a field: UTF-8 bytes as the term dictionary stores them, and the text for printing. */
export class Term {
  readonly bytes: Buffer;
  readonly text: string;

  constructor(
    readonly field: string,
    term: string | Uint8Array,
  ) {
    this.bytes = typeof term === 'string' ? Buffer.from(term, 'utf8') : Buffer.from(term);
    this.text = typeof term === 'string' ? term : this.bytes.toString('utf8');
  }

  equals(other: Term): boolean {
    return this.field === other.field && this.bytes.equals(other.bytes);
  }

  /** Orders by field, then bytes (Lucene's Term.compareTo). */
  compareTo(other: Term): number {
    if (this.field !== other.field) return this.field < other.field ? -1 : 1;
    return Buffer.compare(this.bytes, other.bytes);
  }

  toString(): string {
    return `${this.field}:${this.text}`;
  }
}
