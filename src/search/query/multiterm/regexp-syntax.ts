/**
 * Lucene's regular expression syntax (what ES's `regexp` query takes) translated to a JavaScript RegExp
 * that must match a whole term: `.` `?` `*` `+` `{n}` `{n,}` `{n,m}` `|` `( )` `[ ]` `[^ ]` with ranges,
 * `\` escapes, `"quoted literals"`, `@` (any string) and `#` (the empty language). Unlike JavaScript, `^`
 * and `$` are plain characters. Complement `~`, intersection `&` and numeric intervals `<n-m>` have no
 * RegExp counterpart and are refused with a clear error rather than misread.
 */
import { errors } from '../../../common/errors.js';

/** Escapes a literal character for use outside a class (`\-` is a syntax error there in unicode mode). */
function escapeChar(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function escapeClassChar(char: string): string {
  return char.replace(/[\]\\^-]/g, '\\$&');
}

class Parser {
  private readonly chars: string[];
  private index = 0;

  constructor(private readonly pattern: string) {
    this.chars = [...pattern];
  }

  parse(): string {
    const source = this.union();
    if (this.index < this.chars.length) throw this.error(`unexpected '${this.chars[this.index]}' at position ${this.index}`);
    return source;
  }

  private error(reason: string) {
    return errors.illegalArgument(`invalid regular expression [${this.pattern}]: ${reason}`);
  }

  private peek(): string | undefined {
    return this.chars[this.index];
  }

  private next(): string {
    const char = this.chars[this.index++];
    if (char === undefined) throw this.error('unexpected end of expression');
    return char;
  }

  private union(): string {
    const parts = [this.concatenation()];
    while (this.peek() === '|') {
      this.index++;
      parts.push(this.concatenation());
    }
    return parts.join('|');
  }

  private concatenation(): string {
    let source = '';
    for (let char = this.peek(); char !== undefined && char !== ')' && char !== '|'; char = this.peek()) {
      if (char === '&') throw this.error('intersection (&) is not supported');
      source += this.repeat();
    }
    return source;
  }

  private repeat(): string {
    let source = this.atom();
    for (;;) {
      const char = this.peek();
      if (char === '?' || char === '*' || char === '+') {
        this.index++;
        source = `(?:${source})${char}`;
      } else if (char === '{') {
        this.index++;
        let bounds = '';
        while (this.peek() !== '}') bounds += this.next();
        this.index++;
        if (!/^\d+(,\d*)?$/.test(bounds)) throw this.error(`invalid repetition {${bounds}}`);
        source = `(?:${source}){${bounds}}`;
      } else {
        return source;
      }
    }
  }

  private atom(): string {
    const char = this.next();
    switch (char) {
      case '~':
        throw this.error('complement (~) is not supported');
      case '<':
        throw this.error('intervals (<n-m>) and named automata are not supported');
      case '.':
        return '.';
      case '@':
        return '.*';
      case '#':
        return '(?!)';
      case '"': {
        let literal = '';
        while (this.peek() !== '"') literal += escapeChar(this.next());
        this.index++;
        return `(?:${literal})`;
      }
      case '(': {
        const inner = this.peek() === ')' ? '' : this.union();
        if (this.next() !== ')') throw this.error('missing )');
        return `(?:${inner})`;
      }
      case '[':
        return this.characterClass();
      case '\\':
        return escapeChar(this.next());
      default:
        return escapeChar(char);
    }
  }

  private characterClass(): string {
    let source = '[';
    if (this.peek() === '^') {
      this.index++;
      source += '^';
    }
    let first = true;
    while (this.peek() !== ']' || first) {
      let char = this.next();
      if (char === '\\') char = this.next();
      source += escapeClassChar(char);
      if (this.peek() === '-' && this.chars[this.index + 1] !== ']' && this.chars[this.index + 1] !== undefined) {
        this.index++;
        let end = this.next();
        if (end === '\\') end = this.next();
        source += `-${escapeClassChar(end)}`;
      }
      first = false;
    }
    this.index++;
    return `${source}]`;
  }
}

export function compileLuceneRegexp(pattern: string, caseInsensitive = false): RegExp {
  const source = new Parser(pattern).parse();
  return new RegExp(`^(?:${source})$`, caseInsensitive ? 'isu' : 'su');
}
