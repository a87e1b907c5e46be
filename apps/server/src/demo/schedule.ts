/**
 * Schedules of the demo tasks and a small five-field cron evaluator to fill backup_tasks.next_run_at.
 * It only has to understand the demo's own expressions (numbers, lists, ranges, steps and '*'); the
 * scheduler proper lives with the jobs and recomputes next runs anyway.
 */

export interface DemoSchedule {
  cron: string;
  description: string;
  /** Roughly how far apart runs are, to lay out a believable run history. */
  periodHours: number;
}

export const DEMO_SCHEDULES: readonly DemoSchedule[] = [
  { cron: '0 2 * * *', description: 'Every day at 02:00', periodHours: 24 },
  { cron: '30 22 * * 1-5', description: 'Every weekday (Monday to Friday) at 22:30', periodHours: 24 },
  { cron: '0 */4 * * *', description: 'Every 4 hours', periodHours: 4 },
  { cron: '15 1 * * *', description: 'Every day at 01:15', periodHours: 24 },
  { cron: '0 12,18 * * *', description: 'Every day at 12:00 and 18:00', periodHours: 12 },
  { cron: '0 3 * * 0', description: 'Every Sunday at 03:00', periodHours: 168 },
  { cron: '45 23 * * *', description: 'Every day at 23:45', periodHours: 24 },
  { cron: '0 * * * *', description: 'Every hour', periodHours: 1 },
  { cron: '0 1 1 * *', description: 'On day 1 of every month at 01:00', periodHours: 720 },
  { cron: '0 20 * * 1,3,5', description: 'Every Monday, Wednesday and Friday at 20:00', periodHours: 48 },
];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function parseField(field: string, min: number, max: number): number[] {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const [range = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let from = min;
    let to = max;
    if (range !== '*') {
      const [a = '', b] = range.split('-');
      from = Number(a);
      to = b === undefined ? (stepText === undefined ? from : max) : Number(b);
    }
    if (![from, to, step].every(Number.isInteger) || step < 1 || from < min || to > max || from > to) {
      throw new Error(`unsupported cron field '${field}'`);
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return [...values].sort((x, y) => x - y);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time of an instant in a zone, expressed as milliseconds of a UTC date. */
function wallClock(instant: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(format.formatToParts(instant).find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

function wallToInstant(wall: number, timeZone: string): number {
  const guess = wall - (wallClock(wall, timeZone) - wall);
  return wall - (wallClock(guess, timeZone) - guess);
}

/** The first time after `after` that the cron expression matches in the given IANA zone. */
export function nextCronRun(cron: string, timeZone: string, after: Date): Date | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`cron must have five fields: '${cron}'`);
  const [minuteField = '', hourField = '', domField = '', monthField = '', dowField = ''] = fields;
  const minutes = parseField(minuteField, 0, 59);
  const hours = parseField(hourField, 0, 23);
  const doms = new Set(parseField(domField, 1, 31));
  const months = new Set(parseField(monthField, 1, 12));
  const dows = new Set(parseField(dowField, 0, 7).map((d) => d % 7));
  const anyDom = domField === '*';
  const anyDow = dowField === '*';

  const start = Math.floor(wallClock(after.getTime(), timeZone) / MINUTE) * MINUTE + MINUTE;
  const firstDay = Math.floor(start / DAY) * DAY;
  for (let day = firstDay; day < firstDay + 400 * DAY; day += DAY) {
    const date = new Date(day);
    if (!months.has(date.getUTCMonth() + 1)) continue;
    const domMatch = doms.has(date.getUTCDate());
    const dowMatch = dows.has(date.getUTCDay());
    // Standard cron: when both day fields are restricted, either may match.
    const dayMatch = anyDom && anyDow ? true : anyDom ? dowMatch : anyDow ? domMatch : domMatch || dowMatch;
    if (!dayMatch) continue;
    for (const hour of hours) {
      for (const minute of minutes) {
        const wall = day + hour * 60 * MINUTE + minute * MINUTE;
        if (wall < start) continue;
        const instant = wallToInstant(wall, timeZone);
        if (instant > after.getTime()) return new Date(instant);
      }
    }
  }
  return null;
}

/** Every time the cron expression matches in the zone within (from, to], oldest first. */
export function cronOccurrences(cron: string, timeZone: string, from: Date, to: Date, limit = 1000): Date[] {
  const out: Date[] = [];
  let cursor = from;
  while (out.length < limit) {
    const next = nextCronRun(cron, timeZone, cursor);
    if (!next || next > to) break;
    out.push(next);
    cursor = next;
  }
  return out;
}
