/**
 * A port of Elasticsearch's declarative ObjectParser, for the request parts ES parses with it (bool, ids,
 * match_all, match_none, field sorts): each declared field names the token types it accepts, unknown fields
 * fail with "did you mean" suggestions, and any failure inside a field's parser is wrapped in
 * "[<parser>] failed to parse field [<field>]" located where the parser stopped, exactly as ES nests them.
 */
import { didYouMean } from '../../../common/did-you-mean.js';
import { EsError } from '../../../common/errors.js';
import { ParseFieldTable, type ParseField } from './parse-field.js';
import type { Token, XContentParser } from './xcontent-parser.js';
import { asEsError, xContentParseError } from './xcontent-errors.js';

/** ObjectParser.ValueType: the tokens a declared field accepts. */
const VALUE_TYPES = {
  STRING: ['VALUE_STRING'],
  STRING_OR_NULL: ['VALUE_STRING', 'VALUE_NULL'],
  FLOAT: ['VALUE_NUMBER', 'VALUE_STRING'],
  INT: ['VALUE_NUMBER', 'VALUE_STRING'],
  BOOLEAN: ['VALUE_BOOLEAN', 'VALUE_STRING'],
  STRING_ARRAY: ['START_ARRAY', 'VALUE_STRING'],
  OBJECT: ['START_OBJECT'],
  OBJECT_ARRAY_OR_NULL: ['START_OBJECT', 'START_ARRAY', 'VALUE_NULL'],
  VALUE: ['VALUE_BOOLEAN', 'VALUE_NULL', 'VALUE_NUMBER', 'VALUE_STRING'],
} as const satisfies Record<string, readonly Token[]>;

export type ValueType = keyof typeof VALUE_TYPES;

interface FieldParser<T> {
  readonly tokens: readonly Token[];
  readonly parse: (parser: XContentParser, target: T) => void;
}

export class ObjectParser<T> {
  private readonly fields = new ParseFieldTable<FieldParser<T>>();

  constructor(readonly name: string) {}

  declare(field: string | ParseField, type: ValueType, parse: (parser: XContentParser, target: T) => void): this {
    this.fields.declare(field, { tokens: VALUE_TYPES[type], parse });
    return this;
  }

  /** Parses the object at (or starting at the next token of) the parser into `target`; ends on END_OBJECT. */
  parse(parser: XContentParser, target: T): T {
    if (parser.currentToken() !== 'START_OBJECT') {
      const token = parser.nextToken();
      if (token !== 'START_OBJECT') {
        throw xContentParseError(parser.tokenLocation(), `[${this.name}] Expected START_OBJECT but was: ${token ?? 'null'}`);
      }
    }
    while (parser.nextToken() === 'FIELD_NAME') {
      const fieldName = parser.currentName()!;
      const fieldLocation = parser.tokenLocation();
      const field = this.fields.match(fieldName);
      const token = parser.nextToken()!;
      if (field === undefined) {
        throw xContentParseError(fieldLocation, `[${this.name}] unknown field [${fieldName}]${suggest(fieldName, this.fields.names())}`);
      }
      if (!field.tokens.includes(token)) {
        throw xContentParseError(parser.tokenLocation(), `[${this.name}] ${fieldName} doesn't support values of type: ${token}`);
      }
      this.parseField(parser, field, fieldName, target);
      if (token === 'START_OBJECT' && parser.currentToken() !== 'END_OBJECT') {
        throw new EsError('illegal_state_exception', `parser for [${fieldName}] did not end on END_OBJECT`);
      }
      if (token === 'START_ARRAY' && parser.currentToken() !== 'END_ARRAY') {
        throw new EsError('illegal_state_exception', `parser for [${fieldName}] did not end on END_ARRAY`);
      }
    }
    return target;
  }

  private parseField(parser: XContentParser, field: FieldParser<T>, fieldName: string, target: T): void {
    try {
      field.parse(parser, target);
    } catch (err) {
      throw xContentParseError(parser.tokenLocation(), `[${this.name}] failed to parse field [${fieldName}]`, asEsError(err));
    }
  }
}

/**
 * SuggestingErrorOnUnknown.suggest: candidates more than half similar (Lucene's Levenshtein similarity), best
 * first then by name; "" when there are none.
 */
export function suggest(unknown: string, candidates: Iterable<string>): string {
  return didYouMean(unknown, candidates);
}

/**
 * AbstractObjectParser.parseArray: a single value or object counts as a one-element list; array elements
 * must be values, nulls or objects.
 */
export function parseArray<V>(parser: XContentParser, item: (parser: XContentParser) => V): V[] {
  const token = parser.currentToken();
  if (token !== 'START_ARRAY') return [item(parser)];
  const list: V[] = [];
  for (let next = parser.nextToken(); next !== 'END_ARRAY'; next = parser.nextToken()) {
    if (next === 'VALUE_STRING' || next === 'VALUE_NUMBER' || next === 'VALUE_BOOLEAN' || next === 'VALUE_NULL' || next === 'START_OBJECT') {
      list.push(item(parser));
    } else {
      throw new EsError('illegal_state_exception', `expected value but got [${next}]`);
    }
  }
  return list;
}
