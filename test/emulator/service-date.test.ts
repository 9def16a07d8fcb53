import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCHEMA_BASE, schemaRegistry } from '../../src/manifest/schema-registry.js';
import { matchesRecordingFilters } from '../../src/emulator/records/filters/recording-filters.js';
import { parseServiceDate } from '../../src/emulator/service-date.js';
import { ruleChecker } from '../../src/emulator/views/rule-checker.js';
import { filterEnv } from '../../src/emulator/records/filters/env.js';
import { NOW, recording, workspace } from './records/fixtures.js';

const ISO_DATE = `${SCHEMA_BASE}common.schema.json#/$defs/isoDate`;
const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

// Components in and just outside their ranges, so both sides of every bound are drawn.
const parts = fc.record({
  year: fc.integer({ min: 0, max: 9999 }),
  month: fc.integer({ min: 0, max: 13 }),
  day: fc.integer({ min: 0, max: 32 }),
  hour: fc.integer({ min: 0, max: 25 }),
  minute: fc.integer({ min: 0, max: 61 }),
  second: fc.integer({ min: 0, max: 61 }),
  offset: fc.constantFrom('Z', '+01:00', '-05:30', '+0200', '+23:59', '+24:00', ''),
  withTime: fc.boolean(),
});
type Parts = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  offset: string;
  withTime: boolean;
};
const text = (p: Parts): string => {
  const date = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
  return p.withTime ? `${date}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${p.offset}` : date;
};

describe('service dates: one rule for the emulator and the schemas', () => {
  it('the emulator accepts exactly what isoDate accepts, and only dates that round-trip', () => {
    const validate = schemaRegistry().getSchema(ISO_DATE);
    if (validate === undefined) throw new Error('isoDate schema missing');
    fc.assert(
      fc.property(parts, (p) => {
        const value = text(p);
        const instant = parseServiceDate(value);
        expect(instant !== null).toBe(validate(value) === true);
        if (instant === null || p.second === 60) return;
        // The instant names the same calendar day and clock time it was written with.
        const offsetMinutes =
          p.offset === '' || p.offset === 'Z' || !p.withTime
            ? 0
            : (p.offset.startsWith('-') ? -1 : 1) * (Number(p.offset.slice(1, 3)) * 60 + Number(p.offset.slice(-2)));
        const local = new Date(instant + offsetMinutes * 60_000);
        expect([local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()]).toEqual([p.year, p.month, p.day]);
        if (p.withTime)
          expect([local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds()]).toEqual([
            p.hour,
            p.minute,
            p.second,
          ]);
      }),
      { seed: 15, numRuns: 3000 },
    );
  });

  it.each(['2026-13-45', '2026-00-00', '2026-02-30', '2026-10-01T25:61:00Z', '2026-10-01T09:00', 'yesterday'])(
    'a view filter createdAfterAt of %s is refused with its path',
    (value) => {
      expect(ruleChecker('recordings', 'filters', { createdAfterAt: value })).toMatchObject({
        path: 'filters.createdAfterAt',
      });
    },
  );

  it('a stored bound that is not a date matches nothing instead of being ignored', () => {
    const env = filterEnv(workspace(), NOW);
    const stored = recording('r', { createdAt: new Date(NOW).toISOString() });
    expect(matchesRecordingFilters({ createdAfterAt: '2026-02-30' }, stored, env)).toBe(false);
    expect(matchesRecordingFilters({ createdBeforeAt: '2999-02-30' }, stored, env)).toBe(false);
    expect(matchesRecordingFilters({ createdAfterAt: '2000-02-29' }, stored, env)).toBe(true);
  });
});
