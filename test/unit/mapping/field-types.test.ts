/**
 * ip, binary and date_nanos in mappings (parameters in ES's order, defaults left out, ES's errors) and in
 * documents (typed fields, ignore_malformed, null_value, ES's failures), and dynamic mapping never producing
 * them from JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMapping, serializeMapping } from '../../../src/mapping/index.js';
import { doc, expectError, plain, update } from './helpers.js';

const MAPPING = {
  properties: {
    ip: { type: 'ip' },
    ip_lenient: { type: 'ip', ignore_malformed: true, null_value: '::ffff:10.0.0.1' },
    ip_stored: { type: 'ip', index: false, doc_values: false, store: true },
    blob: { type: 'binary' },
    blob_dv: { type: 'binary', doc_values: true, store: true },
    at: { type: 'date_nanos' },
    at_lenient: { type: 'date_nanos', ignore_malformed: true, null_value: '2020-01-01T00:00:00.000000001Z' },
    at_custom: { type: 'date_nanos', format: 'yyyy-MM-dd HH:mm:ss.SSSSSSSSS' },
  },
};

function fieldError(column: number, field: string, type: string, preview: string, cause: { type: string; reason: string; cause?: { type: string; reason: string } }) {
  return {
    type: 'document_parsing_exception',
    reason: `[1:${column}] failed to parse field [${field}] of type [${type}] in document with id '1'. Preview of field's value: '${preview}'`,
    cause,
  };
}

test('mappings print back as ES does: only non-default parameters, in ES\'s parameter order', () => {
  const printed = plain(serializeMapping(parseMapping(MAPPING))) as { properties: Record<string, unknown> };
  assert.deepEqual(printed.properties['ip'], { type: 'ip' });
  assert.deepEqual(printed.properties['ip_lenient'], { type: 'ip', ignore_malformed: true, null_value: '::ffff:10.0.0.1' });
  assert.deepEqual(printed.properties['blob'], { type: 'binary' });
  assert.deepEqual(printed.properties['blob_dv'], { type: 'binary', store: true, doc_values: true });
  assert.deepEqual(Object.keys(printed.properties['blob_dv'] as object), ['type', 'store', 'doc_values']);
  assert.deepEqual(printed.properties['at'], { type: 'date_nanos' });
  assert.deepEqual(printed.properties['at_custom'], { type: 'date_nanos', format: 'yyyy-MM-dd HH:mm:ss.SSSSSSSSS' });
});

test('mapping errors: unknown parameters, bad null_value for ip and date_nanos', () => {
  expectError(() => parseMapping({ properties: { b: { type: 'binary', index: true } } }), {
    type: 'mapper_parsing_exception',
    reason: 'Failed to parse mapping: unknown parameter [index] on mapper [b] of type [binary]',
  });
  expectError(() => parseMapping({ properties: { i: { type: 'ip', null_value: 'nope' } } }), {
    type: 'mapper_parsing_exception',
    reason: "Failed to parse mapping: Error parsing [null_value] on field [i]: 'nope' is not an IP string literal.",
  });
  expectError(() => parseMapping({ properties: { d: { type: 'date_nanos', null_value: '1960-01-01' } } }), {
    type: 'mapper_parsing_exception',
    reason: 'Failed to parse mapping: Error parsing [null_value] on field [d]: date[1960-01-01T00:00:00Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution',
  });
  expectError(() => parseMapping({ properties: { i: { type: 'ip', script: { source: 'x' } } } }), {
    type: 'mapper_parsing_exception',
    reason: 'Failed to parse mapping: parameter [script] on mapper [i] of type [ip] is not supported by gannet',
  });
});

test('ip values: IPv4 and IPv6 as 16 bytes, null_value, ignore_malformed, the stored-only field', () => {
  const parsed = doc({ ip: ['10.1.2.3', '2001:db8::1'], ip_lenient: null, ip_stored: '::1' }, MAPPING);
  const ips = parsed.fields.filter((f) => f.kind === 'ip').map((f) => [f.field, Buffer.from((f as { value: Uint8Array }).value).toString('hex'), f.indexed, (f as { docValues: boolean }).docValues, f.stored]);
  assert.deepEqual(ips, [
    ['ip', '00000000000000000000ffff0a010203', true, true, false],
    ['ip', '20010db8000000000000000000000001', true, true, false],
    ['ip_lenient', '00000000000000000000ffff0a000001', true, true, false],
    ['ip_stored', '00000000000000000000000000000001', false, false, true],
  ]);
  const lenient = doc({ ip_lenient: 'not an ip' }, MAPPING);
  assert.deepEqual(lenient.ignored, ['ip_lenient']);
  assert.equal(lenient.fields.length, 0);
  expectError(() => doc({ ip: 'not an ip' }, MAPPING), fieldError(7, 'ip', 'ip', 'not an ip', { type: 'illegal_argument_exception', reason: "'not an ip' is not an IP string literal." }));
  expectError(() => doc({ ip: 42 }, MAPPING), fieldError(7, 'ip', 'ip', '42', { type: 'illegal_argument_exception', reason: "'42' is not an IP string literal." }));
});

test('binary values: base64 decoded only when stored or with doc values; Jackson\'s errors otherwise', () => {
  const parsed = doc({ blob: '!!! not even base64', blob_dv: 'U29tZSBiaW5hcnkgYmxvYg==' }, MAPPING);
  // `blob` has neither store nor doc values: ES does not read it at all (so no error either).
  assert.deepEqual(
    parsed.fields.map((f) => [f.kind, f.field, Buffer.from((f as { value: Uint8Array }).value).toString(), f.indexed, (f as { docValues: boolean }).docValues, f.stored]),
    [['binary', 'blob_dv', 'Some binary blob', false, true, true]],
  );
  expectError(() => doc({ blob_dv: 'U29tZQ!!' }, MAPPING), fieldError(12, 'blob_dv', 'binary', 'U29tZQ!!', {
    type: 'x_content_parse_exception',
    reason: "[1:12] Failed to decode VALUE_STRING as base64 (MIME-NO-LINEFEEDS): Illegal character '!' (code 0x21) in base64 content",
  }));
  expectError(() => doc({ blob_dv: 12 }, MAPPING), fieldError(12, 'blob_dv', 'binary', '12', {
    type: 'x_content_parse_exception',
    reason: '[1:12] Current token (VALUE_NUMBER_INT) not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access as binary',
  }));
  assert.equal(doc({ blob_dv: null }, MAPPING).fields.length, 0);
});

test('date_nanos values: nanoseconds exactly, the format\'s errors, the nanosecond range, null_value and ignore_malformed', () => {
  const parsed = doc({ at: '2018-10-29T12:12:12.123456789Z', at_custom: '2018-10-29 12:12:12.000000001', at_lenient: null }, MAPPING);
  assert.deepEqual(
    parsed.fields.map((f) => [f.field, (f as { epochNanos: bigint }).epochNanos]),
    [
      ['at', 1540815132123456789n],
      ['at_custom', 1540815132000000001n],
      ['at_lenient', 1577836800000000001n],
    ],
  );
  assert.equal((doc({ at: 1540815132123.456 }, MAPPING).fields[0] as { epochNanos: bigint }).epochNanos, 1540815132123456000n);
  expectError(() => doc({ at: '1969-12-31T23:59:59Z' }, MAPPING), fieldError(7, 'at', 'date_nanos', '1969-12-31T23:59:59Z', {
    type: 'illegal_argument_exception',
    reason: 'date[1969-12-31T23:59:59Z] is before the epoch in 1970 and cannot be stored in nanosecond resolution',
  }));
  expectError(() => doc({ at: '2262-04-12' }, MAPPING), fieldError(7, 'at', 'date_nanos', '2262-04-12', {
    type: 'illegal_argument_exception',
    reason: 'date[2262-04-12T00:00:00Z] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution',
  }));
  expectError(() => doc({ at: 'yesterday' }, MAPPING), fieldError(7, 'at', 'date_nanos', 'yesterday', {
    type: 'illegal_argument_exception',
    reason: 'failed to parse date field [yesterday] with format [strict_date_optional_time_nanos||epoch_millis]',
    cause: { type: 'date_time_parse_exception', reason: 'Failed to parse with all enclosed parsers' },
  }));
  const lenient = doc({ at_lenient: '1900-01-01' }, MAPPING);
  assert.deepEqual(lenient.ignored, ['at_lenient']);
});

test('dynamic mapping never makes ip, binary or date_nanos: an address is text + keyword, a date is a date', () => {
  assert.deepEqual(update({ addr: '192.168.0.1', blob: 'U29tZQ==', when: '2018-10-29T12:12:12.123456789Z' }), {
    properties: {
      addr: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      blob: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      when: { type: 'date' },
    },
  });
});

test('dynamic templates may map to ip and date_nanos (the detected date format carries over)', () => {
  const mapping = {
    dynamic_templates: [
      { ips: { match: '*_ip', mapping: { type: 'ip' } } },
      { nanos: { match_mapping_type: 'date', mapping: { type: 'date_nanos' } } },
    ],
  };
  assert.deepEqual(update({ client_ip: '10.0.0.1', at: '2018-10-29T12:12:12.123456789Z' }, mapping), {
    properties: { at: { type: 'date_nanos', format: 'strict_date_optional_time||epoch_millis' }, client_ip: { type: 'ip' } },
  });
});
