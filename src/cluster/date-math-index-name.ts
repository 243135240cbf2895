/**
 * Date math in index names, as ES's IndexNameExpressionResolver.DateMathExpressionResolver reads it: an expression
 * that starts with `<` and ends with `>` is static text with `{math{format|zone}}` placeholders, e.g.
 * `<logs-{now/d}>` -> `logs-2024.03.22`, `<logs-{now/M{yyyy.MM}}>`, `<logs-{now/d{yyyy.MM.dd|+12:00}}>`. The math is
 * ES date math evaluated (and rounded) in the zone, the default format `uuuu.MM.dd`, the default zone UTC; `\`
 * escapes `{` and `}` in the static text. Anything else is returned unchanged. Create index, writes, reads and every
 * index expression resolve through here, so one request sees one "now".
 */
import { errors, indexErrors } from '../common/errors.js';
import { DateFormatError, dateFormatter, parseDateMath, parseZoneId, zoneOffsetAtInstant, type DateFormatter, type ZoneRef } from '../mapping/index.js';

const DEFAULT_FORMAT = 'uuuu.MM.dd';
const UTC: ZoneRef = { kind: 'offset', seconds: 0 };

export function isDateMathExpression(expression: string): boolean {
  return expression.startsWith('<') && expression.endsWith('>');
}

/** The name a date math expression stands for at `nowMillis`; any other expression unchanged. */
export function resolveDateMathExpression(expression: string, nowMillis: number = Date.now()): string {
  if (!isDateMathExpression(expression)) return expression;
  // ES quotes `new String(text, 1, length - 1)`: everything after the leading `<`, the closing `>` included.
  const quoted = expression.slice(1);
  const inner = expression.slice(1, -1);
  let escape = false;
  let inDateFormat = false;
  let inPlaceholder = false;
  let resolved = '';
  let placeholder = '';
  for (let i = 0; i < inner.length; i++) {
    const position = i + 1;
    const escapedChar = escape;
    escape = false;
    const c = inner[i]!;
    if (c === '\\') {
      if (escapedChar) resolved += c;
      else escape = true;
      continue;
    }
    if (inPlaceholder) {
      if (c === '{') {
        if (inDateFormat && escapedChar) placeholder += c;
        else if (!inDateFormat) {
          inDateFormat = true;
          placeholder += c;
        } else throw indexErrors.dateMathNameInvalid(`invalid dynamic name expression [${quoted}]. invalid character in placeholder at position [${position}]`);
      } else if (c === '}') {
        if (inDateFormat && escapedChar) placeholder += c;
        else if (inDateFormat) {
          inDateFormat = false;
          placeholder += c;
        } else {
          resolved += evaluatePlaceholder(placeholder, nowMillis);
          placeholder = '';
          inPlaceholder = false;
        }
      } else {
        placeholder += c;
      }
    } else if (c === '{') {
      if (escapedChar) resolved += c;
      else inPlaceholder = true;
    } else {
      if (c === '}' && !escapedChar) {
        throw indexErrors.dateMathNameInvalid(
          `invalid dynamic name expression [${quoted}]. invalid character at position [${position}]. \`{\` and \`}\` are reserved characters and should be escaped when used as part of the index name using \`\\\` (e.g. \`\\{text\\}\`)`,
        );
      }
      resolved += c;
    }
  }
  if (inPlaceholder) throw indexErrors.dateMathNameInvalid(`invalid dynamic name expression [${quoted}]. date math placeholder is open ended`);
  if (resolved.length === 0) throw indexErrors.dateMathNameInvalid('nothing captured');
  return resolved;
}

/** One `math{format|zone}` placeholder printed with its formatter in its zone. */
function evaluatePlaceholder(placeholder: string, nowMillis: number): string {
  const formatStart = placeholder.indexOf('{');
  let math = placeholder;
  let pattern = DEFAULT_FORMAT;
  let zone = UTC;
  if (formatStart >= 0) {
    if (placeholder.lastIndexOf('}') !== placeholder.length - 1) {
      throw indexErrors.dateMathNameInvalid(`invalid dynamic name expression [${placeholder}]. missing closing \`}\` for date math format`);
    }
    if (formatStart === placeholder.length - 2) throw indexErrors.dateMathNameInvalid(`invalid dynamic name expression [${placeholder}]. missing date format`);
    math = placeholder.slice(0, formatStart);
    const patternAndZone = placeholder.slice(formatStart + 1, -1);
    const zoneSeparator = patternAndZone.indexOf('|');
    pattern = zoneSeparator >= 0 ? patternAndZone.slice(0, zoneSeparator) : patternAndZone;
    if (zoneSeparator >= 0) {
      const zoneId = patternAndZone.slice(zoneSeparator + 1);
      const parsed = parseZoneId(zoneId);
      if (parsed === undefined) throw indexErrors.unknownTimeZone(zoneId);
      zone = parsed;
    }
  }
  const formatter = formatterFor(pattern);
  const instant = parseDateMath(math, formatter, { now: () => nowMillis, roundUp: false, zone });
  // The formatter prints in the zone: the local date-time of the instant there.
  return formatter.format(instant + zoneOffsetAtInstant(zone, instant));
}

function formatterFor(pattern: string): DateFormatter {
  try {
    return dateFormatter(pattern);
  } catch (err) {
    if (err instanceof DateFormatError) throw errors.illegalArgument(err.message);
    throw err;
  }
}
