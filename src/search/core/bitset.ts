/** A fixed-size set of doc ids of one segment (Lucene's FixedBitSet), and a cursor over it. */
import { NO_MORE_DOCS, type DocIdSetIterator } from './doc-id-set-iterator.js';

export class FixedBitSet {
  readonly words: Uint32Array;
  private count = -1;

  constructor(readonly length: number) {
    this.words = new Uint32Array((length + 31) >>> 5);
  }

  set(index: number): void {
    this.words[index >>> 5] |= 1 << (index & 31);
    this.count = -1;
  }

  get(index: number): boolean {
    return (this.words[index >>> 5]! & (1 << (index & 31))) !== 0;
  }

  /** The first set bit >= from, or NO_MORE_DOCS. */
  nextSetBit(from: number): number {
    if (from >= this.length) return NO_MORE_DOCS;
    const words = this.words;
    let wordIndex = from >>> 5;
    let word = words[wordIndex]! & (0xffffffff << (from & 31));
    while (word === 0) {
      if (++wordIndex >= words.length) return NO_MORE_DOCS;
      word = words[wordIndex]!;
    }
    const bit = 31 - Math.clz32(word & -word);
    const index = (wordIndex << 5) + bit;
    return index < this.length ? index : NO_MORE_DOCS;
  }

  cardinality(): number {
    if (this.count < 0) {
      let total = 0;
      for (const word of this.words) {
        let v = word - ((word >>> 1) & 0x55555555);
        v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
        total += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
      }
      this.count = total;
    }
    return this.count;
  }
}

export class BitSetIterator implements DocIdSetIterator {
  private doc = -1;

  constructor(
    private readonly bits: FixedBitSet,
    private readonly costEstimate = bits.cardinality(),
  ) {}

  docID(): number {
    return this.doc;
  }

  nextDoc(): number {
    return (this.doc = this.bits.nextSetBit(this.doc + 1));
  }

  advance(target: number): number {
    return (this.doc = this.bits.nextSetBit(target));
  }

  cost(): number {
    return this.costEstimate;
  }
}

/** Every doc id in [0, maxDoc). */
export class AllDocsIterator implements DocIdSetIterator {
  private doc = -1;

  constructor(private readonly maxDoc: number) {}

  docID(): number {
    return this.doc;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    return (this.doc = target < this.maxDoc ? target : NO_MORE_DOCS);
  }

  cost(): number {
    return this.maxDoc;
  }
}

/** Docs in [0, maxDoc) for which `accept` holds, found by scanning (doc-values filters). */
export class PredicateIterator implements DocIdSetIterator {
  private doc = -1;

  constructor(
    private readonly maxDoc: number,
    private readonly accept: (doc: number) => boolean,
    private readonly costEstimate = maxDoc,
  ) {}

  docID(): number {
    return this.doc;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    for (let doc = target; doc < this.maxDoc; doc++) {
      if (this.accept(doc)) return (this.doc = doc);
    }
    return (this.doc = NO_MORE_DOCS);
  }

  cost(): number {
    return this.costEstimate;
  }
}
