import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseZoneId, zoneOffsetAtInstant } from '../../../src/mapping/date/zones.js';

test('region offsets on 29 February are the real ones (no year-1900 leap-day shift)', () => {
  const saoPaulo = parseZoneId('America/Sao_Paulo')!;
  const instant = Date.parse('2024-02-29T12:00:00Z');
  assert.equal(zoneOffsetAtInstant(saoPaulo, instant), -3 * 3600_000);
  const paris = parseZoneId('Europe/Paris')!;
  assert.equal(zoneOffsetAtInstant(paris, Date.parse('2024-02-29T23:30:00Z')), 3600_000);
  assert.equal(zoneOffsetAtInstant(paris, Date.parse('2024-07-01T00:00:00Z')), 7200_000);
});
