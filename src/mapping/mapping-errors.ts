/**
 * The mapping layer's errors, worded as Elasticsearch words them. Types and statuses come from the one error
 * table (common/errors.ts); this module only holds the message templates that belong to mappings and documents.
 */
import { EsError, type EsErrorType } from '../common/errors.js';
import type { TokenLocation } from './json-pull-parser.js';

export const mappingErrors = {
  mapperParsing: (reason: string, causedBy?: EsError) => new EsError('mapper_parsing_exception', reason, { causedBy }),

  illegalArgument: (reason: string, causedBy?: EsError) => new EsError('illegal_argument_exception', reason, { causedBy }),

  /** Every error while parsing a mapping reaches the user wrapped like this (MappingParser.parseToBuilder). */
  failedToParseMapping: (cause: EsError) =>
    new EsError('mapper_parsing_exception', `Failed to parse mapping: ${cause.reason}`, { causedBy: cause }),

  /** A DocumentParsingException: the reason starts with the [line:column] of the token being parsed. */
  documentParsing: (location: TokenLocation | undefined, reason: string, causedBy?: EsError) =>
    new EsError('document_parsing_exception', located(location, reason), { causedBy }),

  strictDynamic: (location: TokenLocation, objectPath: string, fieldName: string) =>
    new EsError(
      'strict_dynamic_mapping_exception',
      located(location, `mapping set to strict, dynamic introduction of [${fieldName}] within [${objectPath}] is not allowed`),
    ),

  /** FieldMapper.parse's wrapper around anything a field fails on. */
  fieldParse: (location: TokenLocation, field: string, type: string, docDescription: string, preview: string, cause: EsError) =>
    new EsError(
      'document_parsing_exception',
      located(location, `failed to parse field [${field}] of type [${type}] in ${docDescription}. Preview of field's value: '${preview}'`),
      { causedBy: cause },
    ),

  /** Any other failure inside document parsing (DocumentParser.wrapInDocumentParsingException). */
  failedToParseDocument: (location: TokenLocation, cause: EsError) =>
    new EsError('document_parsing_exception', located(location, `failed to parse: ${cause.reason}`), { causedBy: cause }),

  cause: (type: EsErrorType, reason: string, causedBy?: EsError) => new EsError(type, reason, { causedBy }),

  totalFieldsExceeded: (limit: number, adding?: number) =>
    new EsError(
      'illegal_argument_exception',
      `Limit of total fields [${limit}] has been exceeded` + (adding !== undefined && adding > 0 ? ` while adding new fields [${adding}]` : ''),
    ),

  depthExceeded: (limit: number, objectPath: string) =>
    new EsError('illegal_argument_exception', `Limit of mapping depth [${limit}] has been exceeded due to object field [${objectPath}]`),

  fieldNameTooLong: (name: string, limit: number) =>
    new EsError('illegal_argument_exception', `Field name [${name}] is longer than the limit of [${limit}] characters`),

  typeChange: (field: string, from: string, to: string) =>
    new EsError('illegal_argument_exception', `mapper [${field}] cannot be changed from type [${from}] to [${to}]`),

  objectConflict: (field: string) =>
    new EsError('illegal_argument_exception', `can't merge a non object mapping [${field}] with an object mapping`),

  enabledChange: (objectPath: string) =>
    new EsError('mapper_exception', `the [enabled] parameter can't be updated for the object mapping [${objectPath}]`),

  parameterConflicts: (field: string, conflicts: readonly string[]) =>
    new EsError('illegal_argument_exception', `Mapper for [${field}] conflicts with existing mapper:\n\t${conflicts.join('\n\t')}`),
};

function located(location: TokenLocation | undefined, reason: string): string {
  return location === undefined ? reason : `[${location.line}:${location.column}] ${reason}`;
}

/** Java's toString of a value read from JSON (LinkedHashMap "{a=b}", ArrayList "[a, b]"), for messages. */
export function javaToString(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (depth > 100) return '...';
  if (Array.isArray(value)) return `[${value.map((v) => javaToString(v, depth + 1)).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${javaToString(v, depth + 1)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) return String(value).includes('.') || /e/.test(String(value)) ? javaDouble(value) : String(value);
  return String(value);
}

function javaDouble(value: number): string {
  const text = String(value);
  return text.includes('e') ? text.replace('e+', 'E').replace('e', 'E') : text;
}
