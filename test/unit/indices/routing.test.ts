/**
 * Document routing as ES computes it: Murmur3HashFunction's known values (Murmur3HashFunctionTests), shard
 * numbers from IndexRoutingTests (testBWC, testPartitionedIndexBWC, testSimpleRoutingPreAndPostModRoutingChange),
 * and MetadataCreateIndexService's default number_of_routing_shards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { defaultRoutingNumShards, murmur3Routing, murmurhash3X86_32, shardIdFor } from '../../../src/indices/index.js';

test('Murmur3HashFunction known values', () => {
  const known: Array<[number, string]> = [
    [0x5a0cb7c3, 'hell'],
    [0xd7c31989, 'hello'],
    [0x22ab2984, 'hello w'],
    [0xdf0ca123, 'hello wo'],
    [0xe7744d61, 'hello wor'],
    [0xe07db09c, 'The quick brown fox jumps over the lazy dog'],
    [0x4e63d2ad, 'The quick brown fox jumps over the lazy cog'],
  ];
  for (const [hash, text] of known) assert.equal(murmur3Routing(text), hash | 0, text);
});

test('the hash runs over UTF-16 code units, two little-endian bytes each (not UTF-8)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
      const bytes = new Uint8Array(text.length * 2);
      for (let i = 0; i < text.length; i++) {
        bytes[2 * i] = text.charCodeAt(i) & 0xff;
        bytes[2 * i + 1] = text.charCodeAt(i) >>> 8;
      }
      assert.equal(murmur3Routing(text), murmurhash3X86_32(bytes, 0, bytes.length, 0));
    }),
  );
  // A supplementary character is two code units (a surrogate pair), hashed as four bytes.
  assert.equal(murmur3Routing('😀'), murmurhash3X86_32(Uint8Array.from([0x3d, 0xd8, 0x00, 0xde]), 0, 4, 0));
  assert.notEqual(murmur3Routing('é'), murmurhash3X86_32(Buffer.from('é', 'utf8'), 0, 2, 0));
});

test('default number_of_routing_shards: the largest numberOfShards * 2^k <= 1024, at least one split', () => {
  assert.equal(defaultRoutingNumShards(1), 1024);
  assert.equal(defaultRoutingNumShards(2), 1024);
  assert.equal(defaultRoutingNumShards(3), 768);
  assert.equal(defaultRoutingNumShards(5), 640);
  assert.equal(defaultRoutingNumShards(8), 1024);
  assert.equal(defaultRoutingNumShards(30), 960);
  assert.equal(defaultRoutingNumShards(512), 1024);
  assert.equal(defaultRoutingNumShards(1000), 2000);
  assert.equal(defaultRoutingNumShards(1024), 2048);
});

test('IndexRoutingTests.testBWC: 8 routing shards', () => {
  const termToShard: Record<string, number> = {
    sEERfFzPSI: 1, cNRiIrjzYd: 7, BgfLBXUyWT: 5, cnepjZhQnb: 3, OKCmuYkeCK: 6, OutXGRQUja: 5, yCdyocKWou: 1, KXuNWWNgVj: 2,
    DGJOYrpESx: 4, upLDybdTGs: 5, yhZhzCPQby: 1, EyCVeiCouA: 1, tFyVdQauWR: 6, nyeRYDnDQr: 6, hswhrppvDH: 0, BSiWvDOsNE: 5,
    YHicpFBSaY: 1, EquPtdKaBZ: 4, rSjLZHCDfT: 5, qoZALVcite: 7, yDCCPVBiCm: 7, ngizYtQgGK: 5, FYQRIBcNqz: 0, EBzEDAPODe: 2,
    YePigbXgKb: 1, PeGJjomyik: 3, cyQIvDmyYD: 7, yIEfZrYfRk: 5, kblouyFUbu: 7, xvIGbRiGJF: 3, KWimwsREPf: 4, wsNavvIcdk: 7,
    xkWaPcCmpT: 0, FKKTOnJMDy: 7, RuLzobYixn: 2, mFohLeFRvF: 4, aAMXnamRJg: 7, zKBMYJDmBI: 0, ElSVuJQQuw: 7, pezPtTQAAm: 7,
  };
  const shape = { numberOfShards: 8, routingNumShards: 8, routingPartitionSize: 1 };
  for (const [term, shard] of Object.entries(termToShard)) {
    assert.equal(shardIdFor(shape, term, undefined), shard, term);
    // The same value as a routing key picks the same shard whatever the id.
    assert.equal(shardIdFor(shape, 'any-id', term), shard, `routing ${term}`);
  }
});

test('IndexRoutingTests.testSimpleRoutingPreAndPostModRoutingChange: id "1" over 2 shards', () => {
  // ES 8's default routing shards (1024) put it on shard 0; with routing shards equal to the shards, on 1.
  assert.equal(shardIdFor({ numberOfShards: 2, routingNumShards: defaultRoutingNumShards(2), routingPartitionSize: 1 }, '1', undefined), 0);
  assert.equal(shardIdFor({ numberOfShards: 2, routingNumShards: 2, routingPartitionSize: 1 }, '1', undefined), 1);
});

test('OperationRoutingTests.testPartitionedIndexBWC and testPartitionedIndexShrunk (ES 8)', () => {
  const bwc: Record<string, Record<string, number>> = {
    a: { a_0: 3, a_1: 2, a_2: 2, a_3: 3 },
    b: { b_0: 5, b_1: 0, b_2: 0, b_3: 0 },
    c: { c_0: 4, c_1: 4, c_2: 3, c_3: 4 },
    d: { d_0: 3, d_1: 4, d_2: 4, d_3: 4 },
  };
  for (const [routing, ids] of Object.entries(bwc)) {
    for (const [id, shard] of Object.entries(ids)) {
      assert.equal(shardIdFor({ numberOfShards: 6, routingNumShards: 6, routingPartitionSize: 2 }, id, routing), shard, `${routing}/${id}`);
    }
  }
  // ES 8's OperationRoutingTests.testPartitionedIndexShrunk (ES 9 changed routing for new indices; 8.x is what
  // Gannet reports): 4 shards over 8 routing shards, partitions of 3.
  const shrunk: Record<string, Record<string, number>> = {
    a: { a_0: 1, a_1: 2, a_2: 2, a_3: 2, a_4: 1, a_5: 2 },
    b: { b_0: 0, b_1: 0, b_2: 0, b_3: 0, b_4: 3, b_5: 3 },
    c: { c_0: 1, c_1: 1, c_2: 0, c_3: 0, c_4: 0, c_5: 1 },
    d: { d_0: 2, d_1: 2, d_2: 3, d_3: 3, d_4: 3, d_5: 3 },
  };
  for (const [routing, ids] of Object.entries(shrunk)) {
    for (const [id, shard] of Object.entries(ids)) {
      assert.equal(shardIdFor({ numberOfShards: 4, routingNumShards: 8, routingPartitionSize: 3 }, id, routing), shard, `${routing}/${id}`);
    }
  }
  assert.throws(() => shardIdFor({ numberOfShards: 4, routingNumShards: 8, routingPartitionSize: 3 }, 'x', undefined), /A routing value is required/);
});

test('every id maps into [0, shards) and splitting keeps a document within its parent shard', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 64 }), (id, shards) => {
      const routingNumShards = defaultRoutingNumShards(shards);
      const shard = shardIdFor({ numberOfShards: shards, routingNumShards, routingPartitionSize: 1 }, id, undefined);
      assert.ok(shard >= 0 && shard < shards);
      // After a split to twice the shards (same routing shards), the document is in one of its shard's halves.
      if (routingNumShards >= shards * 2) {
        const split = shardIdFor({ numberOfShards: shards * 2, routingNumShards, routingPartitionSize: 1 }, id, undefined);
        assert.equal(Math.floor(split / 2), shard);
      }
    }),
  );
});
