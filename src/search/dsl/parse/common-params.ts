/**
 * Value readers several query parsers share, each failing with the message the ES class that owns the
 * value uses: Fuzziness, Operator, zero_terms_query, ES's boost rule, field^boost lists, enum lookups.
 */
import { EsError } from '../../../common/errors.js';
import type { FieldBoost, Fuzziness, Operator, ZeroTermsQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import type { XContentParser } from '../xcontent/xcontent-parser.js';
import { elasticsearchParseError, illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { javaFloatString, parseJavaFloat, JavaNumberError } from '../../../mapping/java-numbers.js';

/** Fuzziness.parse: a string (fromString) or a number (an edit distance). */
export function readFuzziness(parser: XContentParser): Fuzziness {
  const token = parser.currentToken();
  if (token === 'VALUE_STRING') return fuzzinessFromString(parser.text());
  if (token === 'VALUE_NUMBER') return fuzzinessFromEdits(parser.intValue());
  throw illegalArgument(`Can't parse fuzziness on token: [${token}]`);
}

export function fuzzinessFromEdits(edits: number): Fuzziness {
  if (edits === 0 || edits === 1 || edits === 2) return { kind: 'edits', edits };
  throw illegalArgument(`Valid edit distances are [0, 1, 2] but was [${edits}]`);
}

/** Fuzziness.fromString: "AUTO", "AUTO:low,high", or 0/1/2 (also as "1.0"). */
export function fuzzinessFromString(text: string): Fuzziness {
  if (text.length === 0) throw illegalArgument('fuzziness cannot be null or empty.');
  const upper = text.toUpperCase();
  if (upper === 'AUTO') return DEFAULTS.autoFuzziness;
  if (upper.startsWith('AUTO:')) return customAuto(upper);
  let parsed: number;
  try {
    parsed = parseJavaFloat(upper);
  } catch (err) {
    if (err instanceof JavaNumberError) {
      throw illegalArgument(`fuzziness cannot be [${text}].`, new EsError('number_format_exception', err.message));
    }
    throw err;
  }
  if (parsed % 1 > 0) throw illegalArgument(`fuzziness needs to be one of 0.0, 1.0 or 2.0 but was ${javaFloatString(parsed)}`);
  return fuzzinessFromEdits(Math.trunc(parsed));
}

function customAuto(upper: string): Fuzziness {
  const limits = javaSplit(upper.slice('AUTO:'.length), ',');
  if (limits.length !== 2) throw elasticsearchParseError('failed to find low and high distance values');
  const low = javaParseInt(limits[0]!);
  const high = javaParseInt(limits[1]!);
  if (low === undefined || high === undefined) {
    throw elasticsearchParseError(`failed to parse [${upper}] as a "auto:int,int"`, new EsError('number_format_exception', `For input string: "${low === undefined ? limits[0] : limits[1]}"`));
  }
  if (low < 0 || high < 0 || low > high) {
    throw elasticsearchParseError(`fuzziness wrongly configured [${upper}]. Must be 0 < lower value <= higher value.`);
  }
  return { kind: 'auto', low, high };
}

/** Fuzziness.asString, as ES prints it back. */
export function fuzzinessToString(fuzziness: Fuzziness): string {
  if (fuzziness.kind === 'edits') return String(fuzziness.edits);
  return fuzziness.low === 3 && fuzziness.high === 6 ? 'AUTO' : `AUTO:${fuzziness.low},${fuzziness.high}`;
}

/** Fuzziness.asDistance(text): AUTO picks 0, 1 or 2 edits from the term's length in code points. */
export function fuzzinessDistance(fuzziness: Fuzziness, text: string | undefined): number {
  if (fuzziness.kind === 'edits') return fuzziness.edits;
  const length = text === undefined ? 5 : [...text].length;
  if (length < fuzziness.low) return 0;
  if (length < fuzziness.high) return 1;
  return 2;
}

/** Operator.fromString: Java's Enum.valueOf on the upper-cased name. */
export function readOperator(text: string): Operator {
  const upper = text.toUpperCase();
  if (upper === 'OR') return 'or';
  if (upper === 'AND') return 'and';
  throw noEnumConstant('org.elasticsearch.index.query.Operator', upper);
}

/** Java's Enum.valueOf failure. */
export function noEnumConstant(enumClass: string, name: string): EsError {
  return illegalArgument(`No enum constant ${enumClass}.${name}`);
}

/** zero_terms_query: "none" or "all", case-insensitively. */
export function readZeroTermsQuery(parser: XContentParser): ZeroTermsQuery {
  const value = parser.text();
  const lower = value.toLowerCase();
  if (lower === 'none') return 'none';
  if (lower === 'all') return 'all';
  throw parsingError(parser.tokenLocation(), `Unsupported zero_terms_query value [${value}]`);
}

/** AbstractQueryBuilder.boost(float): negative boosts are refused. */
export function checkBoost(boost: number): number {
  if (boost < 0) throw illegalArgument('negative [boost] are not allowed.');
  return boost;
}

/**
 * QueryParserHelper.parseFieldsAndWeights / MultiMatchQueryBuilder.parseFieldAndBoost: "name^boost" into a
 * field and a float boost; a repeated field keeps one entry.
 */
export function parseFieldAndBoost(text: string): FieldBoost {
  const caret = text.indexOf('^');
  if (caret < 0) return { field: text, boost: 1 };
  const boostText = text.slice(caret + 1);
  let boost: number;
  try {
    boost = parseJavaFloat(boostText);
  } catch (err) {
    if (err instanceof JavaNumberError) throw new EsError('number_format_exception', err.message);
    throw err;
  }
  return { field: text.slice(0, caret), boost };
}

/** Adds a field to a field list the way ES's map.put does: a repeated field replaces the earlier boost in place. */
export function putFieldBoost(fields: FieldBoost[], entry: FieldBoost): void {
  const existing = fields.findIndex((field) => field.field === entry.field);
  if (existing >= 0) fields[existing] = entry;
  else fields.push(entry);
}

/** Integer.parseInt: an optional sign and decimal digits within int range; undefined when Java would throw. */
export function javaParseInt(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value < -2147483648 || value > 2147483647 ? undefined : value;
}

/** Integer.parseInt, throwing NumberFormatException's message as ES shows it. */
export function parseIntOrThrow(text: string): number {
  const value = javaParseInt(text);
  if (value === undefined) throw new EsError('number_format_exception', `For input string: "${text}"`);
  return value;
}

/** String.split(regex) for a literal one-char separator: trailing empty strings removed, as Java does. */
export function javaSplit(text: string, separator: string): string[] {
  const parts = text.split(separator);
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 1 && parts[0] === '' && text.length > 0) return [];
  return parts;
}
