import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../time.js';
import { cronToPicker, pickerToCron } from './picker.js';
import {
  defaultPreset,
  EVERY_N_HOURS_CHOICES,
  NEXT_RUNS_SHOWN,
  nextRuns,
  PRESET_LAST_MONTH_DAY,
  presetOf,
  presetToCron,
  SCHEDULE_PRESET_KINDS,
  type SchedulePreset,
  zoneTimeText,
} from './presets.js';
import { nextRunAfter } from './runs.js';
import { validateCron, WEEKDAY_NAMES } from './syntax.js';
import { offsetAt } from './zone.js';

const minute = fc.integer({ min: 0, max: 59 });
const hour = fc.integer({ min: 0, max: 23 });
const presetArbitrary: fc.Arbitrary<SchedulePreset> = fc.oneof(
  fc.record({ kind: fc.constant('everyHours' as const), hours: fc.constantFrom(...EVERY_N_HOURS_CHOICES), minute }),
  fc.record({ kind: fc.constant('daily' as const), hour, minute }),
  fc.record({ kind: fc.constant('weekly' as const), weekDay: fc.integer({ min: 0, max: 6 }), hour, minute }),
  fc.record({
    kind: fc.constant('monthly' as const),
    monthDay: fc.integer({ min: 1, max: PRESET_LAST_MONTH_DAY }),
    hour,
    minute,
  }),
);

describe('schedule presets (issue 31)', () => {
  it('fill the exact five fields', () => {
    expect(presetToCron({ kind: 'everyHours', hours: 6, minute: 15 })).toBe('15 */6 * * *');
    expect(presetToCron({ kind: 'everyHours', hours: 1, minute: 0 })).toBe('0 * * * *');
    expect(presetToCron({ kind: 'daily', hour: 2, minute: 30 })).toBe('30 2 * * *');
    expect(presetToCron({ kind: 'weekly', weekDay: 1, hour: 22, minute: 5 })).toBe('5 22 * * 1');
    expect(presetToCron({ kind: 'monthly', monthDay: 15, hour: 3, minute: 0 })).toBe('0 3 15 * *');
  });

  it('has four kinds, each with a default that is a valid schedule', () => {
    expect(SCHEDULE_PRESET_KINDS).toEqual(['everyHours', 'daily', 'weekly', 'monthly']);
    for (const kind of SCHEDULE_PRESET_KINDS)
      expect(presetOf(presetToCron(defaultPreset(kind)))).toEqual(defaultPreset(kind));
  });

  it('reads a schedule back as its preset however it is spelled, and other schedules as none', () => {
    expect(presetOf('0 0,6,12,18 * * *')).toEqual({ kind: 'everyHours', hours: 6, minute: 0 });
    expect(presetOf('0 30 2 * * *')).toEqual({ kind: 'daily', hour: 2, minute: 30 });
    expect(presetOf('0 2 * * 7')).toEqual({ kind: 'weekly', weekDay: 0, hour: 2, minute: 0 });
    for (const other of ['*/5 * * * *', '0 */5 * * *', '0 2 * * 1-5', '0 2 31 * *', '0 2 1 1 *', '0 2 1 * 1', 'x'])
      expect(presetOf(other)).toBeNull();
  });

  it('property: a preset is a valid schedule the picker shows as written, read back as the same preset', () => {
    fc.assert(
      fc.property(presetArbitrary, (preset) => {
        const cron = presetToCron(preset);
        expect(validateCron(cron)).toBeNull();
        const picker = cronToPicker(cron);
        expect(picker.kind).toBe('picker');
        if (picker.kind === 'picker') expect(pickerToCron(picker.model)).toBe(cron);
        expect(presetOf(cron)).toEqual(preset);
      }),
    );
  });

  it('property: the next runs are the schedule runs in order, at the preset time on the zone clock', () => {
    const zones = fc.constantFrom('UTC', 'Europe/London', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata');
    const after = fc.date({
      min: new Date('2020-01-01T00:00:00Z'),
      max: new Date('2035-01-01T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(presetArbitrary, zones, after, (preset, zone, from) => {
        const cron = presetToCron(preset);
        const runs = nextRuns(cron, from, zone);
        expect(runs).toHaveLength(NEXT_RUNS_SHOWN);
        let previous = from;
        for (const run of runs) {
          expect(run).toEqual(nextRunAfter(cron, previous, zone));
          previous = run;
          // A run in a spring-forward gap starts at the jump, off the preset's clock: only the others are read.
          if (offsetAt(run.getTime() - HOUR_MS, zone) !== offsetAt(run.getTime(), zone)) continue;
          const text = zoneTimeText(run, zone);
          const [runHour, runMinute] = text.slice(-5).split(':').map(Number);
          expect(runMinute).toBe(preset.minute);
          if (preset.kind === 'everyHours') expect((runHour ?? -1) % preset.hours).toBe(0);
          else expect(runHour).toBe(preset.hour);
          if (preset.kind === 'weekly') expect(text.slice(0, 3)).toBe(WEEKDAY_NAMES[preset.weekDay]?.slice(0, 3));
          if (preset.kind === 'monthly') expect(Number(text.slice(12, 14))).toBe(preset.monthDay);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('shows run times on the zone clock, labelled with the weekday', () => {
    const runs = nextRuns('30 2 * * 1', new Date('2026-12-07T12:00:00Z'), 'Europe/Berlin', 2);
    expect(runs.map((r) => zoneTimeText(r, 'Europe/Berlin'))).toEqual(['Mon 2026-12-14 02:30', 'Mon 2026-12-21 02:30']);
    expect(runs[0]?.toISOString()).toBe('2026-12-14T01:30:00.000Z');
  });

  it('gives no runs for a bad or never-running schedule', () => {
    expect(nextRuns('not cron', new Date(), 'UTC')).toEqual([]);
    expect(nextRuns('0 0 30 2 *', new Date(), 'UTC')).toEqual([]);
  });
});
