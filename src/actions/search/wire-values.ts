/**
 * Values that msgpack alone would not carry across the transport as they were (a RawJson source, Maps of
 * aggregation state, BigInts, explanations): tagged on the sending node, rebuilt on the receiving one. Used for
 * shard-level search results, whose shapes come from search/ and hold such values, and for the update trees of a
 * shard bulk request (documents/shard-bulk-wire.ts).
 */
import { RawJson } from '../../common/raw-json.js';
import { Explanation } from '../../search/explanation.js';

export function encodeTagged(value: unknown): unknown {
  if (value instanceof RawJson) return { $raw: value.text };
  if (value instanceof Map) return { $map: [...value].map(([k, v]) => [k, encodeTagged(v)]) };
  if (typeof value === 'bigint') return { $big: value.toString() };
  if (value instanceof Explanation) return { $explanation: explanationToWire(value) };
  if (Array.isArray(value)) return value.map(encodeTagged);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) setOwn(out, key, encodeTagged(child));
    return out;
  }
  return value;
}

export function decodeTagged(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeTagged);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record['$raw'] === 'string') return new RawJson(record['$raw']);
    if (Array.isArray(record['$map'])) return new Map((record['$map'] as [unknown, unknown][]).map(([k, v]) => [k, decodeTagged(v)]));
    if (typeof record['$big'] === 'string') return BigInt(record['$big']);
    if (record['$explanation'] !== undefined) return explanationFromWire(record['$explanation'] as WireExplanation);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(record)) setOwn(out, key, decodeTagged(child));
    return out;
  }
  return value;
}

/** `out[key] = value`, except that a "__proto__" key (a legal document field) stays an own property. */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

interface WireExplanation {
  readonly isMatch: boolean;
  readonly value: number;
  readonly description: string;
  readonly kind: string;
  readonly details: WireExplanation[];
}

function explanationToWire(explanation: Explanation): WireExplanation {
  return { isMatch: explanation.isMatch, value: explanation.value, description: explanation.description, kind: explanation.kind, details: explanation.details.map(explanationToWire) };
}

function explanationFromWire(wire: WireExplanation): Explanation {
  const details = wire.details.map(explanationFromWire);
  if (!wire.isMatch) return Explanation.noMatch(wire.description, details);
  if (wire.kind === 'double') return Explanation.matchDouble(wire.value, wire.description, details);
  if (wire.kind === 'long') return Explanation.matchLong(wire.value, wire.description, details);
  return Explanation.match(wire.value, wire.description, details);
}
