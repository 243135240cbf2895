/**
 * Document parsing: a document's JSON source and the index mapping in, Gannet's typed fields, `_ignored` and
 * the dynamic mapping update out. The walk mirrors Elasticsearch's DocumentParser (parseObject, parseArray,
 * parseValue, parseNullValue, dynamic creation, dotted names expanded into objects) so that the same
 * documents pass and fail with the same errors.
 *
 * Recursion is bounded: the pull parser refuses JSON nested deeper than 1000 levels, and objects are only
 * descended into when mapped or dynamically created, which the mapping depth limit caps; unmapped content
 * under dynamic:false or enabled:false is skipped without recursion.
 */
import { EsError } from '../common/errors.js';
import { ownValue } from '../common/own-keys.js';
import { javaDoubleString } from '../common/json-float.js';
import { Base64DecodeError, decodeBase64Value } from './base64-value.js';
import { DateParseError, DateTimeError } from './date/date-errors.js';
import { dateFormatter, DEFAULT_DATE_FORMAT, type DateFormatter } from './date/date-formatter.js';
import { checkNanosRange, DateNanosRangeError } from './date/date-nanos.js';
import { IpFormatError, parseIp } from './ip-address.js';
import { defaultMappingType, findTemplate, templateMappingForName, templateMappingType } from './dynamic-templates.js';
import { fieldOptions } from './field-options.js';
import { acquireParser, releaseParser, type JsonPullParser, type JsonToken, type TokenLocation } from './json-pull-parser.js';
import { JsonConstraintError, JsonSyntaxError } from './json-syntax-error.js';
import { tryParseJavaDouble, tryParseJavaLong } from './java-numbers.js';
import { mappingErrors } from './mapping-errors.js';
import { countMappedFields, objectDepth, totalFieldsCount } from './mapping-limits.js';
import { lookupPath, mergeObjectNodes } from './mapping-merge.js';
import {
  DEFAULT_DYNAMIC_DATE_FORMATS,
  DEFAULT_MAPPING_SETTINGS,
  LEAF_FIELD_TYPES,
  ROOT_NAME,
  type DynamicSetting,
  type FieldMapping,
  type MappingNode,
  type MappingSettings,
  type ObjectMapping,
  type RootMapping,
  type TemplateFieldType,
} from './mapping-model.js';
import { parseNode, parserContext, type MappingParseOptions, type ParserContext } from './mapping-parser.js';
import { readNumber, ValueError, type NumberToken } from './numeric-values.js';
import type { IndexableField, ParsedDocument } from './parsed-document.js';
import { filterSource } from './source-filter.js';
import { readValuePreview } from './value-preview.js';

export interface ParseDocumentRequest extends MappingParseOptions {
  /** The document's JSON, as bytes (columns in errors count bytes, as ES's do) or as a string. */
  readonly source: Uint8Array | string;
  readonly id?: string;
  readonly routing?: string;
  readonly mapping: RootMapping;
}

/** Metadata fields a document may not set (ES: "Use the index API request parameters"). */
const METADATA_FIELDS = new Set([
  '_id', '_index', '_routing', '_source', '_ignored', '_seq_no', '_version', '_field_names', '_nested_path',
  '_data_stream_timestamp', '_tier', '_ignored_source', '_primary_term', '_tsid', '_feature',
]);

/** Lucene's limit on one indexed term, which a keyword value is. */
const MAX_TERM_LENGTH = 32766;

interface ObjectContext {
  /** Full path of the object, '' for the root. */
  readonly path: string;
  /** The object's name in messages ("_doc" for the root). */
  readonly displayName: string;
  /** Where child mappings are looked up (the index mapping's object, or one created by this document). */
  readonly node: ObjectMapping | undefined;
  readonly dynamic: DynamicSetting;
  readonly enabled: boolean;
  readonly isRoot: boolean;
}

/** Where the value of the field being handled comes from. */
type ValueSource = 'next' | 'current';

/** A value position: the parser's token, or an object implied by a dotted field name ("a.b": 1). */
type ValueRef =
  | { readonly kind: 'token' }
  | { readonly kind: 'expanded'; readonly rest: readonly string[]; readonly location: TokenLocation; readonly source: ValueSource };

interface CurrentValue extends NumberToken {
  readonly expanded?: Extract<ValueRef, { kind: 'expanded' }>;
}

const TOKEN: ValueRef = { kind: 'token' };

/** The value of a leaf at the parser's token; its location object is built only if an error asks for it. */
class TokenValue implements CurrentValue {
  constructor(
    readonly token: JsonToken,
    readonly text: string,
    readonly isInteger: boolean,
    private readonly line: number,
    private readonly column: number,
  ) {}

  get location(): TokenLocation {
    return { line: this.line, column: this.column };
  }
}

/** The `ignored` list of the (usual) document that ignored nothing: shared, never mutated. */
const NO_IGNORED: readonly string[] = Object.freeze([]);

function isValueToken(token: JsonToken): boolean {
  return token === 'VALUE_STRING' || token === 'VALUE_NUMBER' || token === 'VALUE_BOOLEAN';
}

function joinPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

/** The root object's context, the same for every document parsed against one mapping (immutable, so shared). */
const rootContexts = new WeakMap<RootMapping, ObjectContext>();

function rootContextOf(root: RootMapping): ObjectContext {
  let context = rootContexts.get(root);
  if (context === undefined) {
    context = { path: '', displayName: ROOT_NAME, node: root, dynamic: root.dynamic ?? 'true', enabled: root.enabled ?? true, isRoot: true };
    rootContexts.set(root, context);
  }
  return context;
}

/**
 * The full path of each multi-field, remembered with the parent path it was built for: one string per
 * multi-field instead of one concatenation per document (and then one hash per document wherever the path
 * is looked up).
 */
const subfieldPaths = new WeakMap<FieldMapping, { readonly parentPath: string; readonly path: string }>();

function subfieldPath(subfield: FieldMapping, parentPath: string, name: string): string {
  const cached = subfieldPaths.get(subfield);
  if (cached !== undefined && cached.parentPath === parentPath) return cached.path;
  const path = `${parentPath}.${name}`;
  subfieldPaths.set(subfield, { parentPath, path });
  return path;
}

/** Java's String.isBlank: empty or only whitespace (Character.isWhitespace, which excludes no-break spaces). */
function isBlank(text: string): boolean {
  // The usual name starts with a visible ASCII character: not blank, known without the regular expression.
  const first = text.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return false;
  return /^[\t\n\u000b\f\r\u001c-\u001f \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]*$/.test(text);
}

export function parseDocument(request: ParseDocumentRequest): ParsedDocument {
  const run = new DocumentParserRun(request);
  try {
    return run.run();
  } finally {
    run.release();
  }
}

class DocumentParserRun {
  private readonly bytes: Uint8Array;
  private readonly parser: JsonPullParser;
  private readonly settings: MappingSettings;
  private readonly root: RootMapping;
  private readonly fields: IndexableField[] = [];
  // Created when first needed: most documents ignore nothing and add no field (fewer allocations per document).
  private ignoredMemo: Set<string> | undefined;
  private dynamicMappersMemo: Map<string, MappingNode[]> | undefined;
  private dynamicFieldsMemo: Map<string, MappingNode> | undefined;
  private parserCtxMemo: ParserContext | undefined;
  private existingFieldCountMemo: number | undefined;
  private dateFormattersMemo: readonly DateFormatter[] | undefined;
  private newFieldsSize = 0;
  private withinCopyTo = false;
  private docCount: number | undefined;

  constructor(private readonly request: ParseDocumentRequest) {
    this.bytes = typeof request.source === 'string' ? new TextEncoder().encode(request.source) : request.source;
    this.parser = acquireParser(this.bytes);
    this.settings = request.settings ?? DEFAULT_MAPPING_SETTINGS;
    this.root = request.mapping;
  }

  private get ignored(): Set<string> {
    return (this.ignoredMemo ??= new Set());
  }

  private get dynamicMappers(): Map<string, MappingNode[]> {
    return (this.dynamicMappersMemo ??= new Map());
  }

  /** The mapping each (type, date format, path) of a new value got in this document. */
  private get dynamicFieldMemo(): Map<string, MappingNode> {
    return (this.dynamicFieldsMemo ??= new Map());
  }

  private get parserCtx(): ParserContext {
    return (this.parserCtxMemo ??= parserContext(this.request));
  }

  /** How errors name the document. */
  private get docDescription(): string {
    return `document with id '${this.request.id ?? 'null'}'`;
  }

  // Both only matter when the document brings new fields: computed then, not for every document (a walk of
  // the whole mapping per document showed in bulk profiles).
  private get existingFieldCount(): number {
    return (this.existingFieldCountMemo ??= countMappedFields(this.root));
  }

  private get dateFormatters(): readonly DateFormatter[] {
    return (this.dateFormattersMemo ??= (this.root.dynamicDateFormats ?? DEFAULT_DYNAMIC_DATE_FORMATS).map((f) => dateFormatter(f)));
  }

  /** Gives the pull parser back for the next document (the run is over, errors included). */
  release(): void {
    releaseParser(this.parser);
  }

  run(): ParsedDocument {
    if (this.bytes.length === 0) throw mappingErrors.documentParsing({ line: 0, column: 0 }, 'failed to parse, document is empty');
    let first: JsonToken | undefined;
    try {
      first = this.parser.next();
    } catch (err) {
      throw this.syntaxError(err);
    }
    if (first !== 'START_OBJECT') throw mappingErrors.documentParsing(undefined, 'Malformed content, must start with an object');
    const rootContext = rootContextOf(this.root);
    try {
      if (!rootContext.enabled) this.parser.skipChildren();
      else if (this.parser.next() !== 'END_OBJECT') this.innerParseObject(rootContext);
    } catch (err) {
      throw this.wrap(err);
    }
    let trailing: JsonToken | undefined;
    try {
      trailing = this.parser.next();
    } catch (err) {
      throw this.syntaxError(err);
    }
    if (trailing !== undefined) throw mappingErrors.illegalArgument(`Malformed content, found extra data after parsing: ${trailing}`);
    return {
      id: this.request.id,
      routing: this.request.routing,
      source: this.bytes,
      storedSource: this.storedSource(),
      fields: this.fields,
      ignored: this.ignoredMemo === undefined || this.ignoredMemo.size === 0 ? NO_IGNORED : [...this.ignoredMemo].sort(),
      docCount: this.docCount,
      mappingUpdate: this.buildMappingUpdate(),
    };
  }

  private storedSource(): Uint8Array | undefined {
    const source = this.root.source;
    if (source?.enabled === false || source?.mode === 'disabled') return undefined;
    if ((source?.includes?.length ?? 0) === 0 && (source?.excludes?.length ?? 0) === 0) return this.bytes;
    return filterSource(this.bytes, source?.includes ?? [], source?.excludes ?? []);
  }

  // ---- errors ----

  /** A JSON syntax error outside the document's body walk: "[l:c] <jackson message>". */
  private syntaxError(err: unknown): unknown {
    if (err instanceof JsonConstraintError) return this.wrap(err);
    if (!(err instanceof JsonSyntaxError)) return err;
    const location = { line: err.line, column: err.column };
    const cause = new EsError('x_content_parse_exception', `[${err.line}:${err.column}] ${err.message}`);
    return mappingErrors.documentParsing(location, cause.reason, cause);
  }

  /** DocumentParser.wrapInDocumentParsingException. */
  private wrap(err: unknown): unknown {
    if (err instanceof EsError) {
      if (err.type === 'document_parsing_exception' || err.type === 'strict_dynamic_mapping_exception') return err;
      return mappingErrors.failedToParseDocument(this.parser.location(), err);
    }
    if (err instanceof JsonConstraintError) {
      // Jackson's StreamConstraintsException is not a parse exception: ES wraps its bare message.
      return mappingErrors.failedToParseDocument({ line: err.line, column: err.column }, new EsError('stream_constraints_exception', err.message));
    }
    if (err instanceof JsonSyntaxError) {
      const location = { line: err.line, column: err.column };
      return mappingErrors.failedToParseDocument(location, new EsError('x_content_parse_exception', `[${err.line}:${err.column}] ${err.message}`));
    }
    return err;
  }

  private ensureNotStrict(context: ObjectContext, name: string, location: TokenLocation): void {
    if (context.dynamic === 'strict') throw mappingErrors.strictDynamic(location, context.displayName, name);
  }

  // ---- the walk ----

  /** Parses fields until the object's END_OBJECT; the parser stands on a FIELD_NAME or END_OBJECT. */
  private innerParseObject(context: ObjectContext): void {
    let token = this.parser.token;
    while (token !== 'END_OBJECT') {
      // The name's location is taken only when needed (dotted names, errors): not an object per field.
      if (token === 'FIELD_NAME') this.parseField(context, this.parser.text, undefined, 'next');
      token = this.parser.next();
    }
  }

  /**
   * A field name and its value, expanding dots into objects as ES's DotExpandingXContentParser does. Without
   * `location`, the name is the parser's current token (read before the parser moves on to the value).
   */
  private parseField(context: ObjectContext, name: string, location: TokenLocation | undefined, source: ValueSource): void {
    if (name.length === 0) throw mappingErrors.illegalArgument('field name cannot be an empty string');
    if (name.includes('.')) {
      const parts = name.split('.');
      let size = parts.length;
      while (size > 0 && parts[size - 1]!.length === 0) size--;
      if (size === 0) throw mappingErrors.illegalArgument('field name cannot contain only dots');
      const subpaths = parts.slice(0, size);
      for (const part of subpaths) {
        if (isBlank(part)) {
          if (part.length === 0) throw mappingErrors.illegalArgument(`field name cannot contain only whitespace: ['${name}']`);
          throw mappingErrors.illegalArgument(`field name starting or ending with a [.] makes object resolution ambiguous: [${name}]`);
        }
      }
      if (subpaths.length > 1) {
        this.parseObject(context, subpaths[0]!, { kind: 'expanded', rest: subpaths.slice(1), location: location ?? this.parser.location(), source });
        return;
      }
      name = subpaths[0]!;
    } else if (isBlank(name)) {
      throw mappingErrors.documentParsing(location ?? this.parser.location(), `Field name cannot contain only whitespace: [${joinPath(context.path, name)}]`);
    }
    if (source === 'next') this.parser.next();
    this.dispatch(context, name);
  }

  /** Dispatches on the parser's current token, the value of field `name`. */
  private dispatch(context: ObjectContext, name: string): void {
    switch (this.parser.token) {
      case 'START_OBJECT':
        this.parseObject(context, name, TOKEN);
        return;
      case 'START_ARRAY':
        this.parseArray(context, name);
        return;
      case 'VALUE_NULL':
        this.parseNullValue(context, name);
        return;
      default:
        this.parseValue(context, name);
    }
  }

  private getMapper(context: ObjectContext, name: string): MappingNode | 'metadata' | undefined {
    const mapper = ownValue(context.node?.properties, name);
    if (mapper !== undefined) return mapper;
    if (context.isRoot && (METADATA_FIELDS.has(name) || name === '_doc_count')) return 'metadata';
    return undefined;
  }

  private childContext(parent: ObjectContext, name: string, node: ObjectMapping): ObjectContext {
    const path = joinPath(parent.path, name);
    return {
      path,
      displayName: path,
      node,
      dynamic: node.dynamic ?? parent.dynamic,
      enabled: node.enabled ?? true,
      isRoot: false,
    };
  }

  private refLocation(ref: ValueRef): TokenLocation {
    return ref.kind === 'expanded' ? ref.location : this.parser.location();
  }

  /** Skips a value: the current container, or the whole value behind a dotted name. */
  private skip(ref: ValueRef): void {
    if (ref.kind === 'expanded' && ref.source === 'next') this.parser.next();
    this.parser.skipChildren();
  }

  /** An object value (real, or implied by a dotted name) for field `name`. */
  private parseObject(context: ObjectContext, name: string, ref: ValueRef): void {
    const mapper = this.getMapper(context, name);
    if (mapper === undefined) {
      this.parseObjectDynamic(context, name, ref);
      return;
    }
    this.parseObjectOrField(context, name, mapper, ref);
  }

  private parseObjectOrField(context: ObjectContext, name: string, mapper: MappingNode | 'metadata', ref: ValueRef): void {
    if (mapper === 'metadata') {
      this.parseMetadataField(name, ref);
      return;
    }
    if (mapper.kind === 'object') {
      this.parseObjectContent(this.childContext(context, name, mapper), ref);
      return;
    }
    this.parseLeaf(mapper, joinPath(context.path, name), ref);
  }

  /** The body of an object whose START_OBJECT (real or implied) is current. */
  private parseObjectContent(context: ObjectContext, ref: ValueRef): void {
    if (!context.enabled) {
      this.skip(ref);
      return;
    }
    if (ref.kind === 'expanded') {
      const [next, ...rest] = ref.rest;
      if (rest.length > 0) this.parseObject(context, next!, { ...ref, rest });
      else {
        if (ref.source === 'next') this.parser.next();
        this.dispatch(context, next!);
      }
      return;
    }
    this.parser.next();
    this.innerParseObject(context);
  }

  private parseObjectDynamic(context: ObjectContext, name: string, ref: ValueRef): void {
    const location = this.refLocation(ref);
    this.ensureNotStrict(context, name, location);
    if (context.dynamic === 'false') {
      this.skip(ref);
      return;
    }
    const path = joinPath(context.path, name);
    const template = findTemplate(this.root.dynamicTemplates, path, name, 'object');
    const node: MappingNode =
      template === undefined ? { kind: 'object', properties: {} } : this.fromTemplate(template, name, path, 'object', undefined);
    if (!this.addDynamicMapper(path, node)) {
      this.skip(ref);
      return;
    }
    this.parseObjectOrField(context, name, node, ref);
  }

  private parseArray(context: ObjectContext, name: string): void {
    const mapper = this.getMapper(context, name);
    if (mapper === undefined) {
      this.ensureNotStrict(context, name, this.parser.location());
      if (context.dynamic === 'false') {
        this.parser.skipChildren();
        return;
      }
      if (this.settings.ignoreDynamicBeyondLimit && this.existingFieldCount + 1 > this.settings.totalFieldsLimit) {
        this.ignored.add(name);
        this.parser.skipChildren();
        return;
      }
    }
    for (let token = this.parser.next(); token !== 'END_ARRAY'; token = this.parser.next()) {
      if (token === 'START_OBJECT') this.parseObject(context, name, TOKEN);
      else if (token === 'START_ARRAY') this.parseArray(context, name);
      else if (token === 'VALUE_NULL') this.parseNullValue(context, name);
      else this.parseValue(context, name);
    }
  }

  private parseNullValue(context: ObjectContext, name: string): void {
    const mapper = this.getMapper(context, name);
    if (mapper === undefined) {
      this.ensureNotStrict(context, name, this.parser.location());
      return;
    }
    if (mapper !== 'metadata' && mapper.kind === 'object') return;
    this.parseObjectOrField(context, name, mapper, TOKEN);
  }

  private parseValue(context: ObjectContext, name: string): void {
    const mapper = this.getMapper(context, name);
    if (mapper === undefined) {
      this.parseDynamicValue(context, name);
      return;
    }
    this.parseValueWith(context, name, mapper);
  }

  private parseValueWith(context: ObjectContext, name: string, mapper: MappingNode | 'metadata'): void {
    if (mapper !== 'metadata' && mapper.kind === 'object') {
      if (mapper.enabled === false) return;
      throw mappingErrors.documentParsing(
        this.parser.location(),
        `object mapping for [${joinPath(context.path, name)}] tried to parse field [${name}] as object, but found a concrete value`,
      );
    }
    this.parseObjectOrField(context, name, mapper, TOKEN);
  }

  // ---- dynamic mapping ----

  private parseDynamicValue(context: ObjectContext, name: string): void {
    this.ensureNotStrict(context, name, this.parser.location());
    if (context.dynamic === 'false') return;
    const path = joinPath(context.path, name);
    const node = this.dynamicFieldFor(path, name);
    if (!this.addDynamicMapper(path, node)) return;
    this.parseValueWith(context, name, node);
  }

  /** DynamicFieldsBuilder.createDynamicFieldFromValue: the mapping a new value gets. */
  private dynamicFieldFor(path: string, name: string): MappingNode {
    const parser = this.parser;
    let type: TemplateFieldType;
    let dateFormat: string | undefined;
    if (parser.token === 'VALUE_STRING') {
      const text = parser.text;
      const asLong = tryParseJavaLong(text) !== undefined;
      const asDouble = tryParseJavaDouble(text) !== undefined;
      const numericDetection = this.root.numericDetection ?? false;
      if (asLong && numericDetection) type = 'long';
      else if (asDouble && numericDetection) type = 'double';
      else {
        type = 'string';
        if (!asLong && !asDouble && (this.root.dateDetection ?? true)) {
          const detected = this.dateFormatters.find((formatter) => formatter.detects(text));
          if (detected !== undefined) {
            type = 'date';
            dateFormat = detected.pattern;
          }
        }
      }
    } else if (parser.token === 'VALUE_NUMBER') type = parser.isInteger ? 'long' : 'double';
    else type = 'boolean';
    // The mapping is a function of (path, type, date format): an array of 400,000 new values maps its field once,
    // not 400,000 times (and buildMappingUpdate then merges one node, not one per value).
    const key = `${type}\u0000${dateFormat ?? ''}\u0000${path}`;
    const known = this.dynamicFieldMemo.get(key);
    if (known !== undefined) return known;
    const template = findTemplate(this.root.dynamicTemplates, path, name, type);
    const node = template !== undefined ? this.fromTemplate(template, name, path, type, dateFormat) : defaultDynamicField(type, dateFormat);
    this.dynamicFieldMemo.set(key, node);
    return node;
  }

  private fromTemplate(
    template: NonNullable<ReturnType<typeof findTemplate>>,
    name: string,
    path: string,
    type: TemplateFieldType,
    dateFormat: string | undefined,
  ): MappingNode {
    const dynamicType = defaultMappingType(type);
    const mappingType = templateMappingType(template, dynamicType);
    if (mappingType !== 'object' && !(LEAF_FIELD_TYPES as readonly string[]).includes(mappingType)) {
      throw mappingErrors.mapperParsing(`failed to find type parsed [${mappingType}] for [${name}]`);
    }
    const mapping = { ...templateMappingForName(template, name, dynamicType), type: mappingType };
    const ctx: ParserContext = dateFormat === undefined ? this.parserCtx : { ...this.parserCtx, dateFormat };
    return parseNode(name, name, mapping, ctx, path);
  }

  /**
   * DocumentParserContext.addDynamicMapper: the depth and total-fields limits are checked eagerly, before any
   * recursion into the new object. Returns false when the field is dropped (ignore_dynamic_beyond_limit).
   */
  private addDynamicMapper(path: string, node: MappingNode): boolean {
    if (node.kind === 'object' && objectDepth(path) > this.settings.depthLimit) {
      throw mappingErrors.depthExceeded(this.settings.depthLimit, path);
    }
    if (lookupPath(this.root, path) === undefined && !this.dynamicMappers.has(path)) {
      const additional = this.newFieldsSize + totalFieldsCount(node);
      if (this.existingFieldCount + additional > this.settings.totalFieldsLimit) {
        if (this.settings.ignoreDynamicBeyondLimit) {
          this.ignored.add(path);
          return false;
        }
        throw mappingErrors.totalFieldsExceeded(this.settings.totalFieldsLimit, additional);
      }
      this.newFieldsSize = additional;
    }
    const list = this.dynamicMappers.get(path);
    if (list === undefined) this.dynamicMappers.set(path, [node]);
    else if (!list.includes(node)) list.push(node);
    return true;
  }

  /** The new fields as one mapping; two incompatible dynamic fields at one path fail here, as in ES. */
  private buildMappingUpdate(): RootMapping | undefined {
    if (this.dynamicMappersMemo === undefined || this.dynamicMappersMemo.size === 0) return undefined;
    let update: ObjectMapping = { kind: 'object', properties: {} };
    const paths = [...this.dynamicMappers.keys()].sort();
    for (const path of paths) {
      for (const node of this.dynamicMappers.get(path)!) update = insertAtPath(update, path.split('.'), node, '', this.settings);
    }
    return update;
  }

  // ---- leaf fields ----

  private current(ref: ValueRef): CurrentValue {
    if (ref.kind === 'expanded') return { token: 'START_OBJECT', text: '', isInteger: false, location: ref.location, expanded: ref };
    const p = this.parser;
    return new TokenValue(p.token!, p.text, p.isInteger, p.line, p.column);
  }

  /** FieldMapper.parse: the field's own value, then its multi-fields (the same value), then copy_to. */
  private parseLeaf(field: FieldMapping, path: string, ref: ValueRef, value: CurrentValue = this.current(ref)): void {
    try {
      this.parseCreateField(field, path, value);
    } catch (err) {
      const cause = err instanceof ValueError ? err.cause : err;
      if (!(cause instanceof EsError)) throw err;
      const preview = this.preview(value);
      throw mappingErrors.fieldParse(this.previewLocation(value), path, field.type, this.docDescription, preview, cause);
    }
    // for-in rather than Object.entries: no array per leaf for the usual field without multi-fields.
    for (const name in field.fields) {
      const subfield = field.fields[name]!;
      this.parseLeaf(subfield, subfieldPath(subfield, path, name), ref, value);
    }
    if (!this.withinCopyTo && field.copyTo.length > 0) this.parseCopyTo(field, path, value);
  }

  private preview(value: CurrentValue): string {
    if (value.expanded === undefined) return readValuePreview(this.parser);
    if (value.expanded.source === 'next') this.parser.next();
    let text = readValuePreview(this.parser);
    for (const name of [...value.expanded.rest].reverse()) text = `{${name}=${text}}`;
    return text;
  }

  private previewLocation(value: CurrentValue): TokenLocation {
    return value.expanded === undefined ? this.parser.location() : value.expanded.location;
  }

  private parseMetadataField(name: string, ref: ValueRef): void {
    const value = this.current(ref);
    if (name === '_doc_count' && value.token === 'VALUE_NUMBER' && value.isInteger && BigInt(value.text) >= 1n && BigInt(value.text) <= 2147483647n) {
      this.docCount = Number(value.text);
      return;
    }
    const cause =
      name === '_doc_count'
        ? mappingErrors.illegalArgument(`Field [_doc_count] must be a positive integer. Value [${value.text}] is not allowed.`)
        : mappingErrors.documentParsing(
            value.location,
            `Field [${name}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`,
          );
    const preview = this.preview(value);
    throw mappingErrors.fieldParse(this.previewLocation(value), name, name, this.docDescription, preview, cause);
  }

  /** A copy of the value into each copy_to target, parsed from the root as `{"target": value}` (no further copies). */
  private parseCopyTo(field: FieldMapping, path: string, value: CurrentValue): void {
    if (value.token === 'START_OBJECT' || value.token === 'START_ARRAY') {
      throw mappingErrors.documentParsing(
        value.location,
        `Cannot copy field [${path}] to fields [${field.copyTo.join(', ')}]. Copy-to currently only works for value-type fields, not objects.`,
      );
    }
    const rootContext: ObjectContext = {
      path: '',
      displayName: ROOT_NAME,
      node: this.root,
      dynamic: this.root.dynamic ?? 'true',
      enabled: true,
      isRoot: true,
    };
    this.withinCopyTo = true;
    try {
      for (const target of field.copyTo) this.parseField(rootContext, target, value.location, 'current');
    } finally {
      this.withinCopyTo = false;
    }
  }

  /** ES's parseCreateField per type; failures are ValueErrors (ignorable or not) or EsErrors. */
  private parseCreateField(field: FieldMapping, path: string, value: CurrentValue): void {
    const options = fieldOptions(field, this.settings);
    switch (options.type) {
      case 'text': {
        const text = textOrNull(value);
        if (text === null || (!options.index && !options.store)) return;
        this.fields.push({
          kind: 'text',
          field: path,
          value: text,
          indexed: options.index,
          stored: options.store,
          analyzer: options.analyzer,
          positionIncrementGap: options.positionIncrementGap,
          indexOptions: options.indexOptions,
          norms: options.norms,
        });
        return;
      }
      case 'keyword': {
        const text = textOrNull(value) ?? options.nullValue;
        if (text === null || (!options.index && !options.store && !options.docValues)) return;
        if (text.length > options.ignoreAbove) {
          this.ignored.add(path);
          return;
        }
        // A UTF-16 unit takes at most 3 UTF-8 bytes: only a long value needs its bytes counted.
        if (text.length * 3 > MAX_TERM_LENGTH && Buffer.byteLength(text, 'utf8') > MAX_TERM_LENGTH) throw new ValueError(immenseTerm(path, text), false);
        this.fields.push({
          kind: 'keyword',
          field: path,
          value: text,
          indexed: options.index,
          docValues: options.docValues,
          stored: options.store,
          normalizer: options.normalizer,
          norms: options.norms,
          indexOptions: options.indexOptions,
        });
        return;
      }
      case 'boolean': {
        if (!options.index && !options.store && !options.docValues) return;
        let result: boolean | null;
        if (value.token === 'VALUE_NULL') result = options.nullValue;
        else {
          try {
            result = booleanValue(value);
          } catch (err) {
            if (err instanceof ValueError && err.ignorable && options.ignoreMalformed && isValueToken(value.token)) {
              this.ignored.add(path);
              return;
            }
            throw err;
          }
        }
        if (result === null) return;
        this.fields.push({ kind: 'boolean', field: path, value: result, indexed: options.index, docValues: options.docValues, stored: options.store });
        return;
      }
      case 'date': {
        const text = textOrNull(value);
        let millis: number | undefined;
        if (text === null) millis = options.nullValueMillis;
        else {
          try {
            millis = parseDate(options.formatter, text);
          } catch (err) {
            if (err instanceof ValueError && options.ignoreMalformed) {
              this.ignored.add(path);
              return;
            }
            throw err;
          }
        }
        if (millis === undefined) return;
        this.fields.push({ kind: 'date', field: path, epochMillis: millis, indexed: options.index, docValues: options.docValues, stored: options.store });
        return;
      }
      case 'date_nanos': {
        const text = textOrNull(value);
        let nanos: bigint | undefined;
        if (text === null) nanos = options.nullValueNanos;
        else {
          try {
            nanos = parseDateNanos(options.formatter, text);
          } catch (err) {
            if (err instanceof ValueError && options.ignoreMalformed) {
              this.ignored.add(path);
              return;
            }
            throw err;
          }
        }
        if (nanos === undefined) return;
        this.fields.push({ kind: 'date_nanos', field: path, epochNanos: nanos, indexed: options.index, docValues: options.docValues, stored: options.store });
        return;
      }
      case 'ip': {
        const text = textOrNull(value);
        let address: Uint8Array | null;
        if (text === null) address = options.nullValue;
        else {
          try {
            address = parseIp(text);
          } catch (err) {
            if (!(err instanceof IpFormatError)) throw err;
            if (options.ignoreMalformed) {
              this.ignored.add(path);
              return;
            }
            throw new ValueError(mappingErrors.illegalArgument(err.message), true);
          }
        }
        if (address === null) return;
        this.fields.push({ kind: 'ip', field: path, value: address, indexed: options.index, docValues: options.docValues, stored: options.store });
        return;
      }
      case 'binary': {
        // BinaryFieldMapper reads nothing (not even to check it) when the bytes go nowhere.
        if (!options.store && !options.docValues) return;
        if (value.token === 'VALUE_NULL') return;
        const bytes = binaryValue(value);
        this.fields.push({ kind: 'binary', field: path, value: bytes, indexed: false, docValues: options.docValues, stored: options.store });
        return;
      }
      default: {
        let number;
        try {
          number = readNumber(options.type, value, options.coerce);
        } catch (err) {
          if (err instanceof ValueError && err.ignorable && options.ignoreMalformed && isValueToken(value.token)) {
            this.ignored.add(path);
            return;
          }
          throw err;
        }
        number ??= options.nullValue;
        if (number === undefined) return;
        if (number.kind === 'long') {
          // Spelled out (no spread of a shared flags object): one object per value.
          this.fields.push({
            kind: 'long',
            numericType: options.type as 'long' | 'integer' | 'short' | 'byte',
            value: number.value,
            field: path,
            indexed: options.index,
            docValues: options.docValues,
            stored: options.store,
          });
          return;
        }
        const flags = { field: path, indexed: options.index, docValues: options.docValues, stored: options.store };
        if (options.type === 'scaled_float') {
          const scaled = number.value * options.scalingFactor!;
          if (!Number.isFinite(number.value)) {
            if (options.ignoreMalformed) {
              this.ignored.add(path);
              return;
            }
            throw new ValueError(mappingErrors.illegalArgument(`[scaled_float] only supports finite values, but got [${javaDoubleString(number.value)}]`), true);
          }
          // Java's Math.round: floor(x + 0.5).
          const scaledValue = BigInt(Math.floor(scaled + 0.5));
          this.fields.push({ kind: 'double', numericType: 'scaled_float', value: Number(scaledValue) / options.scalingFactor!, scaledValue, ...flags });
        } else {
          this.fields.push({ kind: 'double', numericType: options.type as 'double' | 'float' | 'half_float', value: number.value, ...flags });
        }
      }
    }
  }
}

function defaultDynamicField(type: TemplateFieldType, dateFormat: string | undefined): FieldMapping {
  switch (type) {
    case 'string':
      return {
        kind: 'field',
        type: 'text',
        params: {},
        fields: { keyword: { kind: 'field', type: 'keyword', params: { ignore_above: 256 }, fields: {}, copyTo: [] } },
        copyTo: [],
      };
    case 'long':
      return { kind: 'field', type: 'long', params: {}, fields: {}, copyTo: [] };
    case 'double':
      return { kind: 'field', type: 'float', params: {}, fields: {}, copyTo: [] };
    case 'boolean':
      return { kind: 'field', type: 'boolean', params: {}, fields: {}, copyTo: [] };
    default: {
      const params: Record<string, string> = dateFormat !== undefined && dateFormat !== DEFAULT_DATE_FORMAT ? { format: dateFormat } : {};
      return { kind: 'field', type: 'date', params, fields: {}, copyTo: [] };
    }
  }
}

function insertAtPath(object: ObjectMapping, parts: readonly string[], node: MappingNode, prefix: string, settings: MappingSettings): ObjectMapping {
  const [head, ...rest] = parts;
  const path = joinPath(prefix, head!);
  const existing = ownValue(object.properties, head!);
  let replacement: MappingNode;
  if (rest.length === 0) replacement = existing === undefined ? node : mergeObjectNodes(existing, node, path, settings);
  else {
    if (existing !== undefined && existing.kind !== 'object') throw mappingErrors.objectConflict(path);
    replacement = insertAtPath(existing ?? { kind: 'object', properties: {} }, rest, node, path, settings);
  }
  return { ...object, properties: { ...object.properties, [head!]: replacement } };
}

/** XContentParser.textOrNull on the current value. */
function textOrNull(value: CurrentValue): string | null {
  if (value.token === 'VALUE_NULL') return null;
  if (isValueToken(value.token)) return value.text;
  throw new ValueError(
    new EsError('illegal_state_exception', `Can't get text on a ${value.token} at ${value.location.line}:${value.location.column}`),
    false,
  );
}

/** XContentParser.booleanValue: strings "true"/"false" (and "" as false), JSON booleans. */
function booleanValue(value: CurrentValue): boolean {
  if (value.token === 'VALUE_BOOLEAN') return value.text === 'true';
  if (value.token === 'VALUE_STRING') {
    if (value.text.length === 0 || value.text === 'false') return false;
    if (value.text === 'true') return true;
    throw new ValueError(mappingErrors.illegalArgument(`Failed to parse value [${value.text}] as only [true] or [false] are allowed.`), true);
  }
  const tokenName = value.token === 'VALUE_NUMBER' ? (value.isInteger ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT') : value.token;
  const cause = new EsError(
    'x_content_parse_exception',
    `[${value.location.line}:${value.location.column}] Current token (${tokenName}) not of boolean type`,
  );
  throw new ValueError(cause, isValueToken(value.token));
}

/** DateFieldType.parse: ES's wrapping of java.time failures. */
function parseDate(formatter: DateFormatter, text: string): number {
  if (text.length === 0) throw new ValueError(mappingErrors.illegalArgument('cannot parse empty datetime'), true);
  try {
    return formatter.parseMillis(text);
  } catch (err) {
    if (err instanceof DateParseError) {
      throw new ValueError(mappingErrors.illegalArgument(err.message, new EsError('date_time_parse_exception', err.parseReason)), true);
    }
    if (err instanceof DateTimeError) throw new ValueError(new EsError('date_time_exception', err.message), true);
    throw err;
  }
}

/** DateFieldType.parse at nanosecond resolution: the date's errors, then DateUtils.toLong's range check. */
function parseDateNanos(formatter: DateFormatter, text: string): bigint {
  if (text.length === 0) throw new ValueError(mappingErrors.illegalArgument('cannot parse empty datetime'), true);
  try {
    return checkNanosRange(formatter.parseNanos(text));
  } catch (err) {
    if (err instanceof DateParseError) {
      throw new ValueError(mappingErrors.illegalArgument(err.message, new EsError('date_time_parse_exception', err.parseReason)), true);
    }
    if (err instanceof DateTimeError) throw new ValueError(new EsError('date_time_exception', err.message), true);
    if (err instanceof DateNanosRangeError) throw new ValueError(mappingErrors.illegalArgument(err.message), true);
    throw err;
  }
}

/** XContentParser.binaryValue on a JSON value: base64 text decoded as Jackson does, any other token refused. */
function binaryValue(value: CurrentValue): Uint8Array {
  const where = `[${value.location.line}:${value.location.column}]`;
  if (value.token !== 'VALUE_STRING') {
    const tokenName =
      value.token === 'VALUE_NUMBER' ? (value.isInteger ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT') : value.token === 'VALUE_BOOLEAN' ? (value.text === 'true' ? 'VALUE_TRUE' : 'VALUE_FALSE') : value.token;
    throw new ValueError(new EsError('x_content_parse_exception', `${where} Current token (${tokenName}) not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access as binary`), false);
  }
  try {
    return decodeBase64Value(value.text);
  } catch (err) {
    if (err instanceof Base64DecodeError) throw new ValueError(new EsError('x_content_parse_exception', `${where} ${err.message}`), false);
    throw err;
  }
}

function immenseTerm(path: string, value: string): EsError {
  const prefix = [...Buffer.from(value, 'utf8').subarray(0, 30)].map((b) => (b > 127 ? b - 256 : b));
  return mappingErrors.illegalArgument(
    `Document contains at least one immense term in field="${path}" (whose UTF8 encoding is longer than the max length ${MAX_TERM_LENGTH}), ` +
      `all of which were skipped. Please correct the analyzer to not produce such terms. The prefix of the first immense term is: '[${prefix.join(', ')}]...'`,
  );
}
