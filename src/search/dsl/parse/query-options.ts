/**
 * The loop most QueryBuilder.fromXContent methods write by hand: for each field of an object, what happens
 * depends on the token its value starts with (a value, null, an object, an array) and on the field's name. Here
 * a query kind declares its options instead (ParseField names, the tokens each is read on, a reader) and how it
 * answers anything else; the loop and its error messages exist once.
 *
 * Not the ObjectParser port: ES's hand-written loops let a reader's failure out as it is (no "failed to parse
 * field" wrapper), refuse unknown fields with a parsing_exception in their own words and suggest nothing. The two
 * share the ParseField table, so an option answers to its deprecated names as well.
 */
import type { EsError } from '../../../common/errors.js';
import type { Token, XContentParser } from '../xcontent/xcontent-parser.js';
import { ParseFieldTable, type ParseField } from '../xcontent/parse-field.js';
import { parsingError } from '../xcontent/xcontent-errors.js';
import type { QueryParseContext } from './parse-context.js';

/**
 * What a field's value starts with, as the loops tell them apart. END_ARRAY counts as an array: a loop only
 * meets one after it skipped an array's start (boosting does) and then read the array's elements as fields.
 */
export type TokenKind = 'value' | 'null' | 'object' | 'array';

export const VALUES: readonly TokenKind[] = ['value'];
export const VALUES_OR_NULL: readonly TokenKind[] = ['value', 'null'];
export const ANY_TOKEN: readonly TokenKind[] = ['value', 'null', 'object', 'array'];

/** Token.isValue() (strings, numbers, booleans) and the rest. */
export function tokenKind(token: Token | undefined): TokenKind {
  switch (token) {
    case 'VALUE_STRING':
    case 'VALUE_NUMBER':
    case 'VALUE_BOOLEAN':
      return 'value';
    case 'VALUE_NULL':
      return 'null';
    case 'START_OBJECT':
      return 'object';
    default:
      return 'array';
  }
}

/**
 * How a kind answers a field it does not read, in the wording of its ES builder:
 * - does_not_support: "[<kind>] query does not support [<field>]";
 * - unknown_token: "[<kind>] unknown token [<token>] after [<field>]";
 * - unexpected_token_after: "[<kind>] unexpected token [<token>] after [<field>]";
 * - unexpected_token: "unexpected token [<token>]";
 * - unsupported_field: "[<kind>] unsupported field [<field>]";
 * - skip: nothing (the builder has no branch for that token), the loop reads on.
 */
export type Refusal = 'does_not_support' | 'unknown_token' | 'unexpected_token_after' | 'unexpected_token' | 'unsupported_field' | 'skip';

/** The refusal per token kind; a kind not named gets does_not_support. */
export type Refusals = Readonly<Partial<Record<TokenKind, Refusal>>>;

/** The refusals of a builder that reads only values and refuses any structure as an unknown token (match, exists, ...). */
export const STRUCTURE_IS_UNKNOWN_TOKEN: Refusals = { null: 'unknown_token', object: 'unknown_token', array: 'unknown_token' };

/** Reads the option's value; the parser stands on its first token and is left on its last. */
export type OptionReader<S> = (parser: XContentParser, state: S, context: QueryParseContext) => void;

interface Option<S> {
  readonly reads: readonly TokenKind[];
  readonly read: OptionReader<S>;
}

export class QueryOptions<S> {
  private readonly options = new ParseFieldTable<Option<S>>();

  constructor(
    readonly queryName: string,
    private readonly refusals: Refusals = {},
  ) {}

  /** An option read on the given token kinds (values only unless said). */
  declare(field: string | ParseField, read: OptionReader<S>, reads: readonly TokenKind[] = VALUES): this {
    this.options.declare(field, { reads, read });
    return this;
  }

  /**
   * Reads the fields of the object the parser stands on (its START_OBJECT) up to its END_OBJECT. Returns the
   * last field name seen: ES's loops share that variable with the loop around them, which reads on with it.
   */
  parseFields(context: QueryParseContext, state: S): string | undefined {
    const parser = context.parser;
    let fieldName: string | undefined;
    for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
      if (token === 'FIELD_NAME') fieldName = parser.currentName();
      else this.parseField(context, fieldName, state);
    }
    return fieldName;
  }

  /** Reads one field's value, the parser standing on its first token: the declared option, or the refusal. */
  parseField(context: QueryParseContext, fieldName: string | undefined, state: S): void {
    const parser = context.parser;
    const kind = tokenKind(parser.currentToken());
    const option = this.options.match(fieldName);
    if (option !== undefined && option.reads.includes(kind)) option.read(parser, state, context);
    else this.refuse(parser, this.refusals[kind] ?? 'does_not_support', fieldName);
  }

  private refuse(parser: XContentParser, refusal: Refusal, fieldName: string | undefined): void {
    if (refusal === 'skip') return;
    throw refusalError(parser, this.queryName, refusal, fieldName);
  }
}

/** The error of a refusal (skip aside), located at the token the parser stands on. */
export function refusalError(parser: XContentParser, queryName: string, refusal: Exclude<Refusal, 'skip'>, fieldName: string | undefined): EsError {
  const token = parser.currentToken();
  const reasons: Record<Exclude<Refusal, 'skip'>, string> = {
    does_not_support: `[${queryName}] query does not support [${fieldName}]`,
    unknown_token: `[${queryName}] unknown token [${token}] after [${fieldName}]`,
    unexpected_token_after: `[${queryName}] unexpected token [${token}] after [${fieldName}]`,
    unexpected_token: `unexpected token [${token}]`,
    unsupported_field: `[${queryName}] unsupported field [${fieldName}]`,
  };
  return parsingError(parser.tokenLocation(), reasons[refusal]);
}

/** AbstractQueryBuilder's BOOST_FIELD and NAME_FIELD, which every query takes. */
export function declareBoostAndName<S extends { boost: number; name?: string | undefined }>(options: QueryOptions<S>, reads: readonly TokenKind[] = VALUES): QueryOptions<S> {
  return options
    .declare(
      'boost',
      (parser, state) => {
        state.boost = parser.floatValue();
      },
      reads,
    )
    .declare(
      '_name',
      (parser, state) => {
        state.name = parser.text();
      },
      reads,
    );
}
