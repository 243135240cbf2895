/**
 * The aggregation errors users see, with Elasticsearch's types and wording. The request body reaches Gannet
 * already decoded, so the "[line:column]" prefix ES puts on parse errors is not reproduced.
 */
import { EsError } from '../../common/errors.js';
import { didYouMean } from '../../common/did-you-mean.js';

/** SuggestingErrorOnUnknown.suggest: " did you mean [x]?" / " did you mean any of [a, b]?" or "". */
export function suggest(unknown: string, candidates: Iterable<string>): string {
  return didYouMean(unknown, candidates);
}

export const aggErrors = {
  parsing: (reason: string) => new EsError('parsing_exception', reason),
  illegalArgument: (reason: string, causedBy?: EsError) => new EsError('illegal_argument_exception', reason, { causedBy }),
  /** ObjectParser: an unknown field of an aggregation body. */
  unknownField: (parser: string, field: string, candidates: Iterable<string>) =>
    new EsError('x_content_parse_exception', `[${parser}] unknown field [${field}]${suggest(field, candidates)}`),
  /** ObjectParser: a field whose JSON type the parser does not accept. */
  unsupportedValueType: (parser: string, field: string, token: string) =>
    new EsError('x_content_parse_exception', `[${parser}] ${field} doesn't support values of type: ${token}`),
  /** ObjectParser wraps what a field's setter throws. */
  failedToParseField: (parser: string, field: string, causedBy: EsError) =>
    new EsError('x_content_parse_exception', `[${parser}] failed to parse field [${field}]`, { causedBy }),
  /** ConstructingObjectParser: what the builder throws once every field is read (no location: ES has none). */
  failedToBuild: (parser: string, causedBy: EsError) =>
    new EsError('x_content_parse_exception', `Failed to build [${parser}] after last required field arrived`, { causedBy }),
  /** IpPrefixAggregationBuilder.throwOnInvalidFieldValue. */
  outOfRange: (field: string, min: number, max: number, value: number) =>
    new EsError('illegal_argument_exception', `[${field}] must be in range [${min}, ${max}] while value is [${value}]`),
  numberFormat: (text: string) => new EsError('number_format_exception', `For input string: "${text}"`),
  unknownAggregationType: (type: string, candidates: Iterable<string>) =>
    new EsError('parsing_exception', `Unknown aggregation type [${type}]${suggest(type, candidates)}`),
  cannotAcceptSubAggregations: (name: string, type: string) =>
    new EsError('aggregation_initialization_exception', `Aggregator [${name}] of type [${type}] cannot accept sub-aggregations`),
  requiredFieldOrScript: () => new EsError('illegal_argument_exception', 'Required one of fields [field, script], but none were specified. '),
  unsupportedFieldType: (field: string, typeName: string, aggregation: string) =>
    new EsError('illegal_argument_exception', `Field [${field}] of type [${typeName}] is not supported for aggregation [${aggregation}]`),
  textFieldData: (field: string, index: string) =>
    new EsError(
      'illegal_argument_exception',
      `Fielddata is disabled on [${field}] in [${index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
    ),
  invalidOrderPath: (path: string, reason: string) =>
    new EsError('aggregation_execution_exception', `Invalid aggregation order path [${path}]. ${reason}`, { status: 400 }),
  notSupported: (what: string) => new EsError('illegal_argument_exception', `${what} is not supported by Gannet's aggregations`),
  /** MultiBucketConsumerService.TooManyBucketsException. */
  tooManyBuckets: (limit: number) =>
    new EsError(
      'too_many_buckets_exception',
      `Trying to create too many buckets. Must be less than or equal to: [${limit}] but this number of buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.`,
      { metadata: { max_buckets: limit } },
    ),
  reduceTypeMismatch: (name: string) =>
    new EsError(
      'aggregation_execution_exception',
      `Merging/Reducing the aggregations failed when computing the aggregation [${name}] because the field you gave in the aggregation query existed as two different types in two different indices`,
    ),
};
