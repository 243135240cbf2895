/** Stop word sets, and the word-set lookup with Lucene's CharArraySet case handling. */
import { lowerCaseTerm } from '../java-character.js';

/** Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, Elasticsearch's `_english_`. */
export const ENGLISH_STOP_WORDS: readonly string[] = [
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of',
  'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
];

/** A set of words; with `ignoreCase`, membership compares Character.toLowerCase forms, as CharArraySet does. */
export class WordSet {
  private readonly words: Set<string>;

  constructor(
    words: Iterable<string>,
    readonly ignoreCase = false,
  ) {
    this.words = new Set();
    for (const word of words) this.words.add(ignoreCase ? lowerCaseTerm(word) : word);
  }

  has(term: string): boolean {
    return this.words.has(this.ignoreCase ? lowerCaseTerm(term) : term);
  }

  get size(): number {
    return this.words.size;
  }
}

export const EMPTY_WORD_SET = new WordSet([]);
