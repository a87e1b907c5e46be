import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DATA_CHECK_LIMITS,
  dataCheckArgs,
  dataCheckErrors,
  dataCheckFirstOffsetMs,
  dataCheckIntervalMs,
  dataCheckRepairSteps,
  dataCheckSubset,
  lockIsStale,
  nextDataCheckSlice,
  packInDataCheckSubset,
} from './data-checks.js';

const DAY_MS = 86_400_000;

describe('rotating data checks (issue 32 item 2)', () => {
  it('shares the period between the slices, and spreads first checks within one interval', () => {
    expect(dataCheckIntervalMs(30, 6)).toBe(5 * DAY_MS);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 30 * DAY_MS }), (id, interval) => {
        const offset = dataCheckFirstOffsetMs(id, interval);
        return offset >= 0 && offset < interval;
      }),
    );
    // Machines added together do not all fall at the start of the interval.
    const offsets = Array.from({ length: 100 }, (_, i) => dataCheckFirstOffsetMs(i + 1, 1000));
    expect(new Set(offsets.map((o) => Math.floor(o / 250))).size).toBe(4);
  });

  it('reads every pack exactly once per rotation of the slices', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{64}$/),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 64 }),
        (pack, slices, start) => {
          const first = ((start - 1) % slices) + 1;
          let slice = first;
          let reads = 0;
          for (let i = 0; i < slices; i += 1) {
            if (packInDataCheckSubset(pack, slice, slices)) reads += 1;
            slice = nextDataCheckSlice(slice, slices);
          }
          return reads === 1 && slice === first;
        },
      ),
    );
    expect(dataCheckSubset(2, 6)).toBe('2/6');
    expect(dataCheckArgs('2/6')).toEqual(['check', '--no-lock', '--read-data-subset', '2/6']);
  });

  it("keeps restic's error lines without its closing line, capped in number and length", () => {
    const long = 'x'.repeat(DATA_CHECK_LIMITS.errorLength + 10);
    const lines = [
      'Pack ID does not match, want b1, got aa',
      long,
      ...Array.from({ length: DATA_CHECK_LIMITS.errorsKept }, (_, i) => `error ${i}`),
      'Fatal: repository contains errors',
    ];
    const kept = dataCheckErrors(lines);
    expect(kept).toHaveLength(DATA_CHECK_LIMITS.errorsKept);
    expect(kept[0]).toBe(lines[0]);
    expect(kept[1]).toHaveLength(DATA_CHECK_LIMITS.errorLength);
    expect(kept.some((line) => /repository contains errors/.test(line))).toBe(false);
  });

  it('offers restic repair where the installed restic has it, else the manual steps, both starting with a copy', () => {
    const withRepair = dataCheckRepairSteps(true);
    const manual = dataCheckRepairSteps(false);
    expect(withRepair.steps.some((step) => step.includes('restic repair packs'))).toBe(true);
    expect(manual.steps.some((step) => step.includes('restic repair'))).toBe(false);
    expect(manual.steps.some((step) => step.includes('rebuild-index'))).toBe(true);
    for (const { steps } of [withRepair, manual]) {
      expect(steps[0]).toMatch(/^Pause/);
      expect(steps[1]).toMatch(/^Copy the repository aside/);
      expect(steps.at(-1)).toMatch(/no errors/);
    }
  });

  it('calls a lock stale past the longer of the run timeout and restic’s 30 minutes, never an unreadable one', () => {
    const now = new Date('2026-12-07T12:00:00Z');
    const ago = (minutes: number) => ({ time: new Date(now.getTime() - minutes * 60_000).toISOString() });
    expect(lockIsStale(ago(31), now, 10)).toBe(true);
    expect(lockIsStale(ago(29), now, 10)).toBe(false);
    expect(lockIsStale(ago(119), now, 120)).toBe(false);
    expect(lockIsStale(ago(121), now, 120)).toBe(true);
    expect(lockIsStale({ time: 'not a time' }, now, 10)).toBe(false);
  });
});
