/**
 * Finds where and why a JSON text is malformed. Used only after JSON.parse has failed (V8's messages do not
 * always carry a position), so it favours clarity over speed. Messages follow Jackson's wording, which is
 * what ES users see: "Unexpected character (',' (code 44)): expected a value".
 */
export interface SyntaxFault {
  offset: number;
  message: string;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

export function findJsonSyntaxFault(text: string): SyntaxFault | undefined {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  };
  const unexpected = (expected: string): SyntaxFault => {
    if (i >= text.length) return { offset: text.length, message: `Unexpected end-of-input: ${expected}` };
    const ch = text[i]!;
    return { offset: i, message: `Unexpected character ('${ch}' (code ${ch.charCodeAt(0)})): ${expected}` };
  };
  // Stack of containers: 'o' object, 'a' array.
  const stack: Array<'o' | 'a'> = [];
  let expectValue = true;
  for (;;) {
    skip();
    if (expectValue) {
      const c = text[i];
      if (c === '{') {
        i++;
        skip();
        if (text[i] === '}') {
          i++;
          expectValue = false;
        } else {
          const fault = readKey();
          if (fault) return fault;
          stack.push('o');
        }
        continue;
      }
      if (c === '[') {
        i++;
        skip();
        if (text[i] === ']') {
          i++;
          expectValue = false;
        } else stack.push('a');
        continue;
      }
      const fault = readScalar();
      if (fault) return fault;
      expectValue = false;
      continue;
    }
    // After a value: close containers or continue them.
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (i < text.length) return unexpected('expected end-of-input');
      return undefined;
    }
    const c = text[i];
    if (c === ',') {
      i++;
      if (top === 'o') {
        skip();
        const fault = readKey();
        if (fault) return fault;
      }
      expectValue = true;
    } else if ((c === '}' && top === 'o') || (c === ']' && top === 'a')) {
      i++;
      stack.pop();
    } else {
      return unexpected(top === 'o' ? "was expecting comma to separate Object entries" : 'was expecting comma to separate Array entries');
    }
  }

  function readKey(): SyntaxFault | undefined {
    if (text[i] !== '"') return unexpected("was expecting double-quote to start field name");
    const fault = readString();
    if (fault) return fault;
    skip();
    if (text[i] !== ':') return unexpected("was expecting a colon to separate field name and value");
    i++;
    return undefined;
  }

  function readString(): SyntaxFault | undefined {
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c === 0x5c) i += 2;
      else if (c < 0x20) return { offset: i, message: `Illegal unquoted character ((CTRL-CHAR, code ${c})): has to be escaped using backslash to be included in string value` };
      else i++;
    }
    return { offset: text.length, message: 'Unexpected end-of-input: was expecting closing quote for a string value' };
  }

  function readScalar(): SyntaxFault | undefined {
    const c = text[i];
    if (c === '"') return readString();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) return unexpected('expected a value');
    i += literal[0].length;
    return undefined;
  }
}
