/**
 * ip_prefix on one shard (ES's IpPrefixAggregator): each address of an ip field is masked to its network (the
 * first `prefix_length` bits) and the document counts in that network's bucket, once per network even when
 * several of its addresses share it. IPv4 networks (`is_ipv6: false`) mask the last 4 of the 16 stored bytes, as
 * ES does, so an IPv6 address lands in the network of its low 32 bits there. Buckets are keyed by the network's
 * bytes in hex (4 or 16 bytes) and returned sorted by them, ready for the coordinating node's merge.
 */
import { BucketsAggregator, type AggregatorEnv, type LeafCollector } from '../aggregator.js';
import { aggErrors } from '../agg-errors.js';
import type { ScoreSource } from '../context.js';
import type { InternalAggregation, InternalIpPrefix, IpPrefixBucket } from '../internal.js';
import type { IpPrefixSpec } from '../spec.js';
import { KeyedBucketOrds } from '../support/arrays.js';
import type { ValuesSourceConfig } from '../support/values-source-config.js';
import { MISSING_ORD, type AggregationSegment } from '../support/values.js';

const IPV4_MAX_PREFIX_LENGTH = 32;
const IPV6_MAX_PREFIX_LENGTH = 128;

/** IpPrefixAggregationBuilder.extractNetmask: `prefixLength` one bits over 4 (IPv4) or 16 (IPv6) bytes. */
export function ipNetmask(prefixLength: number, isIpv6: boolean): Uint8Array {
  const mask = new Uint8Array(isIpv6 ? 16 : 4);
  for (let bit = 0; bit < prefixLength; bit++) mask[bit >> 3]! |= 0x80 >> (bit & 7);
  return mask;
}

export class IpPrefixAggregator extends BucketsAggregator {
  private readonly netmask: Uint8Array;
  /** Network keys (hex) by id; bucket ordinals are keyed by (owner, id). */
  private readonly networks: string[] = [];
  private readonly networkIds = new Map<string, number>();
  private readonly bucketOrds = new KeyedBucketOrds();

  constructor(
    override readonly spec: IpPrefixSpec,
    env: AggregatorEnv,
    private readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
    // IpPrefixAggregationBuilder.innerBuild: the length must fit the address family.
    const max = spec.isIpv6 ? IPV6_MAX_PREFIX_LENGTH : IPV4_MAX_PREFIX_LENGTH;
    if (spec.prefixLength < 0 || spec.prefixLength > max) throw aggErrors.outOfRange('prefix_length', 0, max, spec.prefixLength);
    this.netmask = ipNetmask(spec.prefixLength, spec.isIpv6);
  }

  /** The id of the network an address (16 bytes) belongs to. */
  private networkId(address: Uint8Array): number {
    const mask = this.netmask;
    const offset = address.length - mask.length;
    const network = new Uint8Array(mask.length);
    for (let i = 0; i < mask.length; i++) network[i] = address[i + offset]! & mask[i]!;
    const key = Buffer.from(network).toString('hex');
    let id = this.networkIds.get(key);
    if (id === undefined) {
      id = this.networks.length;
      this.networks.push(key);
      this.networkIds.set(key, id);
    }
    return id;
  }

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    if (this.config.kind === null) return { collect() {} };
    const ords = this.config.ords(segment);
    const subs = this.subLeafCollectors(segment, scores);
    // Segment ordinal -> network id, found once per term (the last slot is the `missing` address).
    const ids = new Int32Array(ords.valueCount + 1).fill(-1);
    return {
      collect: (doc, owner) => {
        const count = ords.read(doc);
        let previous = -1;
        for (let i = 0; i < count; i++) {
          const ord = ords.at(i);
          const slot = ord === MISSING_ORD ? ords.valueCount : ord;
          let id = ids[slot]!;
          if (id === -1) {
            id = this.networkId(ords.lookupBytes(ord));
            ids[slot] = id;
          }
          // Addresses come sorted, so the addresses of one network are neighbours (ES compares with the previous one).
          if (id === previous) continue;
          previous = id;
          this.collectBucket(subs, doc, this.bucketOrds.add(owner, id));
        }
      },
    };
  }

  private result(buckets: IpPrefixBucket[]): InternalIpPrefix {
    const spec = this.spec;
    return {
      name: spec.name,
      meta: spec.meta,
      type: 'ip_prefix',
      keyed: spec.keyed,
      minDocCount: spec.minDocCount,
      isIpv6: spec.isIpv6,
      prefixLength: spec.prefixLength,
      appendPrefixLength: spec.appendPrefixLength,
      buckets,
    };
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    return owningBucketOrds.map((owner) => {
      const keyOf = (ord: number): string => this.networks[this.bucketOrds.keyOf(ord)]!;
      const ords = this.bucketOrds.ordsOf(owner).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
      this.env.consumer.accept(ords.length);
      const subAggs = this.buildSubAggregations(ords);
      return this.result(ords.map((ord, i) => ({ key: keyOf(ord), docCount: this.docCount(ord), aggs: subAggs[i]! })));
    });
  }

  buildEmptyAggregation(): InternalAggregation {
    return this.result([]);
  }
}
