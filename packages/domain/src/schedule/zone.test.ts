import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../time.js';
import { firstInstantAtOrAfter, isValidTimeZone, latestWallBy, offsetAt, utcMillis } from './zone.js';

const utc = (text: string) => Date.parse(text);

describe('zone clocks through Intl (002 §3 timeZone, DESIGN §6)', () => {
  it('knows IANA zone names', () => {
    expect(isValidTimeZone('Europe/London')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('reads offsets, including summer time and historical seconds', () => {
    expect(offsetAt(utc('2025-01-15T12:00:00Z'), 'Europe/London')).toBe(0);
    expect(offsetAt(utc('2025-07-15T12:00:00Z'), 'Europe/London')).toBe(HOUR_MS);
    expect(offsetAt(utc('2025-07-15T12:00:00Z'), 'America/New_York')).toBe(-4 * HOUR_MS);
    expect(offsetAt(utc('2025-07-15T12:00:00.999Z'), 'Asia/Kathmandu')).toBe(5.75 * HOUR_MS);
    expect(offsetAt(utc('1870-01-01T00:00:00Z'), 'America/New_York')).toBe(-(4 * HOUR_MS + 56 * MINUTE_MS + 2000));
  });

  it('builds UTC milliseconds for years below 100 literally', () => {
    expect(new Date(utcMillis(50, 1, 1)).toISOString()).toBe('0050-01-01T00:00:00.000Z');
    expect(new Date(utcMillis(2024, 2, 29, 23, 59)).toISOString()).toBe('2024-02-29T23:59:00.000Z');
  });

  it('maps a wall time to its first occurrence, or to the jump over a gap (London 2025)', () => {
    const wall = (text: string) => Date.parse(`${text}Z`);
    expect(firstInstantAtOrAfter(wall('2025-03-30T01:30:00'), 'Europe/London')).toBe(utc('2025-03-30T01:00:00Z'));
    expect(firstInstantAtOrAfter(wall('2025-03-30T00:59:00'), 'Europe/London')).toBe(utc('2025-03-30T00:59:00Z'));
    expect(firstInstantAtOrAfter(wall('2025-10-26T01:30:00'), 'Europe/London')).toBe(utc('2025-10-26T00:30:00Z'));
    expect(firstInstantAtOrAfter(wall('2025-10-26T02:00:00'), 'Europe/London')).toBe(utc('2025-10-26T02:00:00Z'));
  });

  it('remembers the latest wall time shown, which runs ahead of the clock in the hour after a fall-back', () => {
    const wall = (text: string) => Date.parse(`${text}Z`);
    expect(latestWallBy(utc('2025-10-26T00:30:00Z'), 'Europe/London')).toBe(wall('2025-10-26T01:30:00'));
    // At 01:30 UTC the clock reads 01:30 GMT, but it already showed 01:59:59.999 BST.
    expect(latestWallBy(utc('2025-10-26T01:30:00Z'), 'Europe/London')).toBe(wall('2025-10-26T01:59:59.999'));
    expect(latestWallBy(utc('2025-10-26T02:30:00Z'), 'Europe/London')).toBe(wall('2025-10-26T02:30:00'));
  });
});
