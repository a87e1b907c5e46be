/**
 * Wall clocks of IANA time zones through the built-in Intl API (full ICU in Node 20 and browsers).
 * A "wall time" here is a local date and time written as milliseconds of the same date and time in UTC
 * (so calendar arithmetic is plain UTC arithmetic); an "instant" is an ordinary epoch millisecond.
 *
 * The rule the schedule evaluator builds on (002 §3 timeZone; DESIGN §6: the agent schedules in the
 * machine's zone): a matching wall time W runs at the first instant at which the zone's clock reads W or
 * later. So a time skipped by a spring-forward gap runs once, at the instant the clock jumps over it, and
 * a time repeated by a fall-back runs once, at its first occurrence.
 */

import { DAY_MS, HOUR_MS, NUMERIC_DATE_TIME, SECOND_MS } from '../time.js';

/** Longest span looked back for a fall-back whose repeated wall times may still be ahead. */
const REPEAT_WINDOW = 6 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      ...NUMERIC_DATE_TIME,
    });
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(timeZone, format);
  }
  return format;
}

/** Whether Intl knows the zone name (e.g. 'Europe/London', 'UTC'). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone's offset from UTC at an instant, in milliseconds (whole seconds: historical offsets such as
 * New York's -4:56:02 before 1883 have seconds). Formats "M/D/YYYY, HH:MM:SS" and reads the numbers,
 * which is several times faster than formatToParts.
 */
export function offsetAt(instant: number, timeZone: string): number {
  const text = formatterFor(timeZone).format(instant);
  const numbers = [0, 0, 0, 0, 0, 0];
  let index = 0;
  let inNumber = false;
  for (let i = 0; i < text.length && index < 6; i++) {
    const code = text.charCodeAt(i) - 48;
    if (code >= 0 && code <= 9) {
      numbers[index] = (numbers[index] ?? 0) * 10 + code;
      inNumber = true;
    } else if (inNumber) {
      index++;
      inNumber = false;
    }
  }
  const [month = 1, day = 1, year = 1970, hour = 0, minute = 0, second = 0] = numbers;
  const wall = utcMillis(year, month, day, hour, minute, second);
  return wall - Math.floor(instant / SECOND_MS) * SECOND_MS;
}

/** Milliseconds of a UTC date and time; years below 100 are taken literally (Date.UTC would add 1900). */
export function utcMillis(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

/** The first instant in (low, high] whose offset differs from the offset at low (one change assumed). */
function changeBetween(low: number, high: number, timeZone: string): number {
  const before = offsetAt(low, timeZone);
  let lo = Math.floor(low / SECOND_MS);
  let hi = Math.ceil(high / SECOND_MS);
  // Zone changes happen on whole seconds: search seconds.
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid * SECOND_MS, timeZone) === before) lo = mid;
    else hi = mid;
  }
  return hi * SECOND_MS;
}

/**
 * The latest wall time the zone's clock has shown at or before an instant. It is the wall time of the
 * instant, except during the hour after a fall-back, when the clock reads earlier than it already did.
 */
export function latestWallBy(instant: number, timeZone: string): number {
  const now = offsetAt(instant, timeZone);
  const wall = instant + now;
  const earlier = offsetAt(instant - REPEAT_WINDOW, timeZone);
  if (earlier <= now) return wall;
  const change = changeBetween(instant - REPEAT_WINDOW, instant, timeZone);
  return Math.max(wall, change - 1 + earlier);
}

/**
 * The first instant at which the zone's clock reads `wall` or later: the wall time's first occurrence,
 * or — when a spring-forward gap skips it — the instant of the jump. Assumes at most one offset change
 * within a day of the wall time, which holds for every zone's rules.
 */
export function firstInstantAtOrAfter(wall: number, timeZone: string): number {
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const early = wall - before;
  // The occurrence on the earlier offset comes first, if the wall time has one (the usual case: no change).
  if (offsetAt(early, timeZone) === before) return early;
  const late = wall - after;
  if (offsetAt(late, timeZone) === after) return late;
  // In a gap: the clock jumps from before the wall time to after it at the change.
  return changeBetween(Math.min(early, late), Math.max(early, late), timeZone);
}
