/**
 * The Porter stemming algorithm as Lucene's PorterStemmer implements it (Martin Porter's reference
 * implementation with its two known bug fixes). Lucene's step numbering: step1 = 1a+1b, step2 = 1c,
 * step3 = 2, step4 = 3, step5 = 4, step6 = 5. It works on UTF-16 chars and is case-sensitive: only
 * lowercase a, e, i, o, u (and y after a consonant) count as vowels, so callers lowercase first.
 */
import { fromCharCodes } from '../java-character.js';

const A = 0x61;
const E = 0x65;
const I = 0x69;
const O = 0x6f;
const U = 0x75;
const Y = 0x79;

export class PorterStemmer {
  private b = new Uint16Array(64);
  private k = 0;
  private j = 0;
  /** Set when a char was replaced (not just cut off), as Lucene's `dirty`. */
  private rewritten = false;

  /** Returns the stem of `word`, or `word` itself when nothing changes. Words of 1-2 chars stay as they are. */
  stem(word: string): string {
    const length = word.length;
    if (length <= 2) return word;
    if (this.b.length < length + 8) this.b = new Uint16Array(length * 2 + 8);
    const b = this.b;
    for (let i = 0; i < length; i++) b[i] = word.charCodeAt(i);
    this.k = length - 1;
    this.rewritten = false;
    this.step1();
    this.step2();
    this.step3();
    this.step4();
    this.step5();
    this.step6();
    const stemLength = this.k + 1;
    if (this.rewritten) return fromCharCodes(b, stemLength);
    return stemLength === length ? word : word.slice(0, stemLength);
  }

  private cons(i: number): boolean {
    switch (this.b[i]) {
      case A:
      case E:
      case I:
      case O:
      case U:
        return false;
      case Y:
        return i === 0 ? true : !this.cons(i - 1);
      default:
        return true;
    }
  }

  /** The number of vowel-consonant sequences in b[0..j]: <c>(vc)^m<v>. */
  private m(): number {
    let n = 0;
    let i = 0;
    const j = this.j;
    while (true) {
      if (i > j) return n;
      if (!this.cons(i)) break;
      i++;
    }
    i++;
    while (true) {
      while (true) {
        if (i > j) return n;
        if (this.cons(i)) break;
        i++;
      }
      i++;
      n++;
      while (true) {
        if (i > j) return n;
        if (!this.cons(i)) break;
        i++;
      }
      i++;
    }
  }

  private vowelInStem(): boolean {
    for (let i = 0; i <= this.j; i++) if (!this.cons(i)) return true;
    return false;
  }

  private doubleConsonant(j: number): boolean {
    if (j < 1) return false;
    if (this.b[j] !== this.b[j - 1]) return false;
    return this.cons(j);
  }

  /** consonant-vowel-consonant ending at i, the last consonant not w, x or y. */
  private cvc(i: number): boolean {
    if (i < 2 || !this.cons(i) || this.cons(i - 1) || !this.cons(i - 2)) return false;
    const ch = this.b[i];
    return !(ch === 0x77 || ch === 0x78 || ch === Y);
  }

  private ends(s: string): boolean {
    const l = s.length;
    const o = this.k - l + 1;
    if (o < 0) return false;
    for (let i = 0; i < l; i++) if (this.b[o + i] !== s.charCodeAt(i)) return false;
    this.j = this.k - l;
    return true;
  }

  private setTo(s: string): void {
    const l = s.length;
    const o = this.j + 1;
    for (let i = 0; i < l; i++) this.b[o + i] = s.charCodeAt(i);
    this.k = this.j + l;
    this.rewritten = true;
  }

  private r(s: string): void {
    if (this.m() > 0) this.setTo(s);
  }

  /** Plurals and -ed, -ing. */
  private step1(): void {
    const b = this.b;
    if (b[this.k] === 0x73) {
      if (this.ends('sses')) this.k -= 2;
      else if (this.ends('ies')) this.setTo('i');
      else if (b[this.k - 1] !== 0x73) this.k--;
    }
    if (this.ends('eed')) {
      if (this.m() > 0) this.k--;
    } else if ((this.ends('ed') || this.ends('ing')) && this.vowelInStem()) {
      this.k = this.j;
      if (this.ends('at')) this.setTo('ate');
      else if (this.ends('bl')) this.setTo('ble');
      else if (this.ends('iz')) this.setTo('ize');
      else if (this.doubleConsonant(this.k)) {
        const ch = b[this.k--];
        if (ch === 0x6c || ch === 0x73 || ch === 0x7a) this.k++;
      } else if (this.m() === 1 && this.cvc(this.k)) this.setTo('e');
    }
  }

  /** Terminal y to i when there is another vowel in the stem. */
  private step2(): void {
    if (this.ends('y') && this.vowelInStem()) {
      this.b[this.k] = I;
      this.rewritten = true;
    }
  }

  /** Double suffixes to single ones: -ization -> -ize etc., when m > 0. */
  private step3(): void {
    if (this.k === 0) return;
    switch (this.b[this.k - 1]) {
      case A:
        if (this.ends('ational')) this.r('ate');
        else if (this.ends('tional')) this.r('tion');
        break;
      case 0x63:
        if (this.ends('enci')) this.r('ence');
        else if (this.ends('anci')) this.r('ance');
        break;
      case E:
        if (this.ends('izer')) this.r('ize');
        break;
      case 0x6c:
        if (this.ends('bli')) this.r('ble');
        else if (this.ends('alli')) this.r('al');
        else if (this.ends('entli')) this.r('ent');
        else if (this.ends('eli')) this.r('e');
        else if (this.ends('ousli')) this.r('ous');
        break;
      case O:
        if (this.ends('ization')) this.r('ize');
        else if (this.ends('ation')) this.r('ate');
        else if (this.ends('ator')) this.r('ate');
        break;
      case 0x73:
        if (this.ends('alism')) this.r('al');
        else if (this.ends('iveness')) this.r('ive');
        else if (this.ends('fulness')) this.r('ful');
        else if (this.ends('ousness')) this.r('ous');
        break;
      case 0x74:
        if (this.ends('aliti')) this.r('al');
        else if (this.ends('iviti')) this.r('ive');
        else if (this.ends('biliti')) this.r('ble');
        break;
      case 0x67:
        if (this.ends('logi')) this.r('log');
        break;
    }
  }

  /** -ic-, -full, -ness etc. */
  private step4(): void {
    switch (this.b[this.k]) {
      case E:
        if (this.ends('icate')) this.r('ic');
        else if (this.ends('ative')) this.r('');
        else if (this.ends('alize')) this.r('al');
        break;
      case I:
        if (this.ends('iciti')) this.r('ic');
        break;
      case 0x6c:
        if (this.ends('ical')) this.r('ic');
        else if (this.ends('ful')) this.r('');
        break;
      case 0x73:
        if (this.ends('ness')) this.r('');
        break;
    }
  }

  /** -ant, -ence etc. in context <c>vcvc<v>. */
  private step5(): void {
    if (this.k === 0) return;
    let matched = false;
    switch (this.b[this.k - 1]) {
      case A:
        matched = this.ends('al');
        break;
      case 0x63:
        matched = this.ends('ance') || this.ends('ence');
        break;
      case E:
        matched = this.ends('er');
        break;
      case I:
        matched = this.ends('ic');
        break;
      case 0x6c:
        matched = this.ends('able') || this.ends('ible');
        break;
      case 0x6e:
        matched = this.ends('ant') || this.ends('ement') || this.ends('ment') || this.ends('ent');
        break;
      case O:
        matched = (this.ends('ion') && this.j >= 0 && (this.b[this.j] === 0x73 || this.b[this.j] === 0x74)) || this.ends('ou');
        break;
      case 0x73:
        matched = this.ends('ism');
        break;
      case 0x74:
        matched = this.ends('ate') || this.ends('iti');
        break;
      case U:
        matched = this.ends('ous');
        break;
      case 0x76:
        matched = this.ends('ive');
        break;
      case 0x7a:
        matched = this.ends('ize');
        break;
    }
    if (matched && this.m() > 1) this.k = this.j;
  }

  /** Removes a final -e if m > 1, and changes -ll to -l if m > 1. */
  private step6(): void {
    this.j = this.k;
    if (this.b[this.k] === E) {
      const a = this.m();
      if (a > 1 || (a === 1 && !this.cvc(this.k - 1))) this.k--;
    }
    if (this.b[this.k] === 0x6c && this.doubleConsonant(this.k) && this.m() > 1) this.k--;
  }
}
