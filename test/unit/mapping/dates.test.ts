import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DateFormatter, dateFormatter, DateParseError, DateTimeError, DateFormatError } from '../../../src/mapping/index.js';
import { parseDateMath } from '../../../src/mapping/date/date-math.js';
import { parseZoneId } from '../../../src/mapping/date/zones.js';

const DEFAULT = 'strict_date_optional_time||epoch_millis';
const utc = (iso: string): number => Date.parse(iso);

// Expected values computed independently with JavaScript's Date (an ISO 8601 implementation).
const DEFAULT_FORMAT_TABLE: Array<[string, number]> = [
  ['2015-01-01', utc('2015-01-01T00:00:00Z')],
  ['2015-01-01T12:10:30Z', utc('2015-01-01T12:10:30Z')],
  ['2015-01-01T12:10:30.123+01:00', utc('2015-01-01T11:10:30.123Z')],
  ['2015-01-01T12:10:30.123-05:30', utc('2015-01-01T17:40:30.123Z')],
  ['2015-01-01T12:10:30.123456789Z', utc('2015-01-01T12:10:30.123Z')],
  ['2015-01-01T12:10:30,5Z', utc('2015-01-01T12:10:30.500Z')],
  ['2015-01-01T12:10:30', utc('2015-01-01T12:10:30Z')],
  ['2015-01-01T12:10', utc('2015-01-01T12:10:00Z')],
  ['2015-01-01T12', utc('2015-01-01T12:00:00Z')],
  ['2015-01-01T12Z', utc('2015-01-01T12:00:00Z')],
  ['2015-01-01T', utc('2015-01-01T00:00:00Z')],
  ['2015-01', utc('2015-01-01T00:00:00Z')],
  ['2015', utc('2015-01-01T00:00:00Z')],
  ['2015-01-01T12:10:30+0100', utc('2015-01-01T11:10:30Z')],
  ['2015-01-01T12:10:30+01', utc('2015-01-01T11:10:30Z')],
  ['2015-01-01T12:10:30UTC', utc('2015-01-01T12:10:30Z')],
  ['2015-01-01T12:10:30GMT+02:00', utc('2015-01-01T10:10:30Z')],
  ['2015-07-01T12:00:00Europe/Paris', utc('2015-07-01T10:00:00Z')],
  ['2015-01-01T12:00:00Europe/Paris', utc('2015-01-01T11:00:00Z')],
  ['1970-01-01T00:00:00.5+09:00:30', utc('1969-12-31T14:59:30.500Z')],
  ['2016-02-29', utc('2016-02-29T00:00:00Z')],
  ['1420070400001', 1420070400001],
  ['0', 0],
  ['-1', -1],
  ['-1.5', -2],
  ['1420070400001.5', 1420070400001],
  ['-2024-01-15', Date.UTC(-2024, 0, 15)],
];

test('strict_date_optional_time||epoch_millis parses what ES parses', () => {
  const formatter = dateFormatter(DEFAULT);
  for (const [input, expected] of DEFAULT_FORMAT_TABLE) {
    assert.equal(formatter.parseMillis(input), expected, input);
  }
});

test('a four-digit number is a year for the default format (strict_date_optional_time comes first)', () => {
  assert.equal(dateFormatter(DEFAULT).parseMillis('2015'), utc('2015-01-01T00:00:00Z'));
  assert.equal(dateFormatter('epoch_millis').parseMillis('2015'), 2015);
});

test('malformed dates fail with ES reasons', () => {
  const formatter = dateFormatter(DEFAULT);
  const rejected = [
    '2015/01/01', '2015-01-15TZ', '2015-01-15Z', '2015-01-15T10:00:00.Z', '2015-01-15T10:00:00+9', '2015-13-01',
    '12345-01-01', '1e3', '20150115T100000Z', '2015-1', '2015-01-1', '2015-01-15T10:00:00+24:00', '2015-01-15 10:00:00',
    ' 2015-01-15', '10:00:00', '2015-01-15T10:00:00.1234567891Z', '2015-01-15T10:00:60Z', '2015-01-15T1', '2015-01-15t10:00',
    '2015-01-15T10:00:00z', '+2015-01-15', 'abc', '',
  ];
  for (const input of rejected) {
    assert.throws(
      () => formatter.parseMillis(input),
      (err: unknown) => {
        assert.ok(err instanceof DateParseError, input);
        if (input === '') {
          assert.equal(err.message, 'cannot parse empty datetime');
        } else {
          assert.equal(err.message, `failed to parse date field [${input}] with format [${DEFAULT}]`);
          assert.equal(err.parseReason, 'Failed to parse with all enclosed parsers');
        }
        return true;
      },
      input,
    );
  }
});

test('impossible dates fail as java.time DateTimeExceptions', () => {
  const formatter = dateFormatter(DEFAULT);
  assert.throws(() => formatter.parseMillis('2015-02-30'), new DateTimeError("Invalid date 'FEBRUARY 30'"));
  assert.throws(() => formatter.parseMillis('2015-04-31'), new DateTimeError("Invalid date 'APRIL 31'"));
  assert.throws(() => formatter.parseMillis('2015-02-29'), new DateTimeError("Invalid date 'February 29' as '2015' is not a leap year"));
  assert.throws(() => formatter.parseMillis('2015-00-10'), new DateTimeError('Invalid value for MonthOfYear (valid values 1 - 12): 0'));
  assert.throws(() => dateFormatter('yyyy-MM-dd').parseMillis('2015-01-32'), new DateTimeError('Invalid value for DayOfMonth (valid values 1 - 28/31): 32'));
  // Detection only parses: ES detects "2015-02-30" as a date string and then fails to index it.
  assert.equal(formatter.detects('2015-02-30'), true);
  assert.equal(formatter.detects('hello'), false);
});

test('custom patterns and named formats', () => {
  const cases: Array<[string, string, number, string]> = [
    ['yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis', '2015/09/02', utc('2015-09-02T00:00:00Z'), '2015/09/02 00:00:00'],
    ['yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis', '2015/09/02 13:14:15', utc('2015-09-02T13:14:15Z'), '2015/09/02 13:14:15'],
    ['d/M/yyyy', '5/1/2024', utc('2024-01-05T00:00:00Z'), '5/1/2024'],
    ['yyyyMMdd', '20240115', utc('2024-01-15T00:00:00Z'), '20240115'],
    ['yy-MM-dd', '24-01-15', utc('2024-01-15T00:00:00Z'), '24-01-15'],
    ['MMM dd, yyyy', 'Jan 15, 2024', utc('2024-01-15T00:00:00Z'), 'Jan 15, 2024'],
    ['EEE, dd MMM yyyy HH:mm:ss Z', 'Mon, 15 Jan 2024 10:00:00 +0900', utc('2024-01-15T01:00:00Z'), 'Mon, 15 Jan 2024 01:00:00 +0000'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSZ", '2024-01-15T10:00:00.123+0900', utc('2024-01-15T01:00:00.123Z'), '2024-01-15T01:00:00.123+0000'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2024-01-15T10:00:00.123Z', utc('2024-01-15T10:00:00.123Z'), '2024-01-15T10:00:00.123Z'],
    ['hh:mm a yyyy-MM-dd', '10:00 PM 2024-01-15', utc('2024-01-15T22:00:00Z'), '10:00 PM 2024-01-15'],
    ['yyyy-MM-dd[ HH:mm]', '2024-01-15 10:30', utc('2024-01-15T10:30:00Z'), '2024-01-15 10:30'],
    ['yyyy-MM-dd[ HH:mm]', '2024-01-15', utc('2024-01-15T00:00:00Z'), '2024-01-15 00:00'],
    ['yyyy-DDD', '2024-015', utc('2024-01-15T00:00:00Z'), '2024-015'],
    ['epoch_second', '1705312800.123', 1705312800123, '1705312800.123'],
    ['basic_date', '20240115', utc('2024-01-15T00:00:00Z'), '20240115'],
    ['strict_date', '2024-01-15', utc('2024-01-15T00:00:00Z'), '2024-01-15'],
    ['date', '2024-1-15', utc('2024-01-15T00:00:00Z'), '2024-1-15'],
    ['date_optional_time', '2024-1-5', utc('2024-01-05T00:00:00Z'), '2024-01-05T00:00:00.000Z'],
    ['strict_date_hour_minute_second', '2024-01-15T10:00:00', utc('2024-01-15T10:00:00Z'), '2024-01-15T10:00:00'],
    ['strict_date_time', '2024-01-15T10:00:00.000+01:00', utc('2024-01-15T09:00:00Z'), '2024-01-15T09:00:00.000Z'],
    ['yyyy-MM-dd||strict_date_optional_time', '2024-01-15T10:00:00Z', utc('2024-01-15T10:00:00Z'), '2024-01-15'],
  ];
  for (const [format, input, millis, printed] of cases) {
    const formatter = dateFormatter(format);
    assert.equal(formatter.parseMillis(input), millis, `${format} ${input}`);
    assert.equal(formatter.format(millis), printed, `${format} prints ${millis}`);
  }
});

test('a single pattern reports java.time DateTimeParseException reasons', () => {
  const reason = (format: string, input: string): string => {
    try {
      dateFormatter(format).parseMillis(input);
    } catch (err) {
      if (err instanceof DateParseError) return err.parseReason;
      throw err;
    }
    throw new Error('parsed');
  };
  assert.equal(reason('yyyy-MM-dd', '2024-1-15'), "Text '2024-1-15' could not be parsed at index 5");
  assert.equal(reason("yyyy-MM-dd'T'HH:mm:ss.SSS", '2024-01-15T10:00:00.12'), "Text '2024-01-15T10:00:00.12' could not be parsed at index 20");
  assert.equal(reason('yyyy-MM-dd', '2024-01-15T'), "Text '2024-01-15T' could not be parsed, unparsed text found at index 10");
  assert.equal(reason('dd/MM/yyyy HH:mm', '05/01/2024 24:00'), "Text '05/01/2024 24:00' could not be parsed: Invalid value for HourOfDay (valid values 0 - 23): 24");
  assert.equal(
    reason('yyyy-MM-dd', 'x'.repeat(80)),
    `Text '${'x'.repeat(64)}...' could not be parsed at index 0`,
  );
  assert.equal(reason('MMM dd, yyyy', 'jan 15, 2024'), "Text 'jan 15, 2024' could not be parsed at index 0");
});

test('invalid formats fail like DateFormatter.forPattern', () => {
  assert.throws(() => DateFormatter.forPattern('test_format'), new DateFormatError('Invalid format: [test_format]: Unknown pattern letter: t'));
  assert.throws(() => DateFormatter.forPattern('yyyy-MM-dd||'), new DateFormatError('Cannot have empty element in multi date format pattern: yyyy-MM-dd||'));
  assert.throws(() => DateFormatter.forPattern(''), new DateFormatError('No date pattern provided'));
  assert.throws(() => DateFormatter.forPattern("yyyy-'MM"), /incomplete string literal/);
});

test('default format prints strict_date_optional_time', () => {
  const formatter = dateFormatter(DEFAULT);
  assert.equal(formatter.format(0), '1970-01-01T00:00:00.000Z');
  assert.equal(formatter.format(utc('2015-01-01T12:10:30.123Z')), '2015-01-01T12:10:30.123Z');
  assert.equal(formatter.format(-1), '1969-12-31T23:59:59.999Z');
  assert.equal(formatter.format(Date.UTC(10000, 0, 1)), '+10000-01-01T00:00:00.000Z');
  assert.equal(dateFormatter('epoch_millis').format(1420070400001), '1420070400001');
});

test('zone ids like ZoneId.of', () => {
  assert.deepEqual(parseZoneId('Z'), { kind: 'offset', seconds: 0 });
  assert.deepEqual(parseZoneId('+01:30'), { kind: 'offset', seconds: 5400 });
  assert.deepEqual(parseZoneId('-0530'), { kind: 'offset', seconds: -19800 });
  assert.deepEqual(parseZoneId('UTC+1'), { kind: 'offset', seconds: 3600 });
  assert.deepEqual(parseZoneId('Europe/Paris'), { kind: 'region', id: 'Europe/Paris' });
  assert.equal(parseZoneId('+19:00'), undefined);
  assert.equal(parseZoneId('Not/AZone'), undefined);
});

test('date math', () => {
  const now = utc('2015-06-15T13:45:30.250Z');
  const formatter = dateFormatter(DEFAULT);
  const math = (text: string, roundUp = false): number => parseDateMath(text, formatter, { now: () => now, roundUp });
  assert.equal(math('now'), now);
  assert.equal(math('now-1d'), utc('2015-06-14T13:45:30.250Z'));
  assert.equal(math('now-1d/d'), utc('2015-06-14T00:00:00Z'));
  assert.equal(math('now-1d/d', true), utc('2015-06-14T23:59:59.999Z'));
  assert.equal(math('now+1M/M'), utc('2015-07-01T00:00:00Z'));
  assert.equal(math('now/w'), utc('2015-06-15T00:00:00Z'), '2015-06-15 is a Monday');
  assert.equal(math('now/y', true), utc('2015-12-31T23:59:59.999Z'));
  assert.equal(math('now+2h'), utc('2015-06-15T15:45:30.250Z'));
  assert.equal(math('2015-01-31||+1M'), utc('2015-02-28T00:00:00Z'));
  assert.equal(math('2015-01-01'), utc('2015-01-01T00:00:00Z'));
  assert.equal(
    parseDateMath('now/d', formatter, { now: () => now, zone: { kind: 'offset', seconds: 3600 } }),
    utc('2015-06-14T23:00:00Z'),
  );
  assert.throws(() => math('now+1x'), /unit \[x\] not supported for date math \[\+1x\]/);
  assert.throws(() => math('now*1d'), /operator not supported for date math \[\*1d\]/);
  assert.throws(() => math('now-'), /truncated date math \[-\]/);
  assert.throws(() => math('now/2d'), /rounding `\/` can only be used on single unit types \[\/2d\]/);
});
