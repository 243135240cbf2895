/**
 * Lucene 9's StandardTokenizerImpl.jflex (UAX#29 word breaks, JFlex `%unicode 12.1`), rule for rule, compiled
 * into a DFA over the character classes of word-break-classes.ts. Macro and rule names follow the .jflex file
 * so the two can be read side by side.
 */
import { alt, compileRules, opt, plus, seq, set, star, type Dfa, type Regex } from './dfa-builder.js';

/** Scanner rule index -> token type; the last rule ([^]) has none: the character is skipped. */
export const RULE_TOKEN_TYPES: readonly (string | null)[] = [
  '<EMOJI>',
  '<NUM>',
  '<HANGUL>',
  '<KATAKANA>',
  '<ALPHANUM>',
  '<SOUTHEAST_ASIAN>',
  '<IDEOGRAPHIC>',
  '<HIRAGANA>',
  null,
];

/** The generated class table: see generate-word-break-classes.mjs. */
export interface WordBreakClassTable {
  readonly PROPERTY_NAMES: readonly string[];
  readonly CLASS_MASKS: readonly number[];
  readonly CLASS_RUNS: readonly string[];
}

export interface StandardScanner {
  /** Character class of every code point 0..0x10FFFF. */
  readonly classOf: Uint8Array;
  readonly dfa: Dfa;
}

/** Compiles the grammar over `table` (standard-dfa.ts holds the result for Unicode 12.1, so nothing compiles it at run time). */
export function buildStandardScanner(table: WordBreakClassTable): StandardScanner {
  return { classOf: decodeClassRuns(table.CLASS_RUNS), dfa: compileRules(grammarRules(table), table.CLASS_MASKS.length) };
}

/** The character class of every code point, from the table's runs (a few milliseconds). */
export function decodeClassRuns(lines: readonly string[]): Uint8Array {
  const classOf = new Uint8Array(0x110000);
  let cp = 0;
  for (const line of lines) {
    for (const run of line.split(',')) {
      const colon = run.indexOf(':');
      const length = parseInt(run.slice(0, colon), 36);
      const cls = parseInt(run.slice(colon + 1), 36);
      if (cls !== 0) classOf.fill(cls, cp, cp + length);
      cp += length;
    }
  }
  if (cp !== 0x110000) throw new Error(`word-break class table covers ${cp} code points, expected 0x110000`);
  return classOf;
}

function grammarRules(table: WordBreakClassTable): Regex[] {
  const bitOf = (name: string): number => {
    const index = table.PROPERTY_NAMES.indexOf(name);
    if (index < 0) throw new Error(`word-break class table lacks property ${name}`);
    return 1 << index;
  };
  /** The character classes whose property mask satisfies `test`. */
  const where = (test: (has: (name: string) => boolean) => boolean): Regex => {
    const classes: number[] = [];
    table.CLASS_MASKS.forEach((mask, cls) => {
      if (test((name) => (mask & bitOf(name)) !== 0)) classes.push(cls);
    });
    return set(classes);
  };
  const prop = (name: string): Regex => where((has) => has(name));
  const anyOf = (...names: string[]): Regex => where((has) => names.some(has));
  const all = where(() => true);

  // UAX#29 WB4: X (Extend | Format | ZWJ)* -> X
  const ExtFmtZwj = star(anyOf('Format', 'Extend', 'ZWJ'));
  // ...minus the presentation selectors, so emoji sequences can claim them.
  const ExtFmtZwjSansPresSel = star(
    where((has) => (has('Format') || has('Extend') || has('ZWJ')) && !has('TextPresentationSelector') && !has('EmojiPresentationSelector')),
  );

  const KeyCapBaseCharEx = seq(prop('KeyCapBase'), ExtFmtZwjSansPresSel);
  const KeyCapEx = seq(prop('KeyCap'), ExtFmtZwjSansPresSel);
  // EmojiRKAM = [\p{WB:Regional_Indicator}{KeyCapBaseChar}{AccidentalEmoji}\p{Emoji_Modifier}]
  const isRKAM = (has: (name: string) => boolean): boolean =>
    has('Regional_Indicator') || has('KeyCapBase') || has('AccidentalEmoji') || has('Emoji_Modifier');
  // EmojiChar = \p{Extended_Pictographic} | [\p{Emoji}--{EmojiRKAM}]
  const EmojiChar = where((has) => has('Extended_Pictographic') || (has('Emoji') && !isRKAM(has)));
  const EmojiCharEx = seq(EmojiChar, ExtFmtZwjSansPresSel);
  const EmojiModifierBaseEx = seq(prop('Emoji_Modifier_Base'), ExtFmtZwjSansPresSel);
  const EmojiModifierEx = seq(prop('Emoji_Modifier'), ExtFmtZwjSansPresSel);
  const EmojiPresentationSelector = prop('EmojiPresentationSelector');
  const ZWJ = prop('ZWJ');
  const EmojiCharOrPresSeqOrModSeq = alt(
    seq(star(ZWJ), EmojiCharEx, opt(EmojiPresentationSelector)),
    seq(opt(seq(star(ZWJ), EmojiModifierBaseEx)), EmojiModifierEx),
  );

  const HangulEx = seq(where((has) => has('Hangul') && (has('ALetter') || has('Hebrew_Letter'))), ExtFmtZwj);
  const AHLetterEx = seq(anyOf('ALetter', 'Hebrew_Letter'), ExtFmtZwj);
  const NumericEx = seq(prop('Numeric'), ExtFmtZwj);
  const KatakanaEx = seq(prop('Katakana'), ExtFmtZwj);
  const MidLetterEx = seq(anyOf('MidLetter', 'MidNumLet', 'Single_Quote'), ExtFmtZwj);
  const MidNumericEx = seq(anyOf('MidNum', 'MidNumLet', 'Single_Quote'), ExtFmtZwj);
  const ExtendNumLetEx = seq(prop('ExtendNumLet'), ExtFmtZwj);
  const HanEx = seq(prop('Han'), ExtFmtZwj);
  const HiraganaEx = seq(prop('Hiragana'), ExtFmtZwj);
  const SingleQuoteEx = seq(prop('Single_Quote'), ExtFmtZwj);
  const DoubleQuoteEx = seq(prop('Double_Quote'), ExtFmtZwj);
  const HebrewLetterEx = seq(prop('Hebrew_Letter'), ExtFmtZwj);
  const RegionalIndicatorEx = seq(prop('Regional_Indicator'), ExtFmtZwj);
  const ComplexContextEx = seq(prop('Complex_Context'), ExtFmtZwj);

  const emoji = alt(
    seq(EmojiCharOrPresSeqOrModSeq, alt(star(seq(ZWJ, EmojiCharOrPresSeqOrModSeq)), seq(plus(prop('TagSpec')), prop('TagTerm')))),
    seq(KeyCapBaseCharEx, opt(EmojiPresentationSelector), KeyCapEx),
    seq(RegionalIndicatorEx, RegionalIndicatorEx),
  );

  // WB8, WB11, WB12, WB13a, WB13b
  const numeric = seq(
    star(ExtendNumLetEx),
    NumericEx,
    star(seq(alt(star(ExtendNumLetEx), MidNumericEx), NumericEx)),
    star(ExtendNumLetEx),
  );

  // WB5-WB7c, WB9, WB10, WB13, WB13a, WB13b
  const wordCore = alt(
    seq(KatakanaEx, star(seq(star(ExtendNumLetEx), KatakanaEx))),
    plus(
      alt(
        seq(HebrewLetterEx, alt(SingleQuoteEx, seq(DoubleQuoteEx, HebrewLetterEx))),
        seq(NumericEx, star(seq(alt(star(ExtendNumLetEx), MidNumericEx), NumericEx))),
        seq(AHLetterEx, star(seq(alt(star(ExtendNumLetEx), MidLetterEx), AHLetterEx))),
      ),
    ),
  );
  const word = seq(star(ExtendNumLetEx), wordCore, star(seq(plus(ExtendNumLetEx), wordCore)), star(ExtendNumLetEx));

  // Order matters: equally long matches go to the earlier rule, as in JFlex.
  return [
    emoji,
    numeric,
    plus(HangulEx),
    plus(KatakanaEx),
    word,
    plus(ComplexContextEx),
    HanEx,
    HiraganaEx,
    all, // [^]: any other character is skipped
  ];
}
