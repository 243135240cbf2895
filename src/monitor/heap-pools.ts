/**
 * The V8 heap split the way ES splits the JVM heap into pools: `young` is V8's new space (where the
 * scavenger works), `old` every other space. `max` is the young space's current capacity, and for old
 * what the heap limit leaves beyond it.
 */
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

export interface HeapPool {
  usedBytes: number;
  maxBytes: number;
}

export interface HeapPools {
  young: HeapPool;
  old: HeapPool;
}

const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

export function heapPools(): HeapPools {
  let youngUsed = 0;
  let youngSize = 0;
  let oldUsed = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (YOUNG_SPACES.has(space.space_name)) {
      youngUsed += space.space_used_size;
      youngSize += space.space_size;
    } else {
      oldUsed += space.space_used_size;
    }
  }
  const limit = getHeapStatistics().heap_size_limit;
  return {
    young: { usedBytes: youngUsed, maxBytes: youngSize },
    old: { usedBytes: oldUsed, maxBytes: Math.max(0, limit - youngSize) },
  };
}
