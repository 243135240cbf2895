/**
 * Reads an aggregation body the way ES's ObjectParser does: unknown fields are rejected (with did-you-mean),
 * each declared field accepts the JSON types ES accepts for it (numbers may be given as strings, booleans as
 * "true"/"false"), and a value a setter rejects is reported as "[type] failed to parse field [name]".
 */
import { EsError } from '../../../common/errors.js';
import { aggErrors } from '../agg-errors.js';

export type JsonObject = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** XContentParser.Token names as ES prints them in errors. */
export function tokenName(value: unknown): string {
  if (value === null) return 'VALUE_NULL';
  if (Array.isArray(value)) return 'START_ARRAY';
  switch (typeof value) {
    case 'string':
      return 'VALUE_STRING';
    case 'number':
    case 'bigint':
      return 'VALUE_NUMBER';
    case 'boolean':
      return 'VALUE_BOOLEAN';
    default:
      return 'START_OBJECT';
  }
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

export class ObjectFields {
  constructor(
    readonly parser: string,
    readonly body: JsonObject,
    readonly declared: readonly string[],
  ) {
    for (const key of Object.keys(body)) {
      if (!declared.includes(key)) throw aggErrors.unknownField(parser, key, declared);
    }
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.body, name);
  }

  raw(name: string): unknown {
    return this.body[name];
  }

  private wrongType(name: string): EsError {
    return aggErrors.unsupportedValueType(this.parser, name, tokenName(this.body[name]));
  }

  /** Runs a setter, wrapping what it throws as ObjectParser does. */
  apply<T>(name: string, setter: () => T): T {
    try {
      return setter();
    } catch (err) {
      if (err instanceof EsError && err.type !== 'x_content_parse_exception') throw aggErrors.failedToParseField(this.parser, name, err);
      throw err;
    }
  }

  private number(name: string): number | undefined {
    const value = this.body[name];
    if (value === undefined) return undefined;
    if (typeof value === 'number') return value;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      const parsed = trimmed.length === 0 ? NaN : Number(trimmed);
      if (Number.isNaN(parsed) && trimmed !== 'NaN') throw aggErrors.failedToParseField(this.parser, name, aggErrors.numberFormat(value));
      return parsed;
    }
    throw this.wrongType(name);
  }

  /** declareInt: Java's intValue() (fractions truncated, range checked). */
  int(name: string): number | undefined {
    const value = this.number(name);
    if (value === undefined) return undefined;
    const truncated = Math.trunc(value);
    if (!Number.isFinite(value) || truncated < INT_MIN || truncated > INT_MAX) {
      throw aggErrors.failedToParseField(this.parser, name, new EsError('illegal_argument_exception', `Numeric value (${value}) out of range of int`));
    }
    return truncated;
  }

  long(name: string): number | undefined {
    const value = this.number(name);
    return value === undefined ? undefined : Math.trunc(value);
  }

  double(name: string): number | undefined {
    return this.number(name);
  }

  boolean(name: string): boolean | undefined {
    const value = this.body[name];
    if (value === undefined) return undefined;
    if (typeof value === 'boolean') return value;
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (typeof value === 'string') {
      throw aggErrors.failedToParseField(
        this.parser,
        name,
        new EsError('illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`),
      );
    }
    throw this.wrongType(name);
  }

  string(name: string): string | undefined {
    const value = this.body[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    throw this.wrongType(name);
  }

  /** Fields ES reads with ValueType.VALUE / STRING_OR_NUMBER: scalars as text. */
  text(name: string): string | undefined {
    const value = this.body[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw this.wrongType(name);
  }

  object(name: string): JsonObject | undefined {
    const value = this.body[name];
    if (value === undefined) return undefined;
    if (isObject(value)) return value;
    throw this.wrongType(name);
  }
}
