/**
 * The order in which a java.util.HashMap<String, V> built with default capacity iterates its keys, given the
 * order they were put in. ES keeps per-index health in such a map, so `level=indices` lists indices in this
 * order; reproducing it keeps Gannet's output byte-comparable with ES's.
 *
 * HashMap: table of 16 buckets, doubled whenever size exceeds 0.75 * capacity; bucket = (h ^ h >>> 16) &
 * (capacity - 1) with h = String.hashCode(); iteration walks buckets in order and, within a bucket, keys in
 * insertion order (resizes keep that relative order). Not modelled: treeified buckets (8+ colliding keys in
 * a table of 64+), which real index names practically never produce.
 */
export function javaHashMapOrder(keysInInsertionOrder: readonly string[]): string[] {
  const unique = [...new Set(keysInInsertionOrder)];
  let capacity = 16;
  while (unique.length > capacity * 0.75) capacity *= 2;
  const buckets = unique.map((key, position) => ({ key, position, bucket: spread(javaStringHashCode(key)) & (capacity - 1) }));
  buckets.sort((a, b) => a.bucket - b.bucket || a.position - b.position);
  return buckets.map(({ key }) => key);
}

/** Java's String.hashCode(): s[0]*31^(n-1) + ... + s[n-1] over UTF-16 code units, in 32-bit arithmetic. */
export function javaStringHashCode(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

function spread(hash: number): number {
  return (hash ^ (hash >>> 16)) >>> 0;
}
