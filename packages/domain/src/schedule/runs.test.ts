import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../time.js';
import { describeCron } from './describe.js';
import { expectedNextRun, MISSED_RUN_GRACE_MINUTES, nextRunAfter, previousRunBefore, runsBetween } from './runs.js';
import { CronSyntaxError, parseCron, sameSchedule } from './syntax.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;
const at = (text: string) => new Date(text);

// --- an independent reference ----------------------------------------------------------------------
// Random expressions come with the values they mean, worked out here rather than by the parser; the
// reference walks the zone's clock minute by minute (via formatToParts, not the module's own offset
// reader) and fires at the first instant the clock reaches a matching wall minute it has not shown yet.

interface FieldSpec {
  min: number;
  max: number;
  /** implicit end of '*' and 'value/step' */
  end: number;
  names?: readonly string[];
  nameBase?: number;
}

const SPECS = {
  minute: { min: 0, max: 59, end: 59 },
  hour: { min: 0, max: 23, end: 23 },
  dayOfMonth: { min: 1, max: 31, end: 31 },
  month: {
    min: 1,
    max: 12,
    end: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
    nameBase: 1,
  },
  dayOfWeek: { min: 0, max: 7, end: 6, names: ['sun', 'Mon', 'TUE', 'wed', 'Thu', 'FRI', 'sat'], nameBase: 0 },
} satisfies Record<string, FieldSpec>;

interface GeneratedField {
  text: string;
  values: Set<number>;
}

function fieldArbitrary(spec: FieldSpec, fold7: boolean, bias?: fc.Arbitrary<number>): fc.Arbitrary<GeneratedField> {
  const value = bias ? fc.oneof(bias, fc.integer({ min: spec.min, max: spec.max })) : fc.integer(spec);
  const step = fc.integer({ min: 1, max: spec.max });
  const write = (v: number, useName: boolean) => {
    const name = spec.names?.[v - (spec.nameBase ?? 0)];
    return useName && name ? name : String(v);
  };
  const add = (set: Set<number>, from: number, to: number, by: number) => {
    for (let v = from; v <= to; v += by) set.add(fold7 && v === 7 ? 0 : v);
  };
  const part: fc.Arbitrary<GeneratedField> = fc.oneof(
    {
      weight: 2,
      arbitrary: value.chain((v) =>
        fc.boolean().map((n) => ({ text: write(v, n), values: new Set([fold7 && v === 7 ? 0 : v]) })),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(value, value, fc.boolean()).map(([a, b, n]) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const values = new Set<number>();
        add(values, from, to, 1);
        return { text: `${write(from, n)}-${write(to, n)}`, values };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(value, value, step).map(([a, b, s]) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const values = new Set<number>();
        add(values, from, to, s);
        return { text: `${from}-${to}/${s}`, values };
      }),
    },
    {
      weight: 1,
      arbitrary: step.map((s) => {
        const values = new Set<number>();
        add(values, spec.min, spec.end, s);
        return { text: `*/${s}`, values };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: spec.min, max: spec.end }), step).map(([a, s]) => {
        const values = new Set<number>();
        add(values, a, spec.end, s);
        return { text: `${a}/${s}`, values };
      }),
    },
  );
  const list = fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => ({
    text: parts.map((p) => p.text).join(','),
    values: new Set(parts.flatMap((p) => [...p.values])),
  }));
  const all = new Set<number>();
  add(all, spec.min, spec.end, 1);
  return fc.oneof({ weight: 1, arbitrary: fc.constant({ text: '*', values: all }) }, { weight: 3, arbitrary: list });
}

interface GeneratedCron {
  text: string;
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
}

const star = (spec: FieldSpec) =>
  fc.constant({ text: '*', values: new Set(Array.from({ length: spec.end - spec.min + 1 }, (_, i) => spec.min + i)) });

/** Mostly dense schedules, so a few days hold runs, with hours biased to the night (DST changes). */
const cronArbitrary: fc.Arbitrary<GeneratedCron> = fc
  .tuple(
    fieldArbitrary(SPECS.minute, false, fc.constantFrom(0, 15, 30, 45)),
    fieldArbitrary(SPECS.hour, false, fc.integer({ min: 0, max: 4 })),
    fc.oneof(
      { weight: 4, arbitrary: star(SPECS.dayOfMonth) },
      { weight: 1, arbitrary: fieldArbitrary(SPECS.dayOfMonth, false) },
    ),
    fc.oneof({ weight: 5, arbitrary: star(SPECS.month) }, { weight: 1, arbitrary: fieldArbitrary(SPECS.month, false) }),
    fc.oneof(
      { weight: 2, arbitrary: star(SPECS.dayOfWeek) },
      { weight: 1, arbitrary: fieldArbitrary(SPECS.dayOfWeek, true) },
    ),
    fc.boolean(),
  )
  .map(([m, h, d, mo, w, unix]) => ({
    text: `${unix ? '0 ' : ''}${m.text} ${h.text} ${d.text} ${mo.text} ${w.text}`,
    minutes: m.values,
    hours: h.values,
    days: d.values,
    months: mo.values,
    weekdays: w.values,
  }));

function referenceMatches(c: GeneratedCron, wall: number): boolean {
  const date = new Date(wall);
  if (!c.minutes.has(date.getUTCMinutes()) || !c.hours.has(date.getUTCHours())) return false;
  if (!c.months.has(date.getUTCMonth() + 1)) return false;
  const domRestricted = c.days.size < 31;
  const dowRestricted = c.weekdays.size < 7;
  const dom = c.days.has(date.getUTCDate());
  const dow = c.weekdays.has(date.getUTCDay());
  if (domRestricted && dowRestricted) return dom || dow;
  return (!domRestricted || dom) && (!dowRestricted || dow);
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function referenceWall(instant: number, timeZone: string): number {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    partsFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
}

/** Runs in (from, to] by walking every minute (zones here change offset on whole minutes). */
function referenceRuns(c: GeneratedCron, timeZone: string, from: number, to: number): number[] {
  const runs: number[] = [];
  let t = Math.floor(from / MINUTE_MS) * MINUTE_MS - 6 * HOUR_MS;
  let latest = referenceWall(t, timeZone);
  for (t += MINUTE_MS; t <= to; t += MINUTE_MS) {
    const wall = referenceWall(t, timeZone);
    if (wall <= latest) continue; // the clock was turned back: these wall minutes were shown already
    let fires = false;
    for (let w = latest + MINUTE_MS; w <= wall && !fires; w += MINUTE_MS) fires = referenceMatches(c, w);
    if (fires && t > from) runs.push(t);
    latest = wall;
  }
  return runs;
}

// DST changes of the zones under test, as instants, to start the walks close to them.
function nthSunday(year: number, month: number, n: number): number {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((7 - first) % 7) + 7 * (n - 1);
}
function lastSunday(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month, 0));
  return last.getUTCDate() - last.getUTCDay();
}
const CHANGES: Record<string, (year: number) => number[]> = {
  'Europe/London': (y) => [Date.UTC(y, 2, lastSunday(y, 3), 1), Date.UTC(y, 9, lastSunday(y, 10), 1)],
  'America/New_York': (y) => [Date.UTC(y, 2, nthSunday(y, 3, 2), 7), Date.UTC(y, 10, nthSunday(y, 11, 1), 6)],
  'Australia/Sydney': (y) => [Date.UTC(y, 3, nthSunday(y, 4, 1) - 1, 16), Date.UTC(y, 9, nthSunday(y, 10, 1) - 1, 16)],
  UTC: (y) => [Date.UTC(y, 0, 1), Date.UTC(y, 6, 1)],
};
const ZONES = Object.keys(CHANGES);

const WINDOW = 3 * DAY_MS;

/** A zone and a start: half the time within the three days before one of its DST changes. */
const startArbitrary = fc.constantFrom(...ZONES).chain((zone) =>
  fc.tuple(
    fc.constant(zone),
    fc.oneof(
      fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
      fc
        .tuple(
          fc.integer({ min: 2020, max: 2035 }),
          fc.integer({ min: 0, max: 1 }),
          fc.integer({ min: 0, max: WINDOW }),
        )
        .map(([year, which, before]) => (CHANGES[zone]?.(year)[which] ?? 0) - before),
    ),
  ),
);

// ---------------------------------------------------------------------------------------------------

describe('next run times against a minute-by-minute reference (002 §3 timeZone, DESIGN §6 and §8)', () => {
  it('the generator and the parser agree on what each field selects', () => {
    fc.assert(
      fc.property(cronArbitrary, (c) => {
        const parsed = parseCron(c.text);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
        expect(parsed.schedule.minutes).toEqual(sorted(c.minutes));
        expect(parsed.schedule.hours).toEqual(sorted(c.hours));
        expect(parsed.schedule.daysOfMonth).toEqual(sorted(c.days));
        expect(parsed.schedule.months).toEqual(sorted(c.months));
        expect(parsed.schedule.daysOfWeek).toEqual(sorted(c.weekdays));
      }),
      { numRuns: 500 },
    );
  });

  it('never skips a matching minute and never adds one, over three days in four zones', () => {
    fc.assert(
      fc.property(cronArbitrary, startArbitrary, fc.integer({ min: 0, max: 59_999 }), (c, [zone, start], ms) => {
        const from = start + ms;
        const to = from + WINDOW;
        const expected = referenceRuns(c, zone, from, to);
        const runs = runsBetween(c.text, new Date(from), new Date(to), zone, 10_000).map((d) => d.getTime());
        expect(runs).toEqual(expected);
        // nextRunAfter chains through the same instants...
        const next = nextRunAfter(c.text, new Date(from), zone)?.getTime() ?? null;
        if (expected.length > 0) expect(next).toBe(expected[0]);
        else expect(next === null || next > to).toBe(true);
        // ...and previousRunBefore walks them back.
        for (let i = 1; i < Math.min(expected.length, 40); i++) {
          expect(previousRunBefore(c.text, new Date(expected[i] ?? 0), zone)?.getTime()).toBe(expected[i - 1]);
        }
      }),
      { numRuns: 120 },
    );
  }, 60_000);
});

describe('run times are ordered (002 §3, DESIGN §8 missed runs)', () => {
  const anyInstant = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2100, 0, 1) });
  const zone = fc.constantFrom(...ZONES, 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns');

  it('nextRunAfter(c, t) > t, and is monotonic in t', () => {
    fc.assert(
      fc.property(cronArbitrary, zone, anyInstant, fc.integer({ min: 0, max: 3 * DAY_MS }), (c, tz, t1, gap) => {
        const t2 = t1 + gap;
        const a = nextRunAfter(c.text, new Date(t1), tz);
        const b = nextRunAfter(c.text, new Date(t2), tz);
        if (a === null || b === null) return;
        expect(a.getTime()).toBeGreaterThan(t1);
        expect(b.getTime()).toBeGreaterThan(t2);
        expect(a.getTime()).toBeLessThanOrEqual(b.getTime());
      }),
      { numRuns: 400 },
    );
  });

  it('previousRunBefore is consistent with nextRunAfter: nothing runs in between', () => {
    fc.assert(
      fc.property(cronArbitrary, zone, anyInstant, (c, tz, t) => {
        const previous = previousRunBefore(c.text, new Date(t), tz);
        const next = nextRunAfter(c.text, new Date(t), tz);
        if (previous) {
          expect(previous.getTime()).toBeLessThan(t);
          expect(nextRunAfter(c.text, previous, tz)?.getTime()).toBeGreaterThanOrEqual(t);
        }
        if (next) {
          expect(next.getTime()).toBeGreaterThan(t);
          expect(previousRunBefore(c.text, next, tz)?.getTime() ?? Number.NEGATIVE_INFINITY).toBeLessThanOrEqual(t);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads equivalent spellings the same: values, description and runs', () => {
    fc.assert(
      fc.property(cronArbitrary, zone, anyInstant, (c, tz, t) => {
        const list = (s: Set<number>, full: number) => (s.size === full ? '*' : [...s].sort((a, b) => a - b).join(','));
        const plain = [
          list(c.minutes, 60),
          list(c.hours, 24),
          list(c.days, 31),
          list(c.months, 12),
          list(c.weekdays, 7),
        ].join(' ');
        expect(sameSchedule(c.text, plain)).toBe(true);
        expect(describeCron(c.text)).toBe(describeCron(plain));
        expect(iso(nextRunAfter(c.text, new Date(t), tz))).toBe(iso(nextRunAfter(plain, new Date(t), tz)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('daylight saving in Europe/London (GMT/BST)', () => {
  const zone = 'Europe/London';

  it('spring forward, last Sunday of March (30 March 2025, 01:00 GMT → 02:00 BST): a skipped time runs at 02:00 BST', () => {
    // 01:30 does not exist that night; it runs at the first valid instant, 02:00 BST = 01:00 UTC.
    expect(iso(nextRunAfter('30 1 * * *', at('2025-03-29T12:00:00Z'), zone))).toBe('2025-03-30T01:00:00.000Z');
    expect(runsBetween('30 1 * * *', at('2025-03-28T12:00:00Z'), at('2025-04-01T00:00:00Z'), zone).map(iso)).toEqual([
      '2025-03-29T01:30:00.000Z', // 01:30 GMT
      '2025-03-30T01:00:00.000Z', // 02:00 BST: 01:30 skipped, run at the jump
      '2025-03-31T00:30:00.000Z', // 01:30 BST
    ]);
    // The times after the gap are untouched.
    expect(iso(nextRunAfter('0 2 * * *', at('2025-03-29T12:00:00Z'), zone))).toBe('2025-03-30T01:00:00.000Z');
    expect(iso(nextRunAfter('30 2 * * *', at('2025-03-29T12:00:00Z'), zone))).toBe('2025-03-30T01:30:00.000Z');
    expect(iso(nextRunAfter('30 0 * * *', at('2025-03-29T12:00:00Z'), zone))).toBe('2025-03-30T00:30:00.000Z');
  });

  it('spring forward: all matches inside the missing hour collapse into one run', () => {
    const runs = runsBetween('*/15 1,2 * * *', at('2025-03-30T00:00:00Z'), at('2025-03-30T03:00:00Z'), zone);
    expect(runs.map(iso)).toEqual([
      '2025-03-30T01:00:00.000Z', // 01:00, 01:15, 01:30, 01:45 and 02:00 BST together
      '2025-03-30T01:15:00.000Z',
      '2025-03-30T01:30:00.000Z',
      '2025-03-30T01:45:00.000Z',
    ]);
    expect(iso(previousRunBefore('30 1 * * *', at('2025-03-30T01:00:01Z'), zone))).toBe('2025-03-30T01:00:00.000Z');
    expect(iso(previousRunBefore('30 1 * * *', at('2025-03-30T01:00:00Z'), zone))).toBe('2025-03-29T01:30:00.000Z');
  });

  it('fall back, last Sunday of October (26 October 2025, 02:00 BST → 01:00 GMT): a repeated time runs once, the first time', () => {
    // 01:30 happens at 00:30 UTC (BST) and again at 01:30 UTC (GMT); only the first runs.
    expect(iso(nextRunAfter('30 1 * * *', at('2025-10-25T12:00:00Z'), zone))).toBe('2025-10-26T00:30:00.000Z');
    expect(iso(nextRunAfter('30 1 * * *', at('2025-10-26T00:30:00Z'), zone))).toBe('2025-10-27T01:30:00.000Z');
    expect(runsBetween('*/30 * * * *', at('2025-10-25T23:00:00Z'), at('2025-10-26T03:00:00Z'), zone).map(iso)).toEqual([
      '2025-10-25T23:30:00.000Z',
      '2025-10-26T00:00:00.000Z', // 01:00 BST
      '2025-10-26T00:30:00.000Z', // 01:30 BST
      // 01:00 and 01:30 GMT are the same wall times again: no runs
      '2025-10-26T02:00:00.000Z', // 02:00 GMT
      '2025-10-26T02:30:00.000Z',
      '2025-10-26T03:00:00.000Z',
    ]);
  });

  it('fall back: asked from inside the repeated hour, the next run is after it, the previous one in its first pass', () => {
    expect(iso(nextRunAfter('*/30 * * * *', at('2025-10-26T01:10:00Z'), zone))).toBe('2025-10-26T02:00:00.000Z');
    expect(iso(previousRunBefore('*/30 * * * *', at('2025-10-26T01:59:00Z'), zone))).toBe('2025-10-26T00:30:00.000Z');
    expect(iso(nextRunAfter('0 2 * * *', at('2025-10-26T00:00:00Z'), zone))).toBe('2025-10-26T02:00:00.000Z');
  });
});

describe('daylight saving in America/New_York (EST/EDT)', () => {
  const zone = 'America/New_York';

  it('spring forward, second Sunday of March (9 March 2025, 02:00 EST → 03:00 EDT): 02:30 runs at 03:00 EDT', () => {
    expect(iso(nextRunAfter('30 2 * * *', at('2025-03-08T12:00:00Z'), zone))).toBe('2025-03-09T07:00:00.000Z');
    expect(iso(nextRunAfter('0 3 * * *', at('2025-03-08T12:00:00Z'), zone))).toBe('2025-03-09T07:00:00.000Z');
    expect(iso(nextRunAfter('30 2 * * *', at('2025-03-09T07:00:00Z'), zone))).toBe('2025-03-10T06:30:00.000Z');
  });

  it('fall back, first Sunday of November (2 November 2025, 02:00 EDT → 01:00 EST): 01:30 runs once, in EDT', () => {
    expect(iso(nextRunAfter('30 1 * * *', at('2025-11-01T12:00:00Z'), zone))).toBe('2025-11-02T05:30:00.000Z');
    expect(iso(nextRunAfter('30 1 * * *', at('2025-11-02T05:30:00Z'), zone))).toBe('2025-11-03T06:30:00.000Z');
    expect(iso(previousRunBefore('30 1 * * *', at('2025-11-02T07:00:00Z'), zone))).toBe('2025-11-02T05:30:00.000Z');
  });
});

describe('other zones (002 §3 timeZone is any IANA zone)', () => {
  it('Australia/Sydney changes in April and October', () => {
    // 6 April 2025, 03:00 AEDT → 02:00 AEST: 02:30 runs the first time, 15:30 UTC.
    expect(iso(nextRunAfter('30 2 * * *', at('2025-04-05T00:00:00Z'), 'Australia/Sydney'))).toBe(
      '2025-04-05T15:30:00.000Z',
    );
    // 5 October 2025, 02:00 AEST → 03:00 AEDT: 02:30 runs at 03:00 AEDT, 16:00 UTC.
    expect(iso(nextRunAfter('30 2 * * *', at('2025-10-04T00:00:00Z'), 'Australia/Sydney'))).toBe(
      '2025-10-04T16:00:00.000Z',
    );
  });

  it('handles half-hour DST (Lord Howe), quarter-hour offsets (Kathmandu) and offsets with seconds (1870 New York)', () => {
    // Lord Howe goes from +10:30 to +11:00 at 02:00 on 5 October 2025: 02:15 runs at 02:30.
    expect(iso(nextRunAfter('15 2 * * *', at('2025-10-04T00:00:00Z'), 'Australia/Lord_Howe'))).toBe(
      '2025-10-04T15:30:00.000Z',
    );
    expect(iso(nextRunAfter('0 0 * * *', at('2025-06-01T00:00:00Z'), 'Asia/Kathmandu'))).toBe(
      '2025-06-01T18:15:00.000Z',
    );
    // Local mean time, -4:56:02.
    expect(iso(nextRunAfter('0 12 * * *', at('1870-06-01T00:00:00Z'), 'America/New_York'))).toBe(
      '1870-06-01T16:56:02.000Z',
    );
  });

  it('matches the wall clock in UTC too, with day of month OR day of week', () => {
    expect(runsBetween('0 0 1 * 1', at('2025-09-27T00:00:00Z'), at('2025-10-10T00:00:00Z'), 'UTC').map(iso)).toEqual([
      '2025-09-29T00:00:00.000Z', // Monday
      '2025-10-01T00:00:00.000Z', // the 1st
      '2025-10-06T00:00:00.000Z', // Monday
    ]);
  });
});

describe('edges of the run search', () => {
  it('returns null for schedules that never run, and ends at the year 9999', () => {
    expect(nextRunAfter('0 0 30 2 *', at('2025-01-01T00:00:00Z'), 'UTC')).toBeNull();
    expect(previousRunBefore('0 0 31 4 *', at('2025-01-01T00:00:00Z'), 'UTC')).toBeNull();
    expect(runsBetween('0 0 30 2 *', at('2025-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'), 'UTC')).toEqual([]);
    expect(iso(nextRunAfter('0 0 29 2 *', at('2097-03-01T00:00:00Z'), 'UTC'))).toBe('2104-02-29T00:00:00.000Z');
    expect(iso(previousRunBefore('0 0 29 2 *', at('2104-02-28T00:00:00Z'), 'UTC'))).toBe('2096-02-29T00:00:00.000Z');
    expect(nextRunAfter('0 0 29 2 *', at('9997-01-01T00:00:00Z'), 'UTC')).toBeNull();
    expect(previousRunBefore('0 0 29 2 *', at('0003-06-01T00:00:00Z'), 'UTC')).toBeNull();
    expect(iso(previousRunBefore('0 0 1 1 *', at('0050-06-01T00:00:00Z'), 'UTC'))).toBe('0050-01-01T00:00:00.000Z');
  });

  it('keeps runsBetween to (from, to] and to the limit', () => {
    const from = at('2025-01-01T00:00:00Z');
    expect(runsBetween('0 * * * *', from, at('2025-01-01T03:00:00Z'), 'UTC').map(iso)).toEqual([
      '2025-01-01T01:00:00.000Z',
      '2025-01-01T02:00:00.000Z',
      '2025-01-01T03:00:00.000Z',
    ]);
    expect(runsBetween('0 * * * *', from, at('2025-02-01T00:00:00Z'), 'UTC', 2)).toHaveLength(2);
    expect(runsBetween('0 * * * *', from, from, 'UTC')).toEqual([]);
  });

  it('refuses invalid expressions, dates and zones', () => {
    expect(() => nextRunAfter('0 2 * *', at('2025-01-01T00:00:00Z'), 'UTC')).toThrow(CronSyntaxError);
    expect(() => nextRunAfter('0 2 * * *', new Date(Number.NaN), 'UTC')).toThrow(RangeError);
    expect(() => previousRunBefore('0 2 * * *', at('2025-01-01T00:00:00Z'), 'Mars/Olympus')).toThrow(RangeError);
  });

  it('skips by fields rather than minute by minute, even for the rarest schedules', () => {
    // Stepping minute by minute would take seconds for each call of '0 0 29 2 1' (a Monday the 29th of
    // February, up to 28 years apart), minutes for all of these; skipping by fields takes milliseconds. The
    // bound is far from both, so a loaded machine cannot make this fail while the algorithm is right.
    const sparse = [
      '0 0 29 2 *',
      '59 23 31 12 *',
      '0 0 29 2 1',
      '0 0 31 * 5',
      '* * * * *',
      '*/7 1-5 13 * 5',
      '0 2 * * *',
    ];
    const zones = ['Europe/London', 'America/New_York', 'Australia/Sydney', 'UTC'];
    const started = performance.now();
    for (const cron of sparse) {
      for (const zone of zones) {
        for (let i = 0; i < 50; i++) {
          const t = at('2023-01-01T00:00:00Z').getTime() + i * 7.3 * DAY_MS;
          expect(nextRunAfter(cron, new Date(t), zone)).not.toBeNull();
          expect(previousRunBefore(cron, new Date(t), zone)).not.toBeNull();
        }
      }
    }
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('the run the server expects next (DESIGN §8 missed runs)', () => {
  it('is the next scheduled run of an ACTIVE task in the machine zone, and nothing otherwise', () => {
    const after = at('2026-11-23T10:00:00Z');
    expect(iso(expectedNextRun({ status: 'ACTIVE', scheduleCron: '0 2 * * *' }, after, 'Europe/Berlin'))).toBe(
      '2026-11-24T01:00:00.000Z',
    );
    expect(expectedNextRun({ status: 'PAUSED', scheduleCron: '0 2 * * *' }, after, 'UTC')).toBeNull();
    expect(expectedNextRun({ status: 'ACTIVE', scheduleCron: '0 0 30 2 *' }, after, 'UTC')).toBeNull();
    expect(expectedNextRun({ status: 'ACTIVE', scheduleCron: 'not a cron' }, after, 'UTC')).toBeNull();
    expect(expectedNextRun({ status: 'ACTIVE', scheduleCron: '0 2 * * *' }, after, 'Mars/Base')).toBeNull();
    expect(MISSED_RUN_GRACE_MINUTES).toBeGreaterThan(0);
  });
});
