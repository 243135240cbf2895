/**
 * A port of the slice of Elasticsearch's XContentParser (JsonXContentParser over Jackson) that the query DSL
 * and search body parsers use, so they can be written as ES writes them: token by token, with the same
 * value coercions (strings accepted where numbers are expected, "true"/"false" strings as booleans) and the
 * same failures, located at the token ES would blame.
 *
 * Contract: nextToken() advances; currentToken()/currentName()/tokenLocation() describe where the parser
 * stands. Value accessors read the current token and never advance, except map()/list()/skipChildren(),
 * which consume a whole container and leave the parser on its closing token.
 */
import { EsError } from '../../../common/errors.js';
import { invalidUtf8 } from '../../../common/utf8.js';
import { JsonPullParser, type JsonToken, type TokenLocation } from '../../../mapping/json-pull-parser.js';
import { JsonSyntaxError } from '../../../mapping/json-syntax-error.js';
import { JavaNumberError, javaStringToLong, LONG_MAX, LONG_MIN, parseJavaDouble, parseJavaFloat } from '../../../mapping/java-numbers.js';
import { xContentParseError } from './xcontent-errors.js';

export type Token = JsonToken;
export type { TokenLocation };

/** A JSON value as ES reads it into a Java object: big integers stay exact (bigint). */
export type JsonValue = string | number | bigint | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A scalar as `objectText()` returns it (Jackson's getNumberValue keeps integers exact). */
export type ScalarValue = string | number | bigint | boolean;

/** Token.isValue(): strings, numbers and booleans; null is not a value in XContent's sense. */
export function isValueToken(token: Token | undefined): boolean {
  return token === 'VALUE_STRING' || token === 'VALUE_NUMBER' || token === 'VALUE_BOOLEAN';
}

const INT_RANGE = '(-2147483648 - 2147483647)';
const LONG_RANGE = '(-9223372036854775808 - 9223372036854775807)';

export class XContentParser {
  private readonly json: JsonPullParser;
  private token: Token | undefined;
  /** Field names per open container: the name the parser reports for the current token. */
  private readonly names: Array<string | undefined> = [undefined];

  /** Refuses a body that is not valid UTF-8 as Jackson does (x_content_parse_exception, located). */
  constructor(bytes: Uint8Array) {
    const fault = invalidUtf8(bytes);
    if (fault !== undefined) throw new EsError('x_content_parse_exception', `${fault.location} ${fault.detail}`);
    this.json = new JsonPullParser(bytes);
  }

  static fromString(text: string): XContentParser {
    return new XContentParser(Buffer.from(text, 'utf8'));
  }

  nextToken(): Token | undefined {
    const previous = this.token;
    if (previous === 'START_OBJECT' || previous === 'START_ARRAY') this.names.push(undefined);
    let token: Token | undefined;
    try {
      token = this.json.next();
    } catch (err) {
      if (err instanceof JsonSyntaxError) throw xContentParseError({ line: err.line, column: err.column }, err.message);
      throw err;
    }
    if (token === 'END_OBJECT' || token === 'END_ARRAY') this.names.pop();
    else if (token === 'FIELD_NAME') this.names[this.names.length - 1] = this.json.text;
    this.token = token;
    return token;
  }

  currentToken(): Token | undefined {
    return this.token;
  }

  /**
   * Jackson's getCurrentName: the field name on FIELD_NAME, the name a value (or a container) belongs to
   * otherwise, undefined at the root and inside arrays.
   */
  currentName(): string | undefined {
    return this.names[this.names.length - 1];
  }

  tokenLocation(): TokenLocation {
    return this.json.location();
  }

  /** Whether the current number literal is an integer (Jackson's VALUE_NUMBER_INT). */
  isIntegerNumber(): boolean {
    return this.token === 'VALUE_NUMBER' && this.json.isInteger;
  }

  /** The raw token text: field name, string, number literal or "true"/"false". */
  rawText(): string {
    return this.json.text;
  }

  /** text(): the value as a string; ES refuses non-value tokens. */
  text(): string {
    if (!isValueToken(this.token)) {
      const location = this.tokenLocation();
      throw new EsError('illegal_argument_exception', `Expected text at ${location.line}:${location.column} but found ${this.token}`);
    }
    return this.json.text;
  }

  textOrNull(): string | null {
    return this.token === 'VALUE_NULL' ? null : this.text();
  }

  /** objectText()/objectBytes(): strings, numbers (exact) and booleans as themselves, null as null. */
  objectText(): ScalarValue | null {
    switch (this.token) {
      case 'VALUE_STRING':
        return this.json.text;
      case 'VALUE_NUMBER':
        return numberLiteral(this.json.text, this.json.isInteger);
      case 'VALUE_BOOLEAN':
        return this.json.text === 'true';
      case 'VALUE_NULL':
        return null;
      default:
        // Jackson's getText on a structural token is its punctuation.
        return this.text();
    }
  }

  /** booleanValue(): strict "true"/"false" strings, JSON booleans; anything else fails as ES fails. */
  booleanValue(): boolean {
    if (this.token === 'VALUE_STRING') return parseStrictBoolean(this.json.text);
    if (this.token === 'VALUE_BOOLEAN') return this.json.text === 'true';
    throw xContentParseError(this.tokenLocation(), `Current token (${this.jacksonTokenName()}) not of boolean type`);
  }

  /** floatValue() with ES's default coercion: strings parse with Float.parseFloat. */
  floatValue(): number {
    if (this.token === 'VALUE_STRING') return javaNumber(() => parseJavaFloat(this.json.text));
    this.requireNumber();
    return Math.fround(Number(this.json.text));
  }

  doubleValue(): number {
    if (this.token === 'VALUE_STRING') return javaNumber(() => parseJavaDouble(this.json.text));
    this.requireNumber();
    return Number(this.json.text);
  }

  /** intValue(): strings via Double.parseDouble with ES's range check; numbers via Jackson's getIntValue. */
  intValue(): number {
    if (this.token === 'VALUE_STRING') {
      const text = this.json.text;
      const value = javaNumber(() => parseJavaDouble(text));
      if (value < -2147483648 || value > 2147483647) {
        throw new EsError('illegal_argument_exception', `Value [${text}] is out of range for an integer`);
      }
      return Number.isNaN(value) ? 0 : Math.trunc(value);
    }
    this.requireNumber();
    const text = this.json.text;
    const value = Number(text);
    const outOfRange = this.json.isInteger ? BigInt(text) < -2147483648n || BigInt(text) > 2147483647n : !(value >= -2147483648 && value <= 2147483647);
    if (outOfRange) throw xContentParseError(this.tokenLocation(), `Numeric value (${text}) out of range of int ${INT_RANGE}`);
    return Math.trunc(value) | 0;
  }

  longValue(): bigint {
    if (this.token === 'VALUE_STRING') return javaNumber(() => javaStringToLong(this.json.text, true));
    this.requireNumber();
    const text = this.json.text;
    if (this.json.isInteger) {
      const value = BigInt(text);
      if (value < LONG_MIN || value > LONG_MAX) throw xContentParseError(this.tokenLocation(), `Numeric value (${text}) out of range of long ${LONG_RANGE}`);
      return value;
    }
    const value = Number(text);
    if (!(value >= -9.223372036854776e18 && value < 9.223372036854776e18)) {
      throw xContentParseError(this.tokenLocation(), `Numeric value (${text}) out of range of long ${LONG_RANGE}`);
    }
    return BigInt(Math.trunc(value));
  }

  /** Skips the current object or array (Jackson's skipChildren); no-op on scalars. */
  skipChildren(): void {
    if (this.token !== 'START_OBJECT' && this.token !== 'START_ARRAY') return;
    let depth = 0;
    do {
      const token = this.nextToken();
      if (token === 'START_OBJECT' || token === 'START_ARRAY') depth++;
      else if (token === 'END_OBJECT' || token === 'END_ARRAY') depth--;
      else if (token === undefined) return;
    } while (depth >= 0);
  }

  /** map()/mapOrdered(): the current object (or the one starting at the next token) as plain values, in order. */
  map(): { [key: string]: JsonValue } {
    if (this.token === undefined) this.nextToken();
    if (this.token === 'FIELD_NAME') return this.readObjectEntries();
    if (this.token !== 'START_OBJECT') return {};
    this.nextToken();
    return this.readObjectEntries();
  }

  /** The current value (scalar, object or array) as plain values; containers are consumed. */
  readValue(): JsonValue {
    switch (this.token) {
      case 'START_OBJECT':
        this.nextToken();
        return this.readObjectEntries();
      case 'START_ARRAY': {
        const list: JsonValue[] = [];
        while (this.nextToken() !== 'END_ARRAY') list.push(this.readValue());
        return list;
      }
      case 'VALUE_NULL':
        return null;
      default:
        return this.objectText();
    }
  }

  /** Reads `name: value` pairs from the current FIELD_NAME (or END_OBJECT) to the end of the object. */
  private readObjectEntries(): { [key: string]: JsonValue } {
    const out: { [key: string]: JsonValue } = {};
    while (this.token === 'FIELD_NAME') {
      const name = this.json.text;
      this.nextToken();
      setOwn(out, name, this.readValue());
      this.nextToken();
    }
    return out;
  }

  private requireNumber(): void {
    if (this.token !== 'VALUE_NUMBER') {
      throw xContentParseError(this.tokenLocation(), `Current token (${this.jacksonTokenName()}) not numeric, can not use numeric value accessors`);
    }
  }

  /** Jackson's own token names, which its messages use. */
  jacksonTokenName(): string {
    if (this.token === 'VALUE_BOOLEAN') return this.json.text === 'true' ? 'VALUE_TRUE' : 'VALUE_FALSE';
    if (this.token === 'VALUE_NUMBER') return this.json.isInteger ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT';
    return String(this.token);
  }
}

/** A JSON number literal as Jackson's getNumberValue gives it: exact integers, doubles otherwise. */
export function numberLiteral(text: string, isInteger: boolean): number | bigint {
  if (!isInteger) return Number(text);
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

/** Sets a key as an own property, even `__proto__` (which plain assignment would turn into a prototype). */
export function setOwn(target: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** ES's Booleans.parseBoolean: only "true" and "false". */
export function parseStrictBoolean(text: string): boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new EsError('illegal_argument_exception', `Failed to parse value [${text}] as only [true] or [false] are allowed.`);
}

function javaNumber<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof JavaNumberError) throw new EsError(err.type, err.message);
    throw err;
  }
}
