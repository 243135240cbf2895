/**
 * The value codecs of `binary` (Jackson's base64 with its messages) and `date_nanos` (nanosecond parsing and
 * printing, the 1970..2262 range with DateUtils' words, Instant.toString).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  Base64DecodeError,
  checkNanosRange,
  dateFormatter,
  decodeBase64Value,
  encodeBase64,
  instantString,
  MAX_EPOCH_NANOS,
} from '../../../src/mapping/index.js';

test('property: base64 as java.util.Base64 writes it decodes to the same bytes, and encodes back alike', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      const text = encodeBase64(bytes);
      assert.equal(text, Buffer.from(bytes).toString('base64'));
      assert.deepEqual(decodeBase64Value(text), bytes);
    }),
  );
});

test('base64: white space between units is skipped, as Jackson does', () => {
  assert.deepEqual(Buffer.from(decodeBase64Value(' U29t ZSBi aW5h cnkg YmxvYg== ')).toString(), 'Some binary blob');
  assert.deepEqual(decodeBase64Value(''), new Uint8Array(0));
});

test('base64: Jackson\'s messages for malformed values', () => {
  const message = (text: string): string => {
    try {
      decodeBase64Value(text);
    } catch (err) {
      assert.ok(err instanceof Base64DecodeError);
      return err.message;
    }
    return 'decoded';
  };
  const prefix = 'Failed to decode VALUE_STRING as base64 (MIME-NO-LINEFEEDS): ';
  assert.equal(message('!!!!'), `${prefix}Illegal character '!' (code 0x21) in base64 content`);
  assert.equal(message('QQ'), "Unexpected end of base64-encoded String: base64 variant 'MIME-NO-LINEFEEDS' expects padding (one or more '=' characters) at the end");
  assert.equal(message('QUI'), "Unexpected end of base64-encoded String: base64 variant 'MIME-NO-LINEFEEDS' expects padding (one or more '=' characters) at the end");
  assert.equal(message('Q'), `${prefix}Illegal character '"' (code 0x22) in base64 content`);
  assert.equal(message('Q==='), `${prefix}Unexpected padding character ('=') as character #2 of 4-char base64 unit: padding only legal as 3rd or 4th character`);
  assert.equal(message('QQ=x'), `${prefix}Illegal character 'x' (code 0x78) in base64 content: expected padding character '='`);
  assert.equal(message('QQ =='), `${prefix}Illegal white space character (code 0x20) as character #3 of 4-char base64 unit: can only used between units`);
  assert.equal(message('QUJD-A=='), `${prefix}Illegal character '-' (code 0x2d) in base64 content`);
  // Jackson reads UTF-8 bytes: a non-ASCII character shows as its first byte.
  assert.equal(message('QUé='), `${prefix}Illegal character '\u00c3' (code 0xc3) in base64 content`);
});

const NANOS_FORMAT = 'strict_date_optional_time_nanos||epoch_millis';

test('date_nanos: parsing keeps every nanosecond; printing shows 3 to 9 fraction digits', () => {
  const formatter = dateFormatter(NANOS_FORMAT);
  assert.equal(formatter.parseNanos('2018-10-29T12:12:12.123456789Z'), 1540815132123456789n);
  assert.equal(formatter.parseNanos('2018-10-29T12:12:12.987654321Z'), 1540815132987654321n);
  assert.equal(formatter.parseNanos('2018-10-29T12:12:12.1234+01:00'), 1540811532123400000n);
  assert.equal(formatter.parseNanos('1540815132123.456789'), 1540815132123456789n);
  assert.equal(formatter.parseNanos('1540815132123'), 1540815132123000000n);
  assert.equal(formatter.formatNanos(1540815132123456789n), '2018-10-29T12:12:12.123456789Z');
  assert.equal(formatter.formatNanos(1540815132123400000n), '2018-10-29T12:12:12.1234Z');
  assert.equal(formatter.formatNanos(1540815132120000000n), '2018-10-29T12:12:12.120Z');
  assert.equal(formatter.formatNanos(0n), '1970-01-01T00:00:00.000Z');
  // The same printer at millisecond resolution shows 3 digits (ES's aggregations format date_nanos in millis).
  assert.equal(formatter.format(1540815132123), '2018-10-29T12:12:12.123Z');
  assert.equal(dateFormatter('strict_date_optional_time').formatNanos(1540815132123456789n), '2018-10-29T12:12:12.123Z');
  assert.equal(dateFormatter('epoch_millis').formatNanos(1540815132123456789n), '1540815132123.456789');
  assert.equal(dateFormatter('epoch_millis').formatNanos(1540815132123400000n), '1540815132123.4');
  assert.equal(dateFormatter('epoch_millis').formatNanos(1540815132123000000n), '1540815132123');
  assert.equal(dateFormatter('epoch_second').formatNanos(1540815132123456789n), '1540815132.123456789');
  assert.equal(dateFormatter("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSX").formatNanos(1540815132987000000n), '2018-10-29T12:12:12.987000000Z');
});

test('property: date_nanos values print and parse back exactly with the default format', () => {
  const formatter = dateFormatter(NANOS_FORMAT);
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: MAX_EPOCH_NANOS }), (nanos) => {
      assert.equal(formatter.parseNanos(formatter.formatNanos(nanos)), nanos);
      assert.equal(dateFormatter('epoch_millis').parseNanos(dateFormatter('epoch_millis').formatNanos(nanos)), nanos);
    }),
    { numRuns: 2000 },
  );
});

test('date_nanos range: DateUtils.toLong\'s errors, with the instant as Instant.toString prints it', () => {
  assert.equal(checkNanosRange(0n), 0n);
  assert.equal(checkNanosRange(MAX_EPOCH_NANOS), MAX_EPOCH_NANOS);
  assert.throws(() => checkNanosRange(-1_000_000_000n), { message: 'date[1969-12-31T23:59:59Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution' });
  assert.throws(() => checkNanosRange(MAX_EPOCH_NANOS + 1n), {
    message: 'date[2262-04-11T23:47:16.854775808Z] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution',
  });
  assert.equal(instantString(-1n), '1969-12-31T23:59:59.999999999Z');
  assert.equal(instantString(1_500_000n), '1970-01-01T00:00:00.001500Z');
  assert.equal(instantString(-631152000000000000n), '1950-01-01T00:00:00Z');
  assert.equal(instantString(253402300800000000000n), '+10000-01-01T00:00:00Z');
});
