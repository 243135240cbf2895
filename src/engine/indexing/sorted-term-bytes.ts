/**
 * A buffered field's terms in byte order, each encoded once into one shared buffer: the postings (term
 * dictionary) and the sorted set doc values of the field both read them from here. Encoding every term with
 * its own `Buffer.from` (once per structure) and sorting doc values' terms again from strings was a third of
 * writing a segment of small documents (bench/micro/segment-write.ts).
 */

export class SortedTermBytes {
  private constructor(
    /** Term ids in the byte order of their terms. */
    readonly order: Int32Array,
    /** The terms' bytes back to back in that order: the i-th spans [starts[i], starts[i + 1]). */
    private readonly bytes: Buffer,
    private readonly starts: Int32Array,
  ) {}

  /** `termBytes`: how the dictionary's strings become bytes (UTF-8, or latin1 for raw byte terms). */
  static encode(terms: readonly string[], needsByteOrderSort: boolean, termBytes: 'utf8' | 'latin1'): SortedTermBytes {
    const order = sortTermIds(terms, needsByteOrderSort);
    let capacity = 0;
    for (let i = 0; i < terms.length; i++) capacity += terms[i]!.length;
    // UTF-8 takes at most 3 bytes per UTF-16 unit; grown below only when a term is not all ASCII.
    let bytes: Buffer = Buffer.allocUnsafe(Math.max(64, capacity));
    const starts = new Int32Array(terms.length + 1);
    let at = 0;
    for (let i = 0; i < order.length; i++) {
      const term = terms[order[i]!]!;
      starts[i] = at;
      const length = term.length;
      if (at + 3 * length > bytes.length) bytes = grow(bytes, at, at + 3 * length);
      // ASCII (nearly every term) is copied unit by unit: a native encode call per short term costs more.
      let j = 0;
      for (; j < length; j++) {
        const unit = term.charCodeAt(j);
        if (unit >= 0x80) break;
        bytes[at + j] = unit;
      }
      at += j === length ? length : bytes.write(term, at, termBytes);
    }
    starts[order.length] = at;
    return new SortedTermBytes(order, bytes, starts);
  }

  get size(): number {
    return this.order.length;
  }

  /** The bytes of the i-th term in byte order (a view: valid as long as this object is). */
  term(i: number): Uint8Array {
    const start = this.starts[i]!;
    return new Uint8Array(this.bytes.buffer, this.bytes.byteOffset + start, this.starts[i + 1]! - start);
  }
}

function grow(bytes: Buffer, used: number, needed: number): Buffer {
  const grown = Buffer.allocUnsafe(Math.max(needed, bytes.length * 2));
  bytes.copy(grown, 0, 0, used);
  return grown;
}

/**
 * Term ids in byte order of their terms. UTF-16 order is UTF-8 byte (code point) order except between a surrogate
 * and a unit of U+E000..U+FFFF: terms holding a unit from U+D800 up are sorted by a key that moves surrogates above
 * U+E000..U+FFFF (compareUtf8Order's mapping), so the engine's native string sort does all the comparing; a
 * comparator in JS, called per comparison, cost more than the rest of the encoding.
 */
function sortTermIds(terms: readonly string[], needsByteOrderSort: boolean): Int32Array {
  const keys = needsByteOrderSort ? terms.map((term) => (HIGH_UNIT.test(term) ? codePointOrderKey(term) : term)) : terms;
  const ids = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) ids.set(keys[i]!, i);
  const sorted = keys.slice().sort();
  const order = new Int32Array(terms.length);
  for (let i = 0; i < sorted.length; i++) order[i] = ids.get(sorted[i]!)!;
  return order;
}

const HIGH_UNIT = /[\ud800-\uffff]/;

/** The term with U+D800..U+DFFF moved to U+F800..U+FFFF and U+E000..U+FFFF to U+D800..U+F7FF (a bijection). */
function codePointOrderKey(term: string): string {
  let key = '';
  for (let start = 0; start < term.length; start += 8192) {
    const units: number[] = [];
    for (let i = start; i < Math.min(term.length, start + 8192); i++) {
      const unit = term.charCodeAt(i);
      units.push(unit < 0xd800 ? unit : unit <= 0xdfff ? unit + 0x2000 : unit - 0x800);
    }
    key += String.fromCharCode(...units);
  }
  return key;
}
