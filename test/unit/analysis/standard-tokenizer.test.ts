/**
 * Lucene 9's TestStandardAnalyzer cases (tokens, types, offsets) and Elasticsearch's documented examples,
 * run on the production scanner (Unicode 12.1 data).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StandardTokenizer } from '../../../src/analysis/index.js';
import { collect } from './helpers.js';

function tokenize(text: string, maxTokenLength?: number) {
  const tokenizer = new StandardTokenizer(maxTokenLength);
  tokenizer.setText(text);
  return collect(tokenizer);
}
const terms = (text: string, max?: number) => tokenize(text, max).terms;
const types = (text: string) => tokenize(text).types;

describe('standard tokenizer: Lucene TestStandardAnalyzer', () => {
  test('Armenian', () => {
    assert.deepEqual(
      terms('Վիքիպեդիայի 13 միլիոն հոդվածները (4,600` հայերեն վիքիպեդիայում) գրվել են կամավորների կողմից ու համարյա բոլոր հոդվածները կարող է խմբագրել ցանկաց մարդ ով կարող է բացել Վիքիպեդիայի կայքը։'),
      ['Վիքիպեդիայի', '13', 'միլիոն', 'հոդվածները', '4,600', 'հայերեն', 'վիքիպեդիայում', 'գրվել', 'են', 'կամավորների', 'կողմից', 'ու', 'համարյա', 'բոլոր', 'հոդվածները', 'կարող', 'է', 'խմբագրել', 'ցանկաց', 'մարդ', 'ով', 'կարող', 'է', 'բացել', 'Վիքիպեդիայի', 'կայքը'],
    );
  });

  test('Amharic', () => {
    assert.deepEqual(terms('ዊኪፔድያ የባለ ብዙ ቋንቋ የተሟላ ትክክለኛና ነጻ መዝገበ ዕውቀት (ኢንሳይክሎፒዲያ) ነው። ማንኛውም'), [
      'ዊኪፔድያ', 'የባለ', 'ብዙ', 'ቋንቋ', 'የተሟላ', 'ትክክለኛና', 'ነጻ', 'መዝገበ', 'ዕውቀት', 'ኢንሳይክሎፒዲያ', 'ነው', 'ማንኛውም',
    ]);
  });

  test('Arabic', () => {
    assert.deepEqual(
      terms('الفيلم الوثائقي الأول عن ويكيبيديا يسمى "الحقيقة بالأرقام: قصة ويكيبيديا" (بالإنجليزية: Truth in Numbers: The Wikipedia Story)، سيتم إطلاقه في 2008.'),
      ['الفيلم', 'الوثائقي', 'الأول', 'عن', 'ويكيبيديا', 'يسمى', 'الحقيقة', 'بالأرقام', 'قصة', 'ويكيبيديا', 'بالإنجليزية', 'Truth', 'in', 'Numbers', 'The', 'Wikipedia', 'Story', 'سيتم', 'إطلاقه', 'في', '2008'],
    );
  });

  test('Aramaic', () => {
    assert.deepEqual(
      terms('ܘܝܩܝܦܕܝܐ (ܐܢܓܠܝܐ: Wikipedia) ܗܘ ܐܝܢܣܩܠܘܦܕܝܐ ܚܐܪܬܐ ܕܐܢܛܪܢܛ ܒܠܫܢ̈ܐ ܣܓܝܐ̈ܐ܂ ܫܡܗ ܐܬܐ ܡܢ ܡ̈ܠܬܐ ܕ"ܘܝܩܝ" ܘ"ܐܝܢܣܩܠܘܦܕܝܐ"܀'),
      ['ܘܝܩܝܦܕܝܐ', 'ܐܢܓܠܝܐ', 'Wikipedia', 'ܗܘ', 'ܐܝܢܣܩܠܘܦܕܝܐ', 'ܚܐܪܬܐ', 'ܕܐܢܛܪܢܛ', 'ܒܠܫܢ̈ܐ', 'ܣܓܝܐ̈ܐ', 'ܫܡܗ', 'ܐܬܐ', 'ܡܢ', 'ܡ̈ܠܬܐ', 'ܕ', 'ܘܝܩܝ', 'ܘ', 'ܐܝܢܣܩܠܘܦܕܝܐ'],
    );
  });

  test('Bengali', () => {
    assert.deepEqual(
      terms('এই বিশ্বকোষ পরিচালনা করে উইকিমিডিয়া ফাউন্ডেশন (একটি অলাভজনক সংস্থা)। উইকিপিডিয়ার শুরু ১৫ জানুয়ারি, ২০০১ সালে। এখন পর্যন্ত ২০০টিরও বেশী ভাষায় উইকিপিডিয়া রয়েছে।'),
      ['এই', 'বিশ্বকোষ', 'পরিচালনা', 'করে', 'উইকিমিডিয়া', 'ফাউন্ডেশন', 'একটি', 'অলাভজনক', 'সংস্থা', 'উইকিপিডিয়ার', 'শুরু', '১৫', 'জানুয়ারি', '২০০১', 'সালে', 'এখন', 'পর্যন্ত', '২০০টিরও', 'বেশী', 'ভাষায়', 'উইকিপিডিয়া', 'রয়েছে'],
    );
  });

  test('Farsi', () => {
    assert.deepEqual(terms('ویکی پدیای انگلیسی در تاریخ ۲۵ دی ۱۳۷۹ به صورت مکملی برای دانشنامهٔ تخصصی نوپدیا نوشته شد.'), [
      'ویکی', 'پدیای', 'انگلیسی', 'در', 'تاریخ', '۲۵', 'دی', '۱۳۷۹', 'به', 'صورت', 'مکملی', 'برای', 'دانشنامهٔ', 'تخصصی', 'نوپدیا', 'نوشته', 'شد',
    ]);
  });

  test('Greek', () => {
    assert.deepEqual(
      terms('Γράφεται σε συνεργασία από εθελοντές με το λογισμικό wiki, κάτι που σημαίνει ότι άρθρα μπορεί να προστεθούν ή να αλλάξουν από τον καθένα.'),
      ['Γράφεται', 'σε', 'συνεργασία', 'από', 'εθελοντές', 'με', 'το', 'λογισμικό', 'wiki', 'κάτι', 'που', 'σημαίνει', 'ότι', 'άρθρα', 'μπορεί', 'να', 'προστεθούν', 'ή', 'να', 'αλλάξουν', 'από', 'τον', 'καθένα'],
    );
  });

  test('Thai, Lao, Tibetan', () => {
    const thai = tokenize('การที่ได้ต้องแสดงว่างานดี. แล้วเธอจะไปไหน? ๑๒๓๔');
    assert.deepEqual(thai.terms, ['การที่ได้ต้องแสดงว่างานดี', 'แล้วเธอจะไปไหน', '๑๒๓๔']);
    assert.deepEqual(thai.types, ['<SOUTHEAST_ASIAN>', '<SOUTHEAST_ASIAN>', '<NUM>']);
    assert.deepEqual(terms('ສາທາລະນະລັດ ປະຊາທິປະໄຕ ປະຊາຊົນລາວ'), ['ສາທາລະນະລັດ', 'ປະຊາທິປະໄຕ', 'ປະຊາຊົນລາວ']);
    assert.deepEqual(terms('སྣོན་མཛོད་དང་ལས་འདིས་བོད་ཡིག་མི་ཉམས་གོང་འཕེལ་དུ་གཏོང་བར་ཧ་ཅང་དགེ་མཚན་མཆིས་སོ། །'), [
      'སྣོན', 'མཛོད', 'དང', 'ལས', 'འདིས', 'བོད', 'ཡིག', 'མི', 'ཉམས', 'གོང', 'འཕེལ', 'དུ', 'གཏོང', 'བར', 'ཧ', 'ཅང', 'དགེ', 'མཚན', 'མཆིས', 'སོ',
    ]);
  });

  test('Myanmar and Khmer are kept whole as <SOUTHEAST_ASIAN>', () => {
    const myanmar = tokenize('မြန်မာဘာသာ စကား');
    assert.deepEqual(myanmar.terms, ['မြန်မာဘာသာ', 'စကား']);
    assert.deepEqual(myanmar.types, ['<SOUTHEAST_ASIAN>', '<SOUTHEAST_ASIAN>']);
    assert.deepEqual(types('ភាសាខ្មែរ'), ['<SOUTHEAST_ASIAN>']);
  });

  test('Chinese: one token per ideograph; fullwidth digits and letters', () => {
    assert.deepEqual(terms('我是中国人。 １２３４ Ｔｅｓｔｓ '), ['我', '是', '中', '国', '人', '１２３４', 'Ｔｅｓｔｓ']);
    assert.deepEqual(types('我是中国人。 １２３４ Ｔｅｓｔｓ '), ['<IDEOGRAPHIC>', '<IDEOGRAPHIC>', '<IDEOGRAPHIC>', '<IDEOGRAPHIC>', '<IDEOGRAPHIC>', '<NUM>', '<ALPHANUM>']);
  });

  test('empty and separator-only input', () => {
    assert.deepEqual(terms(''), []);
    assert.deepEqual(terms('.'), []);
    assert.deepEqual(terms(' '), []);
  });

  test('LUCENE-1545: combining mark stays in the word', () => {
    assert.deepEqual(terms('moͤchte'), ['moͤchte']);
  });

  test('alphanumerics, delimiters, apostrophes', () => {
    assert.deepEqual(terms('B2B'), ['B2B']);
    assert.deepEqual(terms('2B'), ['2B']);
    assert.deepEqual(terms('some-dashed-phrase'), ['some', 'dashed', 'phrase']);
    assert.deepEqual(terms('dogs,chase,cats'), ['dogs', 'chase', 'cats']);
    assert.deepEqual(terms('ac/dc'), ['ac', 'dc']);
    for (const word of ["O'Reilly", "you're", "she's", "Jim's", "don't", "O'Reilly's"]) assert.deepEqual(terms(word), [word]);
  });

  test('numbers: decimals, serials, IP addresses', () => {
    assert.deepEqual(terms('21.35'), ['21.35']);
    assert.deepEqual(terms('R2D2 C3PO'), ['R2D2', 'C3PO']);
    assert.deepEqual(terms('216.239.63.104'), ['216.239.63.104']);
    assert.deepEqual(terms('David has 5000 bones'), ['David', 'has', '5000', 'bones']);
    const money = tokenize('1,234.56 and 1.2e10');
    assert.deepEqual(money.terms, ['1,234.56', 'and', '1.2e10']);
    assert.deepEqual(money.types, ['<NUM>', '<ALPHANUM>', '<ALPHANUM>']);
  });

  test('various text', () => {
    assert.deepEqual(terms('C embedded developers wanted'), ['C', 'embedded', 'developers', 'wanted']);
    assert.deepEqual(terms('foo bar FOO BAR'), ['foo', 'bar', 'FOO', 'BAR']);
    assert.deepEqual(terms('foo      bar .  FOO <> BAR'), ['foo', 'bar', 'FOO', 'BAR']);
    assert.deepEqual(terms('"QUOTED" word'), ['QUOTED', 'word']);
  });

  test('Korean', () => {
    assert.deepEqual(terms('안녕하세요 한글입니다'), ['안녕하세요', '한글입니다']);
    assert.deepEqual(types('훈민정음'), ['<HANGUL>']);
  });

  test('offsets and types', () => {
    const out = tokenize('David has 5000 bones');
    assert.deepEqual(out.starts, [0, 6, 10, 15]);
    assert.deepEqual(out.ends, [5, 9, 14, 20]);
    assert.deepEqual(out.types, ['<ALPHANUM>', '<ALPHANUM>', '<NUM>', '<ALPHANUM>']);
    assert.equal(out.finalOffset, 20);
  });

  test('supplementary ideographs, offsets in UTF-16 units', () => {
    const out = tokenize('𩬅艱鍟䇹愯瀛');
    assert.deepEqual(out.terms, ['𩬅', '艱', '鍟', '䇹', '愯', '瀛']);
    assert.deepEqual(out.types, Array(6).fill('<IDEOGRAPHIC>'));
    assert.deepEqual(out.starts, [0, 2, 3, 4, 5, 6]);
    assert.deepEqual(out.ends, [2, 3, 4, 5, 6, 7]);
  });

  test('Japanese', () => {
    const out = tokenize('仮名遣い カタカナ');
    assert.deepEqual(out.terms, ['仮', '名', '遣', 'い', 'カタカナ']);
    assert.deepEqual(out.types, ['<IDEOGRAPHIC>', '<IDEOGRAPHIC>', '<IDEOGRAPHIC>', '<HIRAGANA>', '<KATAKANA>']);
  });

  test('combining marks attach to hiragana, katakana, ideographs, hangul', () => {
    for (const word of ['ざ', 'ザ', '壹゙', '아゙']) assert.deepEqual(terms(word), [word]);
  });

  test('mid-letter / mid-number punctuation splits when doubled', () => {
    const cases: [string, string[]][] = [
      ['A:B', ['A:B']], ['A::B', ['A', 'B']], ['1.2', ['1.2']], ['A.B', ['A.B']], ['1..2', ['1', '2']], ['A..B', ['A', 'B']],
      ['1,2', ['1,2']], ['1,,2', ['1', '2']], ['A.:B', ['A', 'B']], ['A:.B', ['A', 'B']], ['1,.2', ['1', '2']], ['1.,2', ['1', '2']],
      ['A:B_A:B', ['A:B_A:B']], ['A:B_A::B', ['A:B_A', 'B']], ['1.2_1.2', ['1.2_1.2']], ['A.B_A.B', ['A.B_A.B']],
      ['1.2_1..2', ['1.2_1', '2']], ['A.B_A..B', ['A.B_A', 'B']], ['1,2_1,2', ['1,2_1,2']], ['1,2_1,,2', ['1,2_1', '2']],
      ['C_A.:B', ['C_A', 'B']], ['C_A:.B', ['C_A', 'B']], ['3_1,.2', ['3_1', '2']], ['3_1.,2', ['3_1', '2']],
    ];
    for (const [text, expected] of cases) assert.deepEqual(terms(text), expected, text);
  });
});

describe('standard tokenizer: emoji (Lucene TestStandardAnalyzer)', () => {
  test('single emoji and emoji next to letters and ideographs', () => {
    const simple = tokenize('💩 💩💩');
    assert.deepEqual(simple.terms, ['💩', '💩', '💩']);
    assert.deepEqual(simple.types, ['<EMOJI>', '<EMOJI>', '<EMOJI>']);
    const latin = tokenize('poo💩poo');
    assert.deepEqual(latin.terms, ['poo', '💩', 'poo']);
    assert.deepEqual(latin.types, ['<ALPHANUM>', '<EMOJI>', '<ALPHANUM>']);
    const han = tokenize('💩中國💩');
    assert.deepEqual(han.terms, ['💩', '中', '國', '💩']);
    assert.deepEqual(han.types, ['<EMOJI>', '<IDEOGRAPHIC>', '<IDEOGRAPHIC>', '<EMOJI>']);
  });

  test('ZWJ sequences, with and without skin-tone modifiers', () => {
    assert.deepEqual(tokenize('👩‍❤️‍👩').terms, ['👩‍❤️‍👩']);
    assert.deepEqual(tokenize('👨🏼‍⚕️').terms, ['👨🏼‍⚕️']);
    assert.deepEqual(tokenize('👨🏼‍⚕️').types, ['<EMOJI>']);
  });

  test('regional indicator pairs are flags', () => {
    const flags = tokenize('🇺🇸🇺🇸');
    assert.deepEqual(flags.terms, ['🇺🇸', '🇺🇸']);
    assert.deepEqual(flags.types, ['<EMOJI>', '<EMOJI>']);
  });

  test('keycaps and presentation selectors', () => {
    assert.deepEqual(tokenize('#️⃣').terms, ['#️⃣']);
    assert.deepEqual(tokenize('3️⃣').types, ['<EMOJI>']);
    assert.deepEqual(tokenize('#\uFE0E').terms, []);
    const textStyle = tokenize('3\uFE0E');
    assert.deepEqual(textStyle.terms, ['3\uFE0E']);
    assert.deepEqual(textStyle.types, ['<NUM>']);
    assert.deepEqual(tokenize('\u2B55\uFE0E').terms, ['\u2B55']);
    const zwj = tokenize('\u2B55\uFE0E\u200D\u2B55\uFE0E');
    assert.deepEqual(zwj.terms, ['\u2B55', '\u200D\u2B55']);
    assert.deepEqual(zwj.types, ['<EMOJI>', '<EMOJI>']);
  });

  test('tag sequence (flag of England)', () => {
    const out = tokenize('🏴󠁧󠁢󠁥󠁮󠁧󠁿');
    assert.deepEqual(out.terms, ['🏴󠁧󠁢󠁥󠁮󠁧󠁿']);
    assert.deepEqual(out.types, ['<EMOJI>']);
  });

  test('Unicode 12 emoji are emoji', () => {
    // U+1F9A9 FLAMINGO and U+1F9CF DEAF PERSON (Unicode 12.0)
    assert.deepEqual(types('🦩 🧏'), ['<EMOJI>', '<EMOJI>']);
  });
});

describe('standard tokenizer: max_token_length', () => {
  test('default 255: a 256-char word splits after 255 chars', () => {
    const b = 'b'.repeat(255);
    assert.deepEqual(terms(`x ${b} ${b}b`), ['x', b, b, 'b']);
  });

  test('Lucene testMaxTokenLengthNonDefault', () => {
    assert.deepEqual(terms('ab cd toolong xy z', 5), ['ab', 'cd', 'toolo', 'ng', 'xy', 'z']);
  });

  test('Elasticsearch docs example with max_token_length 5', () => {
    assert.deepEqual(terms("The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.", 5), [
      'The', '2', 'QUICK', 'Brown', 'Foxes', 'jumpe', 'd', 'over', 'the', 'lazy', "dog's", 'bone',
    ]);
  });

  test('split pieces keep contiguous offsets and the scanner restarts on the rest', () => {
    const out = tokenize('abcdefghij', 4);
    assert.deepEqual(out.terms, ['abcd', 'efgh', 'ij']);
    assert.deepEqual(out.starts, [0, 4, 8]);
    assert.deepEqual(out.ends, [4, 8, 10]);
  });

  test('a surrogate pair is never split: the window shrinks by one', () => {
    // 3 letters then U+10400 (a letter) with max 4: the high surrogate would be the 4th char.
    assert.deepEqual(terms('abc\u{10400}def', 4), ['abc', '\u{10400}de', 'f']);
  });

  test('huge leading whitespace (Lucene testHugeDoc)', () => {
    assert.deepEqual(terms(' '.repeat(4094) + 'testing 1234'), ['testing', '1234']);
  });

  test('out-of-range lengths are rejected', () => {
    assert.throws(() => new StandardTokenizer(0), /maxTokenLength must be greater than zero/);
    assert.throws(() => new StandardTokenizer(1024 * 1024 + 1), /maxTokenLength may not exceed 1048576/);
  });
});

describe('standard tokenizer: Elasticsearch and UAX#29 behaviour', () => {
  test('the _analyze docs example', () => {
    const out = tokenize("The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.");
    assert.deepEqual(out.terms, ['The', '2', 'QUICK', 'Brown', 'Foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone']);
    assert.deepEqual(out.types[1], '<NUM>');
    assert.equal(out.finalOffset, 56);
  });

  test('URLs and e-mail addresses break as UAX#29 says, not as whole tokens', () => {
    assert.deepEqual(terms('foo@bar.com http://x.org/a_b?q=1'), ['foo', 'bar.com', 'http', 'x.org', 'a_b', 'q', '1']);
  });

  test('positions increase by one, lone surrogates and controls are skipped', () => {
    const out = tokenize('a\ud800b \u0001c\udc00');
    assert.deepEqual(out.terms, ['a', 'b', 'c']);
    assert.deepEqual(out.increments, [1, 1, 1]);
  });

  test('Lucene quirk: text ending in a lone high surrogate within the first buffer yields nothing', () => {
    const out = tokenize('abc def\ud83d');
    assert.deepEqual(out.terms, []);
    assert.equal(out.finalOffset, 0);
  });

  test('a reused tokenizer gives the same tokens again', () => {
    const tokenizer = new StandardTokenizer();
    tokenizer.setText('one two');
    const first = collect(tokenizer);
    tokenizer.setText('one two');
    assert.deepEqual(collect(tokenizer), first);
  });
});
