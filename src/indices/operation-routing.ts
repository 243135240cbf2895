/**
 * Which shard a document lives on, exactly as ES 8 computes it (IndexRouting.Unpartitioned/Partitioned):
 * `floorMod(murmur3(routing ?? id), routingNumShards) / routingFactor`, where routingNumShards defaults to the
 * largest `numberOfShards * 2^k <= 1024` (at least one split) that MetadataCreateIndexService picks for indices
 * created since 7.0. Same ids and settings give the same shard numbers as on ES.
 */
import { errors } from '../common/errors.js';
import { murmur3Routing } from './murmur3.js';

/** MetadataCreateIndexService.calculateNumRoutingShards for indices created on or after 7.0. */
export function defaultRoutingNumShards(numberOfShards: number): number {
  const log2MaxNumShards = 10;
  const log2NumShards = 32 - Math.clz32(numberOfShards - 1);
  const numSplits = Math.max(1, log2MaxNumShards - log2NumShards);
  return numberOfShards * 2 ** numSplits;
}

export interface RoutingTableShape {
  readonly numberOfShards: number;
  readonly routingNumShards: number;
  /** index.routing_partition_size; 1 means unpartitioned. */
  readonly routingPartitionSize: number;
}

function floorMod(value: number, modulus: number): number {
  return ((value % modulus) + modulus) % modulus;
}

function hashToShard(hash: number, shape: RoutingTableShape): number {
  const routingFactor = shape.routingNumShards / shape.numberOfShards;
  return Math.floor(floorMod(hash, shape.routingNumShards) / routingFactor);
}

/**
 * The shard of `(id, routing)`. A partitioned index needs a routing value (ES's error otherwise); the id then
 * picks the partition offset.
 */
export function shardIdFor(shape: RoutingTableShape, id: string, routing: string | undefined): number {
  if (shape.routingPartitionSize > 1) {
    if (routing === undefined) throw errors.illegalArgument('A routing value is required for gets from a partitioned index');
    const offset = floorMod(murmur3Routing(id), shape.routingPartitionSize);
    return hashToShard((murmur3Routing(routing) + offset) | 0, shape);
  }
  // One shard: floorMod(hash, routingNumShards) / routingNumShards is always below 1, so no hash is needed.
  if (shape.numberOfShards === 1) return 0;
  return hashToShard(murmur3Routing(routing ?? id), shape);
}
