/**
 * Lucene's UnifiedHighlighter passage machinery as ES runs it: FieldHighlighter.highlightOffsetsEnums
 * (matches in offset order open a passage at the break iterator's boundaries around them; the best
 * maxPassages by PassageScorer are kept, then put back in text order), PassageScorer (BM25 over the
 * passage as a miniature document: k1 1.2, b 0.75, pivot 87, float arithmetic as in Java), and ES's
 * CustomPassageFormatter (tags around merged overlapping matches, encoded text, trailing value
 * separator dropped, trimmed unless number_of_fragments is 0).
 */
import type { BreakIterator } from './break-iterators.js';

const float = Math.fround;
const K1 = float(1.2);
const B = float(0.75);
const PIVOT = 87;

/** One match of the query in the field's content: offsets, the term it scores as, its frequency. */
export interface OffsetMatch {
  readonly start: number;
  readonly end: number;
  /** OffsetsEnum.getTerm: the term, or the matched query's terms joined with spaces. */
  readonly term: string;
  /** OffsetsEnum.freq: the term's frequency in the document (1 in weight-matches mode). */
  readonly freq: number;
}

export interface Passage {
  start: number;
  end: number;
  score: number;
  readonly matches: OffsetMatch[];
}

/** OffsetsEnum.compareTo: start offset, then end offset, then term. */
export function compareMatches(a: OffsetMatch, b: OffsetMatch): number {
  return a.start - b.start || a.end - b.end || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);
}

/** PassageScorer.weight. */
function weight(contentLength: number, totalTermFreq: number): number {
  const numDocs = float(1 + float(contentLength / PIVOT));
  return float(float(K1 + 1) * float(Math.log(1 + (numDocs + 0.5) / (totalTermFreq + 0.5))));
}

/** PassageScorer.tf. */
function tf(freq: number, passageLength: number): number {
  const norm = float(K1 * float(float(1 - B) + float(B * float(passageLength / PIVOT))));
  return float(freq / float(freq + norm));
}

/** PassageScorer.norm. */
function norm(passageStart: number): number {
  return float(1 + float(1 / float(Math.log(float(PIVOT + passageStart)))));
}

/** PassageScorer.score. */
export function scorePassage(passage: Passage, contentLength: number): number {
  const inPassage = new Map<string, number>();
  const inDoc = new Map<string, number>();
  for (const match of passage.matches) {
    if (!inDoc.has(match.term)) inDoc.set(match.term, match.freq);
    inPassage.set(match.term, (inPassage.get(match.term) ?? 0) + 1);
  }
  let score = 0;
  for (const [term, freq] of inPassage) score += float(tf(freq, passage.end - passage.start) * weight(contentLength, inDoc.get(term)!));
  score *= norm(passage.start);
  return float(score);
}

/** Passage comparison in Lucene's queue: lower score first, then lower start offset. */
function lessThan(a: Passage, b: Passage): boolean {
  return a.score < b.score || (a.score === b.score && a.start < b.start);
}

/** FieldHighlighter.highlightOffsetsEnums: the top passages, in text order. */
export function highlightMatches(matches: readonly OffsetMatch[], breakIterator: BreakIterator, contentLength: number, maxPassages: number): Passage[] {
  const queue: Passage[] = [];
  const fresh = (): Passage => ({ start: -1, end: -1, score: 0, matches: [] });
  let passage = fresh();
  const maybeAdd = (): Passage => {
    if (passage.start === -1) return passage;
    passage.score = scorePassage(passage, contentLength);
    let min: Passage | undefined;
    for (const queued of queue) if (min === undefined || lessThan(queued, min)) min = queued;
    if (queue.length === maxPassages && min !== undefined && passage.score < min.score) return fresh();
    queue.push(passage);
    if (queue.length > maxPassages) {
      let lowest = 0;
      for (let i = 1; i < queue.length; i++) if (lessThan(queue[i]!, queue[lowest]!)) lowest = i;
      queue.splice(lowest, 1);
    }
    return fresh();
  };
  for (const match of matches) {
    if (match.start < contentLength && match.end > contentLength) continue;
    if (match.start >= passage.end) {
      passage = maybeAdd();
      if (match.start >= contentLength) break;
      passage.start = Math.max(breakIterator.preceding(match.start + 1), 0);
      const following = breakIterator.following(match.start);
      passage.end = Math.min(following < 0 ? contentLength : following, contentLength);
    }
    passage.matches.push(match);
  }
  passage = maybeAdd();
  return queue.sort((a, b) => a.start - b.start);
}

export interface Snippet {
  readonly text: string;
  readonly score: number;
}

export interface FormatOptions {
  readonly preTag: string;
  readonly postTag: string;
  readonly encode: (text: string) => string;
  readonly numberOfFragments: number;
}

/** CustomPassageFormatter.format. */
export function formatPassages(passages: readonly Passage[], content: string, options: FormatOptions): Snippet[] {
  return passages.map((passage) => {
    let text = '';
    let pos = passage.start;
    const matches = passage.matches;
    for (let i = 0; i < matches.length; i++) {
      const start = matches[i]!.start;
      text += options.encode(content.slice(pos, start));
      let end = matches[i]!.end;
      // Overlapping matches are highlighted as one.
      while (i + 1 < matches.length && matches[i + 1]!.start < end) end = Math.max(matches[++i]!.end, end);
      end = Math.min(end, passage.end);
      text += options.preTag + options.encode(content.slice(start, end)) + options.postTag;
      pos = end;
    }
    text += options.encode(content.slice(pos, Math.max(pos, passage.end)));
    if (text.endsWith('\u2029') || text.endsWith('\u0000')) text = text.slice(0, -1);
    return { text: options.numberOfFragments === 0 ? text : javaTrim(text), score: passage.score };
  });
}

/** String.trim: strips characters <= U+0020 at both ends. */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}
