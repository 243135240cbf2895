/**
 * mapping/: field types, dynamic mapping and document parsing. What other layers may use:
 * - parseMapping / serializeMapping / mergeMappings: the ES mapping JSON in and out, and PUT _mapping merges.
 * - parseDocument: a document's JSON to typed fields, `_ignored` and the dynamic mapping update.
 * - fieldOptions / lookupPath: a field's effective options, for the indexer and query parsing.
 * - dates: DateFormatter (ES formats, parse and print) and parseDateMath (now-1d/d).
 */
export type {
  DynamicSetting,
  DynamicTemplateDef,
  FieldMapping,
  LeafFieldType,
  MappingNode,
  MappingSettings,
  NumericFieldType,
  ObjectMapping,
  ParamValue,
  RootMapping,
  SourceSettings,
} from './mapping-model.js';
export { DEFAULT_DYNAMIC_DATE_FORMATS, DEFAULT_MAPPING_SETTINGS, EMPTY_ROOT } from './mapping-model.js';
export { parseMapping, BUILT_IN_ANALYZERS, type MappingParseOptions } from './mapping-parser.js';
export { serializeMapping, serializeNode } from './mapping-serializer.js';
export { mergeMappings, lookupPath } from './mapping-merge.js';
export { checkMappingLimits, countMappedFields } from './mapping-limits.js';
export { parseDocument, type ParseDocumentRequest } from './document-parser.js';
export type {
  BinaryField,
  BooleanField,
  DateField,
  DateNanosField,
  IpField,
  DoubleField,
  EncodedFields,
  IndexableField,
  KeywordField,
  LongField,
  ParsedDocument,
  TextField,
} from './parsed-document.js';
export {
  fieldOptions,
  type BinaryOptions,
  type BooleanOptions,
  type DateNanosOptions,
  type DateOptions,
  type IpOptions,
  type FieldOptions,
  type KeywordOptions,
  type NumberOptions,
  type TextOptions,
} from './field-options.js';
export { DateFormatter, dateFormatter, DEFAULT_DATE_FORMAT, DEFAULT_DATE_NANOS_FORMAT } from './date/date-formatter.js';
export { checkNanosRange, DateNanosRangeError, instantString, millisToNanos, nanosToMillis, MAX_EPOCH_NANOS } from './date/date-nanos.js';
export {
  compareIp,
  formatIp,
  hexToIp,
  ipToHex,
  IpFormatError,
  MAX_IP,
  MIN_IP,
  nextDown as nextIpDown,
  nextUp as nextIpUp,
  parseCidr,
  parseIp,
  prefixRange,
  tryParseIp,
  type IpBytes,
  type IpRange,
} from './ip-address.js';
export { Base64DecodeError, decodeBase64Value, encodeBase64 } from './base64-value.js';
export { DateFormatError, DateParseError, DateTimeError } from './date/date-errors.js';
export { parseDateMath, type DateMathOptions } from './date/date-math.js';
export { parseZoneId, zoneOffsetAtInstant, type ZoneRef } from './date/zones.js';
