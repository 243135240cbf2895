/**
 * A shard bulk request and its outcomes as they cross the transport to and from the primary's node. msgpack
 * carries plain values only, and two kinds of value here are more than that: an update's trees (`doc`,
 * `upsert`, the script's `params`) keep number literals as RawJson (update-request.ts), and the `get` block of
 * an update's answer holds its `_source` as RawJson; errors are EsErrors. Sent bare, a RawJson arrives as a
 * plain `{text: "5"}` object, so `ctx._source.n = params.n` on a primary reached through another node wrote an
 * object where the script meant a number. They travel tagged (wire-values.ts) and are rebuilt on arrival.
 */
import type { EsError } from '../../common/errors.js';
import { fromWireError, toWireError, type WireError } from '../../transport/index.js';
import { decodeTagged, encodeTagged } from '../search/wire-values.js';
import type { DocWriteFailure, DocWriteItem, DocWriteOutcome, DocWriteSuccess } from './doc-write.js';
import type { UpdateSpec } from './update-request.js';

type WireUpdateSpec = Omit<UpdateSpec, 'script'> & { readonly script: unknown };
export type WireDocWriteItem = Omit<DocWriteItem, 'update'> & { readonly update: WireUpdateSpec | undefined };
export type WireOutcome = DocWriteSuccess | (Omit<DocWriteFailure, 'error'> & { readonly error: WireError });

export function itemToWire(item: DocWriteItem): WireDocWriteItem {
  const update = item.update;
  if (update === undefined) return item as WireDocWriteItem;
  const script = update.script;
  return {
    ...item,
    update: {
      ...update,
      doc: encodeTagged(update.doc) as UpdateSpec['doc'],
      upsert: encodeTagged(update.upsert) as UpdateSpec['upsert'],
      // A stored script that was missing travels as its error (raised when the update runs, as in ES).
      script: script === undefined ? undefined : 'storedScriptError' in script ? { storedScriptError: toWireError(script.storedScriptError) } : encodeTagged(script),
    },
  };
}

export function itemFromWire(item: WireDocWriteItem): DocWriteItem {
  const update = item.update;
  if (update === undefined) return item as DocWriteItem;
  const script = update.script as Record<string, unknown> | undefined;
  return {
    ...item,
    update: {
      ...update,
      doc: decodeTagged(update.doc) as UpdateSpec['doc'],
      upsert: decodeTagged(update.upsert) as UpdateSpec['upsert'],
      script:
        script === undefined
          ? undefined
          : script['storedScriptError'] !== undefined
            ? { storedScriptError: fromWireError(script['storedScriptError'] as WireError) }
            : (decodeTagged(script) as UpdateSpec['script']),
    },
  };
}

export function outcomeToWire(outcome: DocWriteOutcome): WireOutcome {
  if (outcome.kind !== 'success') return { ...outcome, error: toWireError(outcome.error) };
  const failures = outcome.shards.failures;
  const withGet = outcome.get === undefined ? outcome : { ...outcome, get: encodeTagged(outcome.get) as Record<string, unknown> };
  if (failures === undefined || failures.length === 0) return withGet;
  // Replica failures carry errors: they cross the wire as wire errors like an item's own.
  return { ...withGet, shards: { ...outcome.shards, failures: failures.map((failure) => ({ ...failure, error: toWireError(failure.error) as unknown as EsError })) } };
}

export function outcomeFromWire(outcome: WireOutcome): DocWriteOutcome {
  if (outcome.kind !== 'success') return { ...outcome, error: fromWireError(outcome.error) };
  const failures = outcome.shards.failures;
  const withGet = outcome.get === undefined ? outcome : { ...outcome, get: decodeTagged(outcome.get) as Record<string, unknown> };
  if (failures === undefined || failures.length === 0) return withGet;
  return { ...withGet, shards: { ...outcome.shards, failures: failures.map((failure) => ({ ...failure, error: fromWireError(failure.error as unknown as WireError) })) } };
}
