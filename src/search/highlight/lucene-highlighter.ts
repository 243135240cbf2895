/**
 * Lucene's original Highlighter.getBestTextFragments, as ES's plain highlighter calls it (no merging of
 * contiguous fragments), with its QueryScorer, TokenGroup, SimpleHTMLFormatter and the three fragmenters.
 *
 * How text becomes fragments: tokens are grouped while they overlap; when a token starts past the current
 * group, the group is written out (wrapped in tags when a token in it scored) and the fragmenter decides
 * whether the new token opens a fragment, so a fragment begins with the text that precedes its first token
 * (often a space). SimpleFragmenter cuts once a token ends at or past fragment_size * n; the span fragmenter
 * also keeps a matched phrase in one fragment and never opens a fragment in the last half fragment_size of
 * the text. A fragment's score is the sum of the weights of the distinct query terms it contains.
 */
import { checkPosition, type WeightedSpanTerm } from './weighted-terms.js';

export interface HighlightToken {
  readonly term: string;
  readonly startOffset: number;
  readonly endOffset: number;
  readonly positionIncrement: number;
}

export type FragmenterKind = 'span' | 'simple' | 'null';

export interface LuceneHighlighterOptions {
  readonly fragmenter: FragmenterKind;
  readonly fragmentSize: number;
  readonly preTag: string;
  readonly postTag: string;
  readonly encode: (text: string) => string;
}

export interface TextFragment {
  readonly text: string;
  /** The sum of the weights of the distinct terms found in the fragment (a Java float). */
  readonly score: number;
  /** The fragment's index in the value, in text order. */
  readonly fragNum: number;
}

const float = Math.fround;
const MAX_NUM_TOKENS_PER_GROUP = 50;

/** QueryScorer over one value: token scores and per-fragment totals of distinct terms. */
class QueryScorer {
  private position = -1;
  private foundTerms = new Set<string>();
  totalScore = 0;

  constructor(readonly terms: ReadonlyMap<string, WeightedSpanTerm>) {}

  startFragment(): void {
    this.foundTerms = new Set();
    this.totalScore = 0;
  }

  tokenScore(token: HighlightToken): number {
    this.position += token.positionIncrement;
    const weighted = this.terms.get(token.term);
    if (weighted === undefined) return 0;
    if (weighted.positionSensitive && !checkPosition(weighted, this.position)) return 0;
    if (!this.foundTerms.has(token.term)) {
      this.totalScore = float(this.totalScore + weighted.weight);
      this.foundTerms.add(token.term);
    }
    return weighted.weight;
  }
}

interface Fragmenter {
  isNewFragment(token: HighlightToken): boolean;
}

function simpleFragmenter(fragmentSize: number): Fragmenter {
  let currentNumFrags = 1;
  return {
    isNewFragment(token) {
      const isNew = token.endOffset >= Math.imul(fragmentSize, currentNumFrags);
      if (isNew) currentNumFrags++;
      return isNew;
    },
  };
}

/**
 * SimpleSpanFragmenter. Its position only advances when it is consulted, i.e. from the second token group
 * on, so it trails the scorer's position by the first token's increment, exactly as in Lucene.
 */
function spanFragmenter(fragmentSize: number, textSize: number, scorer: QueryScorer): Fragmenter {
  let position = -1;
  let waitForPos = -1;
  let currentNumFrags = 1;
  return {
    isNewFragment(token) {
      position += token.positionIncrement;
      if (waitForPos <= position) waitForPos = -1;
      else if (waitForPos !== -1) return false;
      const weighted = scorer.terms.get(token.term);
      if (weighted !== undefined) {
        for (const span of weighted.positionSpans) {
          if (span.start === position) {
            waitForPos = span.end + 1;
            break;
          }
        }
      }
      const isNew = token.endOffset >= Math.imul(fragmentSize, currentNumFrags) && textSize - token.endOffset >= fragmentSize >>> 1;
      if (isNew) currentNumFrags++;
      return isNew;
    },
  };
}

/** One token or several overlapping ones, with the extent of the ones that scored. */
class TokenGroup {
  numTokens = 0;
  private endOffset = 0;
  matchStartOffset = 0;
  matchEndOffset = 0;
  totalScore = 0;

  add(token: HighlightToken, score: number): void {
    if (this.numTokens >= MAX_NUM_TOKENS_PER_GROUP) return;
    if (this.numTokens === 0) {
      this.matchStartOffset = token.startOffset;
      this.endOffset = this.matchEndOffset = token.endOffset;
      this.totalScore = float(this.totalScore + score);
    } else {
      this.endOffset = Math.max(this.endOffset, token.endOffset);
      if (score > 0) {
        if (this.totalScore === 0) {
          this.matchStartOffset = token.startOffset;
          this.matchEndOffset = token.endOffset;
        } else {
          this.matchStartOffset = Math.min(this.matchStartOffset, token.startOffset);
          this.matchEndOffset = Math.max(this.matchEndOffset, token.endOffset);
        }
        this.totalScore = float(this.totalScore + score);
      }
    }
    this.numTokens++;
  }

  isDistinct(token: HighlightToken): boolean {
    return token.startOffset >= this.endOffset;
  }

  clear(): void {
    this.numTokens = 0;
    this.totalScore = 0;
  }
}

interface OpenFragment {
  readonly start: number;
  end: number;
  score: number;
  readonly fragNum: number;
}

/**
 * getBestTextFragments(tokenStream, text, false, maxNumFragments): the best `maxNumFragments` fragments,
 * highest score first (ties: earlier fragment first), zero-scored ones included.
 */
export function bestTextFragments(
  tokens: readonly HighlightToken[],
  text: string,
  terms: ReadonlyMap<string, WeightedSpanTerm>,
  options: LuceneHighlighterOptions,
  maxNumFragments: number,
): TextFragment[] {
  const scorer = new QueryScorer(terms);
  const fragmenter: Fragmenter =
    options.fragmenter === 'null'
      ? { isNewFragment: () => false }
      : options.fragmenter === 'simple'
        ? simpleFragmenter(options.fragmentSize)
        : spanFragmenter(options.fragmentSize, text.length, scorer);
  let newText = '';
  let lastEndOffset = 0;
  const group = new TokenGroup();
  const fragments: OpenFragment[] = [];
  let current: OpenFragment = { start: 0, end: 0, score: 0, fragNum: 0 };
  scorer.startFragment();
  fragments.push(current);

  const flush = (): void => {
    const start = group.matchStartOffset;
    const end = group.matchEndOffset;
    const encoded = options.encode(text.slice(start, end));
    const markedUp = group.totalScore > 0 ? options.preTag + encoded + options.postTag : encoded;
    if (start > lastEndOffset) newText += options.encode(text.slice(lastEndOffset, start));
    newText += markedUp;
    lastEndOffset = Math.max(end, lastEndOffset);
    group.clear();
  };

  for (const token of tokens) {
    if (token.endOffset > text.length || token.startOffset > text.length) {
      throw new RangeError(`Token ${token.term} exceeds length of provided text sized ${text.length}`);
    }
    if (group.numTokens > 0 && group.isDistinct(token)) {
      flush();
      if (fragmenter.isNewFragment(token)) {
        current.score = scorer.totalScore;
        current.end = newText.length;
        current = { start: newText.length, end: 0, score: 0, fragNum: fragments.length };
        scorer.startFragment();
        fragments.push(current);
      }
    }
    group.add(token, scorer.tokenScore(token));
  }
  current.score = scorer.totalScore;
  if (group.numTokens > 0) flush();
  if (lastEndOffset < text.length) newText += options.encode(text.slice(lastEndOffset));
  current.end = newText.length;

  // Lucene's FragmentQueue: higher score wins, an earlier fragment wins a tie.
  const best = [...fragments].sort((a, b) => b.score - a.score || a.fragNum - b.fragNum).slice(0, Math.max(0, maxNumFragments));
  return best.map((fragment) => ({ text: newText.slice(fragment.start, fragment.end), score: fragment.score, fragNum: fragment.fragNum }));
}
