/**
 * java.text.BreakIterator as ES's unified highlighter uses it (Locale.ROOT, the JDK's rule-based sentence
 * and word iterators), reduced to the boundary lists those rules produce for common text, plus the calls
 * the highlighter makes: preceding(offset) (the last boundary before offset, DONE at 0) and
 * following(offset) (the first boundary after offset, DONE at the end).
 *
 * Sentence rules (checked against JDK 17's getSentenceInstance(Locale.ROOT)): `!` or `?` (with any further
 * terminators, periods and closing quotes/brackets) ends a sentence after the whitespace that follows,
 * whatever comes next ("Is it? yes" breaks before "yes", "Wow!What" right after "!"). A period does only
 * when whitespace follows and the next character is an uppercase or uncased letter or opening punctuation:
 * "e.g. foo", "3.14", "end.Next", "spaces. 1." and "is. - dash" do not break, "Mr. Smith" does (the JDK
 * knows no abbreviations). U+2028 and U+2029 always end one. Newlines are plain whitespace.
 * Word rules: runs of letters, digits and `_` joined across a single `'`, `-`, `.` or `’` between them and
 * `,` between digits ("don't", "well-known", "U.S.A", "12,345"), a currency sign before a digit ("$5");
 * horizontal whitespace with at most one line break; every other character on its own.
 */

export const DONE = -1;

export interface BreakIterator {
  setText(text: string): void;
  /** The length of the text set (CharacterIterator.getEndIndex). */
  textLength(): number;
  first(): number;
  last(): number;
  preceding(offset: number): number;
  following(offset: number): number;
}

const TERMINATOR = /[!?\u3002\uff01\uff1f]/u;
const PERIOD = /[.\uff0e]/u;
const CLOSER = /[\p{Pe}\p{Pf}"']/u;
const SPACE = /[\t\n\r\f\p{Zs}]/u;
const SENTENCE_OPENER = /[\p{Lu}\p{Lt}\p{Lo}\p{Lm}\p{Ps}\p{Pi}"']/u;
const HARD_BREAK = /[\u2028\u2029]/u;

/** The boundaries of getSentenceInstance over text: 0, every break, text.length. */
export function sentenceBoundaries(text: string): number[] {
  const breaks = [0];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const char = text[i]!;
    if (HARD_BREAK.test(char)) {
      i++;
      if (i < n) breaks.push(i);
      continue;
    }
    if (!TERMINATOR.test(char) && !PERIOD.test(char)) {
      i++;
      continue;
    }
    let hasTerminator = TERMINATOR.test(char);
    let j = i + 1;
    while (j < n && (TERMINATOR.test(text[j]!) || PERIOD.test(text[j]!) || CLOSER.test(text[j]!))) {
      if (TERMINATOR.test(text[j]!)) hasTerminator = true;
      j++;
    }
    let k = j;
    while (k < n && SPACE.test(text[k]!)) k++;
    if (hasTerminator) {
      if (k < n) breaks.push(k);
    } else if (k > j && k < n && SENTENCE_OPENER.test(text[k]!)) {
      breaks.push(k);
    }
    i = Math.max(k, i + 1);
  }
  if (breaks[breaks.length - 1] !== n) breaks.push(n);
  return breaks;
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const DIGIT = /\p{N}/u;
const MID_WORD = /['\-.\u2019]/u;
const CURRENCY = /\p{Sc}/u;
const HORIZONTAL_SPACE = /[\t\f\p{Zs}]/u;
const LINE_BREAK = /[\n\r\u000b\u0085]/u;

/** The boundaries of getWordInstance over text. */
export function wordBoundaries(text: string): number[] {
  const breaks = [0];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const char = text[i]!;
    let j = i + 1;
    if (WORD_CHAR.test(char) || (CURRENCY.test(char) && j < n && DIGIT.test(text[j]!))) {
      while (j < n) {
        const next = text[j]!;
        if (WORD_CHAR.test(next)) j++;
        else if (j + 1 < n && WORD_CHAR.test(text[j + 1]!) && WORD_CHAR.test(text[j - 1]!) && (MID_WORD.test(next) || (next === ',' && DIGIT.test(text[j - 1]!) && DIGIT.test(text[j + 1]!)))) j += 2;
        else break;
      }
    } else if (HORIZONTAL_SPACE.test(char)) {
      while (j < n && HORIZONTAL_SPACE.test(text[j]!)) j++;
      if (j < n && LINE_BREAK.test(text[j]!)) j++;
    } else if (char >= '\ud800' && char <= '\udbff' && j < n) {
      j++;
    }
    breaks.push(j);
    i = j;
  }
  if (n === 0) breaks.push(0);
  return breaks;
}

/** A break iterator over a precomputed boundary list. */
export class BoundaryListIterator implements BreakIterator {
  private boundaries: number[] = [0];
  private length = 0;

  constructor(private readonly boundariesOf: (text: string) => number[]) {}

  setText(text: string): void {
    this.length = text.length;
    this.boundaries = this.boundariesOf(text);
  }

  textLength(): number {
    return this.length;
  }

  first(): number {
    return 0;
  }

  last(): number {
    return this.length;
  }

  preceding(offset: number): number {
    if (offset <= 0) return DONE;
    let result = DONE;
    for (const boundary of this.boundaries) {
      if (boundary >= offset) break;
      result = boundary;
    }
    return result;
  }

  following(offset: number): number {
    for (const boundary of this.boundaries) if (boundary > offset) return boundary;
    return DONE;
  }
}

export const sentenceInstance = (): BreakIterator => new BoundaryListIterator(sentenceBoundaries);
export const wordInstance = (): BreakIterator => new BoundaryListIterator(wordBoundaries);
/** CustomSeparatorBreakIterator inside SplittingBreakIterator: each value is one passage. */
export const wholeValueInstance = (): BreakIterator => new BoundaryListIterator((text) => (text.length === 0 ? [0] : [0, text.length]));
