import { MINUTE_MS } from '../time.js';
import { type CronSchedule, neverRuns, requireCron } from './syntax.js';
import { firstInstantAtOrAfter, latestWallBy, utcMillis } from './zone.js';

/**
 * When a schedule runs, in the machine's IANA time zone (002 §3 timeZone; DESIGN §6 and §8: the agent
 * runs tasks from their cron, the server detects missed runs and lists the tasks running next).
 *
 * Semantics, fixed here once for the agent, the server and the web:
 * - The fields are matched against the local wall clock of the zone, minute by minute (standard cron).
 * - Day of month and day of week combine with OR when both are restricted, else only the restricted one
 *   counts (see CronSchedule.dayOfMonthRestricted).
 * - A matching wall time runs at the first instant the zone's clock reads it or later. Spring forward:
 *   a local time that does not exist (01:30 in London on the last Sunday of March) runs once at the first
 *   valid instant, the moment of the jump (02:00 BST), so a daily backup is never lost; several skipped
 *   matches collapse into that one run. Fall back: a local time that occurs twice (01:30 in London on the
 *   last Sunday of October) runs once, at its first occurrence.
 * - Searches skip by fields (month, then day, hour, minute), so a yearly schedule costs a handful of
 *   steps, and each answer needs only a few offset look-ups; the search ends at year 9999.
 */

const MIN_YEAR = 1;
const MAX_YEAR = 9999;

interface Tables {
  /** next[v]: the smallest chosen value >= v, or -1; prev[v]: the largest chosen value <= v, or -1. */
  readonly nextMinute: Int8Array;
  readonly prevMinute: Int8Array;
  readonly nextHour: Int8Array;
  readonly prevHour: Int8Array;
  readonly nextDay: Int8Array;
  readonly prevDay: Int8Array;
  readonly nextMonth: Int8Array;
  readonly prevMonth: Int8Array;
  readonly weekdays: Uint8Array;
  readonly dayOfMonthRestricted: boolean;
  readonly dayOfWeekRestricted: boolean;
  readonly never: boolean;
}

const tableCache = new WeakMap<CronSchedule, Tables>();

function lookups(values: readonly number[], last: number): [Int8Array, Int8Array] {
  const chosen = new Uint8Array(last + 2);
  for (const v of values) chosen[v] = 1;
  const next = new Int8Array(last + 2).fill(-1);
  const prev = new Int8Array(last + 2).fill(-1);
  for (let v = last, n = -1; v >= 0; v--) {
    if (chosen[v]) n = v;
    next[v] = n;
  }
  for (let v = 0, p = -1; v <= last; v++) {
    if (chosen[v]) p = v;
    prev[v] = p;
  }
  return [next, prev];
}

function tablesOf(schedule: CronSchedule): Tables {
  let tables = tableCache.get(schedule);
  if (!tables) {
    const [nextMinute, prevMinute] = lookups(schedule.minutes, 59);
    const [nextHour, prevHour] = lookups(schedule.hours, 23);
    const [nextDay, prevDay] = lookups(schedule.daysOfMonth, 31);
    const [nextMonth, prevMonth] = lookups(schedule.months, 12);
    const weekdays = new Uint8Array(7);
    for (const d of schedule.daysOfWeek) weekdays[d] = 1;
    tables = {
      nextMinute,
      prevMinute,
      nextHour,
      prevHour,
      nextDay,
      prevDay,
      nextMonth,
      prevMonth,
      weekdays,
      dayOfMonthRestricted: schedule.dayOfMonthRestricted,
      dayOfWeekRestricted: schedule.dayOfWeekRestricted,
      never: neverRuns(schedule),
    };
    tableCache.set(schedule, tables);
  }
  return tables;
}

const at = (table: Int8Array, index: number) => table[index] ?? -1;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Day of week (0 = Sunday) in the proleptic Gregorian calendar (Sakamoto's method). */
function weekday(year: number, month: number, day: number): number {
  const offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
  const y = month < 3 ? year - 1 : year;
  return (y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) + (offsets[month - 1] ?? 0) + day) % 7;
}

/** The first day >= day of the month that the day fields accept, or -1. */
function nextDayIn(t: Tables, year: number, month: number, day: number): number {
  const length = daysInMonth(year, month);
  if (day > length) return -1;
  if (!t.dayOfMonthRestricted && !t.dayOfWeekRestricted) return day;
  let best = -1;
  if (t.dayOfMonthRestricted) {
    const candidate = at(t.nextDay, day);
    if (candidate >= 0 && candidate <= length) best = candidate;
  }
  if (t.dayOfWeekRestricted) {
    const limit = Math.min(best < 0 ? length : best - 1, day + 6);
    for (let d = day, w = weekday(year, month, day); d <= limit; d++, w = (w + 1) % 7) {
      if (t.weekdays[w]) return d;
    }
  }
  return best;
}

/** The last day <= day of the month that the day fields accept, or -1. */
function previousDayIn(t: Tables, year: number, month: number, day: number): number {
  const last = Math.min(day, daysInMonth(year, month));
  if (last < 1) return -1;
  if (!t.dayOfMonthRestricted && !t.dayOfWeekRestricted) return last;
  let best = -1;
  if (t.dayOfMonthRestricted) best = at(t.prevDay, last);
  if (t.dayOfWeekRestricted) {
    const limit = Math.max(best < 0 ? 1 : best + 1, last - 6);
    for (let d = last, w = weekday(year, month, last); d >= limit; d--, w = (w + 6) % 7) {
      if (t.weekdays[w]) return d;
    }
  }
  return best;
}

/** A wall time's year, month (1-12), day, hour and minute. */
function wallFields(wall: number): [number, number, number, number, number] {
  const date = new Date(wall);
  return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()];
}

/** The first matching wall minute at or after `start` (a whole-minute wall time), or null. */
function nextWall(t: Tables, start: number): number | null {
  let [year, month, day, hour, minute] = wallFields(start);
  while (year <= MAX_YEAR) {
    const m = at(t.nextMonth, month);
    if (m < 0) {
      [year, month, day, hour, minute] = [year + 1, 1, 1, 0, 0];
      continue;
    }
    if (m !== month) [month, day, hour, minute] = [m, 1, 0, 0];
    const d = nextDayIn(t, year, month, day);
    if (d < 0) {
      [month, day, hour, minute] = [month + 1, 1, 0, 0];
      continue;
    }
    if (d !== day) [day, hour, minute] = [d, 0, 0];
    const h = at(t.nextHour, hour);
    if (h < 0) {
      [day, hour, minute] = [day + 1, 0, 0];
      continue;
    }
    if (h !== hour) [hour, minute] = [h, 0];
    const mi = at(t.nextMinute, minute);
    if (mi < 0) {
      [hour, minute] = [hour + 1, 0];
      continue;
    }
    return utcMillis(year, month, day, hour, mi);
  }
  return null;
}

/** The last matching wall minute at or before `end` (a whole-minute wall time), or null. */
function previousWall(t: Tables, end: number): number | null {
  let [year, month, day, hour, minute] = wallFields(end);
  while (year >= MIN_YEAR) {
    const m = at(t.prevMonth, month);
    if (m < 0) {
      [year, month, day, hour, minute] = [year - 1, 12, 31, 23, 59];
      continue;
    }
    if (m !== month) [month, day, hour, minute] = [m, 31, 23, 59];
    const d = previousDayIn(t, year, month, day);
    if (d < 0) {
      [month, day, hour, minute] = [month - 1, 31, 23, 59];
      continue;
    }
    if (d !== day) [day, hour, minute] = [d, 23, 59];
    const h = at(t.prevHour, hour);
    if (h < 0) {
      [day, hour, minute] = [day - 1, 23, 59];
      continue;
    }
    if (h !== hour) [hour, minute] = [h, 59];
    const mi = at(t.prevMinute, minute);
    if (mi < 0) {
      [hour, minute] = [hour - 1, 59];
      continue;
    }
    return utcMillis(year, month, day, hour, mi);
  }
  return null;
}

function instantOf(date: Date): number {
  const instant = date.getTime();
  if (Number.isNaN(instant)) throw new RangeError('Invalid date');
  return instant;
}

const floorMinute = (wall: number) => Math.floor(wall / MINUTE_MS) * MINUTE_MS;

/**
 * The first run strictly after `after` in the zone, or null when the schedule never runs (30 February)
 * or not before the year 9999. Throws CronSyntaxError for an invalid expression and RangeError for an
 * unknown zone or an invalid date.
 */
export function nextRunAfter(cron: string | CronSchedule, after: Date, timeZone: string): Date | null {
  const t = tablesOf(requireCron(cron));
  const from = instantOf(after);
  if (t.never) return null;
  // Wall times the clock has already shown by `after` ran at or before it (even when a fall-back has
  // turned the clock back since), so the search starts after the latest one.
  const wall = nextWall(t, floorMinute(latestWallBy(from, timeZone)) + MINUTE_MS);
  return wall === null ? null : new Date(firstInstantAtOrAfter(wall, timeZone));
}

/**
 * The last run strictly before `before` in the zone, or null: what missed-run detection compares with
 * the last run that started (DESIGN §8).
 */
export function previousRunBefore(cron: string | CronSchedule, before: Date, timeZone: string): Date | null {
  const t = tablesOf(requireCron(cron));
  const until = instantOf(before);
  if (t.never) return null;
  const wall = previousWall(t, floorMinute(latestWallBy(until - 1, timeZone)));
  return wall === null ? null : new Date(firstInstantAtOrAfter(wall, timeZone));
}

/**
 * The runs in (from, to], oldest first, at most `limit` of them: the same instants as chaining
 * nextRunAfter, computed in one pass.
 */
export function runsBetween(cron: string | CronSchedule, from: Date, to: Date, timeZone: string, limit = 1000): Date[] {
  const t = tablesOf(requireCron(cron));
  const start = instantOf(from);
  const end = instantOf(to);
  const runs: Date[] = [];
  if (t.never || end <= start) return runs;
  let wall = nextWall(t, floorMinute(latestWallBy(start, timeZone)) + MINUTE_MS);
  let last = start;
  while (wall !== null && runs.length < limit) {
    const instant = firstInstantAtOrAfter(wall, timeZone);
    if (instant > end) break;
    // Matches skipped by a spring-forward gap share the instant of the jump: one run.
    if (instant > last) runs.push(new Date(instant));
    last = instant;
    wall = nextWall(t, wall + MINUTE_MS);
  }
  return runs;
}

/**
 * How long after its scheduled time a run may start before the task's last execution counts as
 * missed (DESIGN §8; ours: agents start on the minute, a busy machine or a slow reconnect gets slack).
 */
export const MISSED_RUN_GRACE_MINUTES = 15;

/**
 * The run the server expects next for a task: only an ACTIVE task is expected to run; a schedule that
 * never runs, or one that cannot be read, expects nothing rather than failing the caller.
 */
export function expectedNextRun(
  task: { status: string; scheduleCron: string },
  after: Date,
  timeZone: string,
): Date | null {
  if (task.status !== 'ACTIVE') return null;
  try {
    return nextRunAfter(task.scheduleCron, after, timeZone);
  } catch {
    return null;
  }
}
