/**
 * ES's BoundedBreakIteratorScanner (boundary_scanner `sentence` with fragment_size > 0): passages are
 * sentences, but a run of sentences around a match is extended only while it stays within maxLen
 * characters, and a single sentence longer than that is cut at word boundaries around the match.
 * And Lucene's SplittingBreakIterator, which the UnifiedHighlighter wraps around every break iterator:
 * the values of a multi-valued field (joined with U+0000) are broken separately, so no passage crosses
 * a value.
 */
import { DONE, sentenceInstance, wordInstance, type BreakIterator } from './break-iterators.js';

export class BoundedBreakIteratorScanner implements BreakIterator {
  private lastPrecedingOffset = -1;
  private windowStart = -1;
  private windowEnd = -1;
  private innerStart = -1;
  private innerEnd = 0;

  constructor(
    private readonly mainBreak: BreakIterator,
    private readonly innerBreak: BreakIterator,
    private readonly maxLen: number,
  ) {}

  static sentence(maxLen: number): BoundedBreakIteratorScanner {
    return new BoundedBreakIteratorScanner(sentenceInstance(), wordInstance(), maxLen);
  }

  setText(text: string): void {
    this.lastPrecedingOffset = -1;
    this.windowStart = -1;
    this.windowEnd = -1;
    this.innerStart = -1;
    this.innerEnd = 0;
    this.mainBreak.setText(text);
    this.innerBreak.setText(text);
  }

  textLength(): number {
    return this.mainBreak.textLength();
  }

  // ES throws from first()/last() (elastic/elasticsearch#143439); the main iterator's answer is used here.
  first(): number {
    return this.mainBreak.first();
  }

  last(): number {
    return this.mainBreak.last();
  }

  preceding(offset: number): number {
    if (offset > this.windowStart && offset < this.windowEnd) {
      this.innerStart = this.innerEnd;
      this.innerEnd = this.windowEnd;
    } else {
      this.innerStart = Math.max(this.mainBreak.preceding(offset), 0);
      const targetEndOffset = offset + Math.max(0, this.maxLen - (offset - this.innerStart));
      const textEndIndex = this.textLength();
      this.innerEnd = targetEndOffset + 1 > textEndIndex ? textEndIndex : this.mainBreak.preceding(targetEndOffset + 1);
      // No break up to maxLen: take the first one after it.
      if (this.innerStart === this.innerEnd) {
        const following = this.mainBreak.following(targetEndOffset);
        this.innerEnd = following === DONE ? textEndIndex : following;
      }
      this.windowStart = this.innerStart;
      this.windowEnd = this.innerEnd;
    }
    if (this.innerEnd - this.innerStart > this.maxLen) {
      // Too big: word boundaries to the left of the match first, then the rest of maxLen to the right.
      if (offset - this.maxLen > this.innerStart) this.innerStart = Math.max(this.innerStart, this.innerBreak.preceding(offset - this.maxLen));
      const remaining = Math.max(0, this.maxLen - (offset - this.innerStart));
      if (offset + remaining < this.windowEnd) {
        const following = this.innerBreak.following(offset + remaining);
        this.innerEnd = Math.min(this.windowEnd, following === DONE ? this.textLength() : following);
      }
    }
    this.lastPrecedingOffset = offset - 1;
    return this.innerStart;
  }

  /** Only valid right after preceding(offset + 1), as FieldHighlighter calls it. */
  following(offset: number): number {
    if (offset !== this.lastPrecedingOffset) throw new Error("offset != lastPrecedingOffset: usage doesn't look like UnifiedHighlighter");
    return this.innerEnd;
  }
}

/** Lucene's SplittingBreakIterator over `separator`. */
export class SplittingBreakIterator implements BreakIterator {
  private text = '';
  private sliceStart = 0;
  private sliceEnd = 0;

  constructor(
    private readonly base: BreakIterator,
    private readonly separator: string,
  ) {}

  setText(text: string): void {
    this.text = text;
    this.sliceStart = 0;
    const end = text.indexOf(this.separator);
    this.sliceEnd = end === -1 ? text.length : end;
    if (this.sliceStart !== this.sliceEnd) this.base.setText(text.slice(this.sliceStart, this.sliceEnd));
  }

  textLength(): number {
    return this.text.length;
  }

  first(): number {
    return 0;
  }

  last(): number {
    return this.text.length;
  }

  following(offset: number): number {
    if (offset + 1 < this.sliceStart || offset + 1 > this.sliceEnd) {
      if (offset === this.text.length) return DONE;
      const start = this.text.lastIndexOf(this.separator, offset);
      this.sliceStart = start === -1 ? 0 : start + 1;
      const end = this.text.indexOf(this.separator, Math.max(offset + 1, this.sliceStart));
      this.sliceEnd = end === -1 ? this.text.length : end;
      if (this.sliceStart !== this.sliceEnd) this.base.setText(this.text.slice(this.sliceStart, this.sliceEnd));
    }
    if (this.sliceStart === this.sliceEnd) return offset + 1;
    if (offset === this.sliceStart - 1) return this.sliceStart + this.base.first();
    return this.sliceStart + this.base.following(offset - this.sliceStart);
  }

  preceding(offset: number): number {
    if (offset - 1 < this.sliceStart || offset - 1 > this.sliceEnd) {
      if (offset === 0) return DONE;
      const end = this.text.indexOf(this.separator, offset);
      this.sliceEnd = end === -1 ? this.text.length : end;
      const start = offset - 1 < 0 ? -1 : this.text.lastIndexOf(this.separator, offset - 1);
      this.sliceStart = start === -1 ? 0 : Math.min(start + 1, this.sliceEnd);
      if (this.sliceStart !== this.sliceEnd) this.base.setText(this.text.slice(this.sliceStart, this.sliceEnd));
    }
    if (this.sliceStart === this.sliceEnd) return offset - 1;
    if (offset === this.sliceEnd + 1) return this.sliceStart + this.base.last();
    return this.sliceStart + this.base.preceding(offset - this.sliceStart);
  }
}
