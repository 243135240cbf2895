/**
 * The hashes ES's slice queries partition documents with, so a slice holds the same documents as on ES:
 * - `_id` (TermsSliceQuery): Lucene's murmurhash3_x86_32 with the fixed seed 7919 over the id as ES indexes
 *   it (Uid.encodeId: packed digits for numeric ids, the decoded bytes for URL-safe base64 ids, else a 0xff
 *   byte and the UTF-8 text). Gannet's `_id` terms are plain UTF-8, so each term is re-encoded first.
 * - numeric doc values (DocValuesSliceQuery): HPPC's BitMixer.mix(long), Stafford's variant 9 of the
 *   murmur3 64-bit finalizer, truncated to an int.
 * A document belongs to slice `floorMod(hash, max)`.
 */
import { murmur3 } from '../../../engine/segments/id-filter.js';

/** TermsSliceQuery.SEED: fixed, so every copy of a shard slices alike. */
export const TERMS_SLICE_SEED = 7919;

const UID_UTF8 = 0xff;
const UID_NUMERIC = 0xfe;
const UID_BASE64_ESCAPE = 0xfd;

function isPositiveNumeric(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Uid.isURLBase64WithoutPadding: unpadded URL-safe base64 whose unused trailing bits are zero. */
function isUrlBase64WithoutPadding(id: string): boolean {
  const rest = id.length & 3;
  if (rest === 1) return false;
  const last = id[id.length - 1]!;
  if (rest === 2 && !'AQgw'.includes(last)) return false;
  if (rest === 3 && !'AEIMQUYcgkosw048'.includes(last)) return false;
  return /^[A-Za-z0-9_-]*$/.test(id);
}

/** Uid.encodeId: the bytes ES indexes an `_id` as. */
export function encodeUid(id: string): Uint8Array {
  if (id.length === 0) throw new RangeError('ids cannot be empty');
  if (isPositiveNumeric(id)) {
    const bytes = new Uint8Array(1 + ((id.length + 1) >> 1));
    bytes[0] = UID_NUMERIC;
    for (let i = 0; i < id.length; i += 2) {
      const high = id.charCodeAt(i) - 0x30;
      const low = i + 1 === id.length ? 0x0f : id.charCodeAt(i + 1) - 0x30;
      bytes[1 + (i >> 1)] = (high << 4) | low;
    }
    return bytes;
  }
  if (isUrlBase64WithoutPadding(id)) {
    const decoded = Buffer.from(id, 'base64url');
    if (decoded[0]! < UID_BASE64_ESCAPE) return decoded;
    const escaped = new Uint8Array(decoded.length + 1);
    escaped[0] = UID_BASE64_ESCAPE;
    escaped.set(decoded, 1);
    return escaped;
  }
  const utf8 = Buffer.from(id, 'utf8');
  const bytes = new Uint8Array(utf8.length + 1);
  bytes[0] = UID_UTF8;
  bytes.set(utf8, 1);
  return bytes;
}

/** The signed hash TermsSliceQuery computes for an `_id`. */
export function idSliceHash(id: string): number {
  return murmur3(encodeUid(id), TERMS_SLICE_SEED) | 0;
}

const MASK_64 = (1n << 64n) - 1n;
const MIX_C1 = 0x4cd6944c5cc20b6dn;
const MIX_C2 = 0xfc12c5b19d3259e9n;

/** BitMixer.mix(long): (int) mix64(value). */
export function mixLong(value: bigint): number {
  let z = BigInt.asUintN(64, value);
  z = ((z ^ (z >> 32n)) * MIX_C1) & MASK_64;
  z = ((z ^ (z >> 29n)) * MIX_C2) & MASK_64;
  z ^= z >> 32n;
  return Number(BigInt.asIntN(32, z));
}

/** NumericUtils.doubleToSortableLong: the long a double field's doc values hold in Lucene. */
export function doubleToSortableLong(value: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigInt64(0);
  return bits ^ ((bits >> 63n) & 0x7fffffffffffffffn);
}

/** Math.floorMod for an int hash: the slice a hash falls in. */
export function sliceOf(hash: number, max: number): number {
  return ((hash % max) + max) % max;
}
