/**
 * The part of java.text.DecimalFormat that aggregation `format` patterns use ("0.00", "#,##0.###", "0.0%",
 * "'$'#,##0", "0.00;(0.00)"): prefixes/suffixes with quoted literals, minimum integer digits, grouping,
 * minimum/maximum fraction digits, percent and per-mille, and an optional negative subpattern. Rounding is
 * HALF_EVEN on the exact binary value, as DecimalFormat does. Scientific notation ("0.###E0") is not supported
 * and is reported as an invalid pattern.
 */
import { EsError } from '../../../common/errors.js';

interface SubPattern {
  prefix: string;
  suffix: string;
}

export interface DecimalPattern {
  readonly positive: SubPattern;
  readonly negative: SubPattern | null;
  readonly minInt: number;
  readonly minFrac: number;
  readonly maxFrac: number;
  readonly groupingSize: number;
  readonly multiplier: number;
}

function invalid(pattern: string): EsError {
  return new EsError('illegal_argument_exception', `Malformed pattern "${pattern}"`);
}

/** Splits an affix-number-affix subpattern, honouring quotes. */
function splitSubPattern(text: string, pattern: string): { prefix: string; number: string; suffix: string; multiplier: number } {
  let prefix = '';
  let number = '';
  let suffix = '';
  let multiplier = 1;
  let phase = 0; // 0 prefix, 1 number, 2 suffix
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw invalid(pattern);
      const literal = end === i + 1 ? "'" : text.slice(i + 1, end);
      if (phase === 1) phase = 2;
      if (phase === 0) prefix += literal;
      else suffix += literal;
      i = end;
      continue;
    }
    const isNumberChar = c === '#' || c === '0' || c === ',' || c === '.';
    if (isNumberChar && phase < 2) {
      phase = 1;
      number += c;
      continue;
    }
    if (c === 'E') throw invalid(pattern);
    if (phase === 1) phase = 2;
    if (c === '%') multiplier = 100;
    if (c === '\u2030') multiplier = 1000;
    if (phase === 0) prefix += c;
    else suffix += c;
  }
  return { prefix, number, suffix, multiplier };
}

const cache = new Map<string, DecimalPattern>();

export function parseDecimalPattern(pattern: string): DecimalPattern {
  const cached = cache.get(pattern);
  if (cached !== undefined) return cached;
  const semicolon = pattern.indexOf(';');
  const positiveText = semicolon < 0 ? pattern : pattern.slice(0, semicolon);
  const positive = splitSubPattern(positiveText, pattern);
  if (positive.number.length === 0) throw invalid(pattern);
  const dot = positive.number.indexOf('.');
  const intPart = dot < 0 ? positive.number : positive.number.slice(0, dot);
  const fracPart = dot < 0 ? '' : positive.number.slice(dot + 1);
  if (fracPart.includes('.') || fracPart.includes(',')) throw invalid(pattern);
  const lastComma = intPart.lastIndexOf(',');
  const parsed: DecimalPattern = {
    positive: { prefix: positive.prefix, suffix: positive.suffix },
    negative: semicolon < 0 ? null : splitSubPattern(pattern.slice(semicolon + 1), pattern),
    minInt: [...intPart].filter((c) => c === '0').length,
    minFrac: [...fracPart].filter((c) => c === '0').length,
    maxFrac: fracPart.length,
    groupingSize: lastComma < 0 ? 0 : intPart.length - lastComma - 1,
    multiplier: positive.multiplier,
  };
  if (cache.size < 256) cache.set(pattern, parsed);
  return parsed;
}

/** Rounds |value| to `digits` fraction digits, HALF_EVEN on the exact binary value; returns [int, frac] digits. */
function roundHalfEven(abs: number, digits: number): [string, string] {
  const exact = abs.toFixed(Math.min(100, digits + 30));
  const dot = exact.indexOf('.');
  let intDigits = dot < 0 ? exact : exact.slice(0, dot);
  const allFrac = dot < 0 ? '' : exact.slice(dot + 1);
  let frac = allFrac.slice(0, digits);
  const rest = allFrac.slice(digits);
  const first = rest.length > 0 ? rest.charCodeAt(0) - 48 : 0;
  const tail = rest.slice(1);
  const lastDigit = Number((frac.length > 0 ? frac : intDigits).slice(-1));
  const roundUp = first > 5 || (first === 5 && (/[1-9]/.test(tail) || lastDigit % 2 === 1));
  if (roundUp) {
    const combined = (BigInt(intDigits + frac) + 1n).toString().padStart(intDigits.length + frac.length, '0');
    intDigits = combined.slice(0, combined.length - frac.length);
    frac = combined.slice(combined.length - frac.length);
  }
  return [intDigits, frac];
}

export function formatDecimal(pattern: DecimalPattern, value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  const negative = value < 0 || Object.is(value, -0);
  const affixes = negative ? (pattern.negative ?? { prefix: '-' + pattern.positive.prefix, suffix: pattern.positive.suffix }) : pattern.positive;
  const abs = Math.abs(value) * pattern.multiplier;
  if (!Number.isFinite(abs)) return affixes.prefix + '\u221e' + affixes.suffix;
  let [intDigits, frac] = roundHalfEven(abs, pattern.maxFrac);
  intDigits = intDigits.replace(/^0+/, '');
  if (intDigits.length < pattern.minInt) intDigits = intDigits.padStart(pattern.minInt, '0');
  if (pattern.groupingSize > 0 && intDigits.length > pattern.groupingSize) {
    const groups: string[] = [];
    for (let end = intDigits.length; end > 0; end -= pattern.groupingSize) groups.unshift(intDigits.slice(Math.max(0, end - pattern.groupingSize), end));
    intDigits = groups.join(',');
  }
  while (frac.length > pattern.minFrac && frac.endsWith('0')) frac = frac.slice(0, -1);
  let body = intDigits + (frac.length > 0 ? '.' + frac : '');
  if (body.length === 0) body = '0';
  // Like DecimalFormat, a negative value that rounds to zero keeps its sign ("-0.00").
  return affixes.prefix + body + affixes.suffix;
}
