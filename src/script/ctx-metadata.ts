/**
 * ES 8's validation of the ctx metadata keys of a write script (Metadata.FieldProperty): which keys a script may
 * change or remove, and to what type. The tables follow UpdateMetadata, the upsert ctx, ReindexMetadata and
 * UpdateByQueryMetadata; a ctx without a table is a plain map. `op` in the update contexts is only type-checked:
 * ES reads any value it does not know as "noop". Besides its metadata a write ctx holds only `_source` (ES 8.5+'s
 * CtxMap without direct source access): `_source` may be replaced by another map, any other key is refused.
 */
import { runtimeMessages } from './messages.js';
import type { Fail } from './methods.js';
import { JavaNumber, isMap, javaClassName, javaToString, normalize } from './values.js';

const SOURCE_KEY = '_source';

export interface FieldRule {
  /** `string`: a String; `long`: an int or long (or a whole float/double); `any`: anything. */
  readonly type: 'string' | 'long' | 'any';
  readonly nullable: boolean;
  readonly writable: boolean;
  /** Values a writable string may take (ReindexMetadata's `op`). */
  readonly oneOf?: readonly string[];
}

export type CtxMetadata = Readonly<Record<string, FieldRule>>;

const readOnly = (type: FieldRule['type'], nullable = true): FieldRule => ({ type, nullable, writable: false });
const writable = (type: FieldRule['type'], nullable = true, oneOf?: readonly string[]): FieldRule => ({ type, nullable, writable: true, oneOf });

/** `_update` on an existing document (UpdateMetadata). */
export const UPDATE_METADATA: CtxMetadata = {
  _index: readOnly('string'),
  _id: readOnly('string'),
  _version: readOnly('long', false),
  _routing: readOnly('string'),
  _type: readOnly('string'),
  op: writable('string'),
  _now: readOnly('long', false),
};

/** `_update` with `scripted_upsert` on a missing document: ctx has `op` ("create") and `_now`. */
export const UPSERT_METADATA: CtxMetadata = {
  op: writable('string'),
  _now: readOnly('long', false),
};

/** Reindex (ReindexMetadata): the destination's index, id, version and routing may be changed. */
export const REINDEX_METADATA: CtxMetadata = {
  _index: writable('any', false),
  _id: writable('any'),
  _version: writable('long'),
  _routing: writable('string'),
  op: writable('string', false, ['delete', 'index', 'noop']),
  _now: readOnly('long', false),
};

/** update_by_query (UpdateByQueryMetadata): only `op` may change. */
export const UPDATE_BY_QUERY_METADATA: CtxMetadata = {
  _index: readOnly('string'),
  _id: readOnly('string'),
  _version: readOnly('long'),
  _routing: readOnly('string'),
  op: writable('string', false, ['delete', 'index', 'noop']),
  _now: readOnly('long', false),
};

const JAVA_TYPE = { string: 'java.lang.String', long: 'java.lang.Number', any: 'java.lang.Object' } as const;

/** FieldProperty.check for an UPDATE (`ctx.key = value`, `ctx.put`) of a metadata key. */
export function checkMetadataUpdate(rule: FieldRule, key: string, value: unknown, fail: Fail): void {
  if (!rule.writable) fail(runtimeMessages.metadata(`${key} cannot be updated`));
  const normalized = normalize(value);
  if (normalized === null) {
    if (!rule.nullable) fail(runtimeMessages.metadata(`${key} cannot be null`));
    return;
  }
  const typeOk = rule.type === 'any' || (rule.type === 'string' ? typeof normalized === 'string' : normalized instanceof JavaNumber);
  if (!typeOk) {
    fail(runtimeMessages.metadata(`${key} [${javaToString(normalized)}] is wrong type, expected assignable to [${JAVA_TYPE[rule.type]}], not [${javaClassName(normalized)}]`));
  }
  if (rule.type === 'long' && normalized instanceof JavaNumber && typeof normalized.value === 'number' && !Number.isInteger(normalized.value)) {
    fail(runtimeMessages.metadata(`${key} may only be set to an int or a long but was [${normalized.toString()}] with type [${javaClassName(normalized)}]`));
  }
  if (rule.oneOf !== undefined && !rule.oneOf.includes(normalized as string)) {
    fail(runtimeMessages.metadata(`[${key}] must be one of ${rule.oneOf.join(', ')}, not [${normalized as string}]`));
  }
}

/** FieldProperty.check for a REMOVE (`ctx.remove(key)`) of a metadata key. */
export function checkMetadataRemove(rule: FieldRule, key: string, fail: Fail): void {
  if (!rule.writable || !rule.nullable) fail(runtimeMessages.metadata(`${key} cannot be removed`));
}

/** CtxMap.put: a metadata key by its rule, `_source` only by a map, any other key refused. */
export function checkCtxPut(metadata: CtxMetadata, key: string | undefined, value: unknown, fail: Fail): void {
  if (key !== undefined && Object.hasOwn(metadata, key)) return checkMetadataUpdate(metadata[key]!, key, value, fail);
  const normalized = normalize(value);
  if (key === SOURCE_KEY) {
    if (isMap(normalized)) return;
    fail(runtimeMessages.metadata(`Expected [${SOURCE_KEY}] to be a Map, not [${javaToString(normalized)}]${normalized === null ? '' : ` with type [${javaClassName(normalized)}]`}`));
  }
  fail(runtimeMessages.metadata(`Cannot put key [${key ?? 'null'}] with value [${javaToString(normalized)}] into ctx`));
}

/** CtxMap.remove: a metadata key by its rule; anything else (`_source` included) is unsupported. */
export function checkCtxRemove(metadata: CtxMetadata, key: string | undefined, fail: Fail): void {
  if (key !== undefined && Object.hasOwn(metadata, key)) return checkMetadataRemove(metadata[key]!, key, fail);
  fail(runtimeMessages.ctxRemove(key ?? 'null'));
}
