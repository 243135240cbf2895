/**
 * IP addresses as ES reads and prints them (InetAddresses.forString / toAddrString, InetAddressPoint's 16-byte
 * encoding, parseCidr), with examples from ES's InetAddressesTests and property tests: any 16 bytes survive
 * format -> parse, and CIDR ranges match exactly the addresses sharing the prefix (a bit-by-bit reference).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  compareIp,
  formatIp,
  IpFormatError,
  nextIpDown,
  nextIpUp,
  parseCidr,
  parseIp,
  tryParseIp,
} from '../../../src/mapping/index.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

test('IPv4 and IPv4-mapped addresses encode to ::ffff:a.b.c.d and print dotted', () => {
  assert.equal(hex(parseIp('192.168.0.1')), '00000000000000000000ffffc0a80001');
  assert.equal(formatIp(parseIp('192.168.0.1')), '192.168.0.1');
  assert.equal(formatIp(parseIp('::ffff:1.2.3.4')), '1.2.3.4');
  assert.equal(formatIp(parseIp('::FFFF:102:304')), '1.2.3.4');
  assert.equal(formatIp(parseIp('0.0.0.0')), '0.0.0.0');
  assert.equal(formatIp(parseIp('255.255.255.255')), '255.255.255.255');
});

test('IPv6 prints in RFC 5952 form: the longest run of zero hextets (2 or more, leftmost on a tie) compressed', () => {
  const cases: Array<[string, string]> = [
    ['2001:0:0:4::8', '2001:0:0:4::8'],
    ['2001:0:0:4:5:6:7:8', '2001::4:5:6:7:8'],
    ['2001:0:3:4:5:6:7:8', '2001:0:3:4:5:6:7:8'],
    ['0:0:3::ffff', '0:0:3::ffff'],
    ['0:0:0:4::ffff', '::4:0:0:0:ffff'],
    ['0:0:0:0:5::ffff', '::5:0:0:ffff'],
    ['1::4:0:0:7:8', '1::4:0:0:7:8'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['2001:0658:022a:cafe::', '2001:658:22a:cafe::'],
    ['::1.2.3.4', '::102:304'],
    ['2001:DB8::1', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
  ];
  for (const [input, printed] of cases) assert.equal(formatIp(parseIp(input)), printed, input);
});

test('what forString refuses, with ES\'s message', () => {
  const bad = [
    '', '016.016.016.016', '016.016.016', '000.000.000.000', '0x0a.0x0a.0x0a.0x0a', '42.42.42.42.42', '42.42.42', '42..42.42',
    '42.42.42.42.', '.42.42.42.42', '42.42.42.-0', '42.42.42.+0', '.', '...', 'bogus', 'bogus.com', '192.168.0.1.com',
    '257.0.0.0', '3ffe::1.net', '3ffe::1::1', '1::2::3::4:5', '::7:6:5:4:3:2:', ':6:5:4:3:2:1::', '2001::db:::1', 'FEDC:9878',
    '+1.+2.+3.4', '1.2.3.4e0', '::7:6:5:4:3:2:1:0', '7:6:5:4:3:2:1:0::', ':6:5:4:3:2:1:0', '7:6:5:4:3:2:1:0:', '::::::0',
    '1:2:3:4:5:6:7:8:9', '12345::1', '::ffff:1.2.3.4:1', '::ffff:1.2.3', 'fe80::1%', 'é.1.1.1',
  ];
  for (const text of bad) {
    assert.equal(tryParseIp(text), null, `'${text}' parsed`);
    assert.throws(() => parseIp(text), (err: unknown) => err instanceof IpFormatError && err.message === `'${text}' is not an IP string literal.`);
  }
});

test('CIDR masks: bounds, IPv4 prefixes within 32 bits, and parseCidr\'s errors', () => {
  const v4 = parseCidr('192.168.0.0/16');
  assert.equal(formatIp(v4.lower), '192.168.0.0');
  assert.equal(formatIp(v4.upper), '192.168.255.255');
  const v6 = parseCidr('2001:db8::/32');
  assert.equal(formatIp(v6.lower), '2001:db8::');
  assert.equal(formatIp(v6.upper), '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff');
  const all4 = parseCidr('0.0.0.0/0');
  assert.equal(formatIp(all4.lower), '0.0.0.0');
  assert.equal(formatIp(all4.upper), '255.255.255.255');
  const message = (text: string): string => {
    try {
      parseCidr(text);
    } catch (err) {
      return (err as Error).message;
    }
    return 'parsed';
  };
  assert.equal(message('1.2.3.4'), 'Expected [ip/prefix] but was [1.2.3.4]');
  assert.equal(message('1.2.3.4/'), 'Expected [ip/prefix] but was [1.2.3.4/]');
  assert.equal(message('1.2.3.4/8/8'), 'Expected [ip/prefix] but was [1.2.3.4/8/8]');
  assert.equal(message('1.2.3.4/33'), 'Illegal prefix length [33] in [1.2.3.4/33]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges');
  assert.equal(message('::1/129'), 'Illegal prefix length [129] in [::1/129]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges');
  assert.equal(message('1.2.3.4/-1'), 'Illegal prefix length [-1] in [1.2.3.4/-1]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges');
  assert.equal(message('1.2.3.4/x'), 'For input string: "x"');
  assert.equal(message('foo/8'), "'foo' is not an IP string literal.");
  assert.match(message('::ffff:1.2.3.4/96'), /^CIDR notation is not allowed with IPv6-mapped IPv4 address \[::ffff:1\.2\.3\.4 as it introduces ambiguity/);
  assert.throws(() => parseCidr('1.2.3.4/x'), (err: unknown) => err instanceof IpFormatError && err.numberFormat);
});

test('nextUp/nextDown step one address and stop at the ends of the space', () => {
  assert.equal(formatIp(nextIpUp(parseIp('255.255.255.255'))!), '::1:0:0:0');
  assert.equal(formatIp(nextIpDown(parseIp('192.168.1.0'))!), '192.168.0.255');
  assert.equal(nextIpUp(parseIp('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')), null);
  assert.equal(nextIpDown(parseIp('::')), null);
});

const bytes16 = fc.uint8Array({ minLength: 16, maxLength: 16 });
/** Addresses that hit the interesting shapes: IPv4-mapped, runs of zeros, anything. */
const address = fc.oneof(
  bytes16,
  fc.uint8Array({ minLength: 4, maxLength: 4 }).map((v4) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4])),
  fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }).map((hextets) => {
    const out = new Uint8Array(16);
    hextets.forEach((h, i) => {
      out[2 * i] = h >> 8;
      out[2 * i + 1] = h & 0xff;
    });
    return out;
  }),
);

test('property: any 16 bytes print to text that parses back to the same bytes', () => {
  fc.assert(
    fc.property(address, (bytes) => {
      const text = formatIp(bytes);
      assert.equal(hex(parseIp(text)), hex(bytes), text);
      // Printing is canonical: the text prints to itself.
      assert.equal(formatIp(parseIp(text)), text);
    }),
    { numRuns: 2000 },
  );
});

test('property: IPv4 octets print dotted and parse to the IPv4-mapped encoding', () => {
  fc.assert(
    fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)), (octets) => {
      const text = octets.join('.');
      assert.equal(formatIp(parseIp(text)), text);
      assert.equal(hex(parseIp(text)), `00000000000000000000ffff${Buffer.from(octets).toString('hex')}`);
    }),
  );
});

/** The reference: an address is in a CIDR block when its first `bits` bits equal the block's, bit by bit. */
function sharesPrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 1 << (7 - (i & 7));
    if ((a[i >> 3]! & mask) !== (b[i >> 3]! & mask)) return false;
  }
  return true;
}

test('property: a CIDR range holds exactly the addresses sharing its prefix (IPv6 and IPv4 masks)', () => {
  const inRange = (range: { lower: Uint8Array; upper: Uint8Array }, probe: Uint8Array): boolean =>
    compareIp(range.lower, probe) <= 0 && compareIp(probe, range.upper) <= 0;
  // Probes near the block (same prefix, flipped bits) as well as random ones.
  const probeNear = (base: Uint8Array) =>
    fc.array(fc.nat(127), { maxLength: 3 }).map((flips) => {
      const out = Uint8Array.from(base);
      for (const bit of flips) out[bit >> 3]! ^= 1 << (7 - (bit & 7));
      return out;
    });
  fc.assert(
    fc.property(
      address.filter((bytes) => formatIp(bytes).includes(':')),
      fc.integer({ min: 0, max: 128 }),
      bytes16,
      (base, prefix, random) => {
        const range = parseCidr(`${formatIp(base)}/${prefix}`);
        for (const probe of [random, base, range.lower, range.upper, ...fc.sample(probeNear(base), 3)]) {
          assert.equal(inRange(range, probe), sharesPrefix(base, probe, prefix));
        }
      },
    ),
    { numRuns: 1000 },
  );
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 32 }), fc.uint8Array({ minLength: 4, maxLength: 4 }), (v4, prefix, other) => {
      const range = parseCidr(`${[...v4].join('.')}/${prefix}`);
      const probe = parseIp([...other].join('.'));
      // An IPv4 prefix counts from bit 96 of the mapped address; IPv6 addresses are never in an IPv4 block.
      assert.equal(inRange(range, probe), sharesPrefix(parseIp([...v4].join('.')), probe, 96 + prefix));
      assert.equal(inRange(range, parseIp('2001:db8::1')), false);
    }),
    { numRuns: 1000 },
  );
});

test('property: byte order is address order, and nextUp/nextDown are its neighbours', () => {
  fc.assert(
    fc.property(bytes16, bytes16, (a, b) => {
      const big = (x: Uint8Array): bigint => BigInt(`0x${hex(x)}`);
      const cmp = compareIp(a, b);
      assert.equal(Math.sign(cmp), big(a) < big(b) ? -1 : big(a) > big(b) ? 1 : 0);
      const up = nextIpUp(a);
      if (up !== null) assert.equal(big(up), big(a) + 1n);
      const down = nextIpDown(a);
      if (down !== null) assert.equal(big(down), big(a) - 1n);
    }),
  );
});
