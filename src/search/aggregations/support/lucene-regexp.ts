/**
 * Lucene's RegExp syntax (what terms include/exclude patterns are written in) translated to a JavaScript
 * RegExp that must match the whole term: `.` is any character, `@` any string, `#` the empty language,
 * `"..."` a literal, `\c` escapes c (and `\d \s \w` and their negations are classes, as in Lucene 9), and
 * `^ $` carry no anchor meaning. Intersection (`&`), complement (`~`) and numeric intervals (`<1-5>`) are
 * rejected as unsupported.
 */
import { aggErrors } from '../agg-errors.js';

const JS_SYNTAX = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/']);

function literal(ch: string): string {
  return JS_SYNTAX.has(ch) ? '\\' + ch : ch;
}

function classLiteral(ch: string): string {
  return ch === '\\' || ch === ']' || ch === '[' || ch === '^' || ch === '-' ? '\\' + ch : ch;
}

const SHORTHAND = new Set(['d', 'D', 's', 'S', 'w', 'W']);

export function luceneRegExp(pattern: string): RegExp {
  const chars = [...pattern];
  let out = '';
  let i = 0;
  const unsupported = (what: string): never => {
    throw aggErrors.illegalArgument(`regular expression [${pattern}] uses ${what}, which Gannet does not support`);
  };
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === '\\') {
      const next = chars[i + 1];
      if (next === undefined) throw aggErrors.illegalArgument(`expected character after escape at position ${i}`);
      out += SHORTHAND.has(next) ? '\\' + next : literal(next);
      i += 2;
    } else if (c === '"') {
      const end = chars.indexOf('"', i + 1);
      if (end < 0) throw aggErrors.illegalArgument(`expected '"' at position ${chars.length}`);
      out += '(?:' + chars.slice(i + 1, end).map(literal).join('') + ')';
      i = end + 1;
    } else if (c === '.') {
      out += '[\\s\\S]';
      i++;
    } else if (c === '@') {
      out += '[\\s\\S]*';
      i++;
    } else if (c === '#') {
      out += '(?!)';
      i++;
    } else if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (chars[j] === '^') {
        cls += '^';
        j++;
      }
      while (j < chars.length && chars[j] !== ']') {
        const ch = chars[j]!;
        if (ch === '\\' && j + 1 < chars.length) {
          cls += SHORTHAND.has(chars[j + 1]!) ? '\\' + chars[j + 1] : classLiteral(chars[j + 1]!);
          j += 2;
        } else if (ch === '-' && cls.length > 1 && chars[j + 1] !== ']') {
          cls += '-';
          j++;
        } else {
          cls += classLiteral(ch);
          j++;
        }
      }
      if (j >= chars.length) throw aggErrors.illegalArgument(`expected ']' at position ${chars.length}`);
      out += cls + ']';
      i = j + 1;
    } else if (c === '{') {
      const end = chars.indexOf('}', i);
      if (end < 0) throw aggErrors.illegalArgument(`expected '}' at position ${chars.length}`);
      out += '{' + chars.slice(i + 1, end).join('') + '}';
      i = end + 1;
    } else if (c === '&') {
      unsupported('intersection (&)');
    } else if (c === '~') {
      unsupported('complement (~)');
    } else if (c === '<') {
      unsupported('numeric intervals (<n-m>)');
    } else if (c === '*' || c === '+' || c === '?' || c === '|' || c === '(' || c === ')') {
      out += c;
      i++;
    } else {
      out += literal(c);
      i++;
    }
  }
  try {
    return new RegExp('^(?:' + out + ')$', 'u');
  } catch (err) {
    throw aggErrors.illegalArgument(`invalid regular expression [${pattern}]: ${(err as Error).message}`);
  }
}
