/**
 * XContentBuilder's paired fields: with `human=true` the readable form comes right before the raw one
 * (`heap_max: "1.9gb"`, then `heap_max_in_bytes`), exactly where ES writes it.
 */
import { byteSizeString } from '../../common/es-units.js';
import { formatTimeValueMillis } from '../../common/time-value.js';

export type JsonObject = Record<string, unknown>;

/** humanReadableField(raw, readable, ByteSizeValue). */
export function putBytes(out: JsonObject, readable: string, bytes: number, human: boolean): void {
  if (human) out[readable] = byteSizeString(bytes);
  out[`${readable}_in_bytes`] = bytes;
}

/** humanReadableField(raw, readable, TimeValue) for a duration in milliseconds. */
export function putMillis(out: JsonObject, readable: string, millis: number, human: boolean): void {
  if (human) out[readable] = formatTimeValueMillis(millis);
  out[`${readable}_in_millis`] = millis;
}

/** timeField(raw, readable, epochMillis): the readable form is the ISO date. */
export function putTimestamp(out: JsonObject, rawName: string, readable: string, epochMillis: number, human: boolean): void {
  if (human) out[readable] = new Date(epochMillis).toISOString();
  out[rawName] = epochMillis;
}
