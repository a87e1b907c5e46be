import { type CronSchedule, MONTH_NAMES, requireCron, WEEKDAY_NAMES } from './syntax.js';

/**
 * The English sentence shown for a schedule: scheduleDescription / backupScheduleDescription of a task
 * (000 §3, 002 §3) and the picker's read-back. It is computed from the values each field selects, not
 * from the spelling, so '1-5' and 'MON-FRI', or '*\/15' and '0,15,30,45', read the same. Deterministic:
 * the same schedule always gives the same text.
 *
 * Shapes, most specific first:
 * - a few clock times a day: '<days> at <times>' — 'Every day at 02:00', 'Every weekday (Monday to
 *   Friday) at 22:30', 'On day 1 of every month at 01:00', 'Every Monday, Wednesday and Friday at 20:00';
 * - otherwise a recurrence, then the days when restricted: 'Every 4 hours', 'Every hour', 'Every 15
 *   minutes, every weekday (Monday to Friday)', 'Every hour from 09:00 to 17:00, in January'.
 * Lists read 'a, b and c'; three or more consecutive values read 'a to c' (both included).
 */

const MAX_CLOCK_TIMES = 6;

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (hour: number, minute: number) => `${pad(hour)}:${pad(minute)}`;
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The values as a list where three or more consecutive values read 'first to last'. */
function runList(values: readonly number[], name: (value: number) => string): string {
  const items: string[] = [];
  let i = 0;
  while (i < values.length) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === (values[j] ?? 0) + 1) j++;
    const first = values[i] ?? 0;
    const last = values[j] ?? 0;
    if (j - i >= 2) items.push(`${name(first)} to ${name(last)}`);
    else for (let k = i; k <= j; k++) items.push(name(values[k] ?? 0));
    i = j + 1;
  }
  return joinList(items);
}

const counted = (values: readonly number[], one: string) =>
  `${one}${values.length === 1 ? '' : 's'} ${runList(values, String)}`;

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A constant step of 2 or more through at least three values, or null. */
function progression(values: readonly number[]): { first: number; step: number; last: number } | null {
  const first = values[0] ?? 0;
  const step = (values[1] ?? first) - first;
  if (values.length < 3 || step < 2) return null;
  if (!values.every((v, i) => v === first + i * step)) return null;
  return { first, step, last: values.at(-1) ?? first };
}

/** The step when the values are 0, step, 2*step... through a whole cycle of `size`, else null. */
function cycleStep(values: readonly number[], size: number, minimumCount: number): number | null {
  const step = values[1] ?? 0;
  if (values.length < minimumCount || values[0] !== 0 || step < 2 || size % step !== 0) return null;
  return values.length === size / step && values.every((v, i) => v === i * step) ? step : null;
}

const monthName = (month: number) => MONTH_NAMES[month - 1] ?? String(month);
const weekdayName = (day: number) => WEEKDAY_NAMES[day] ?? String(day);

function weekdaysText(days: readonly number[]): string {
  if (days.join() === '1,2,3,4,5') return 'every weekday (Monday to Friday)';
  // Monday first, as a week is usually read; Saturday and Sunday then sit together.
  const mondayFirst = days.map((d) => (d + 6) % 7).sort((a, b) => a - b);
  return `every ${runList(mondayFirst, (i) => weekdayName((i + 1) % 7))}`;
}

function monthDaysText(days: readonly number[]): string {
  const steps = progression(days);
  if (steps && steps.first === 1 && steps.last + steps.step > 31) return `every ${ordinal(steps.step)} day`;
  return counted(days, 'day');
}

/** The days part, lower case, or null for every day of every month. */
function daysPhrase(s: CronSchedule): string | null {
  const months = s.months.length === 12 ? null : runList(s.months, monthName);
  if (!s.dayOfMonthRestricted && !s.dayOfWeekRestricted) return months ? `every day in ${months}` : null;
  const weekdays = weekdaysText(s.daysOfWeek);
  if (!s.dayOfMonthRestricted) return months ? `${weekdays} in ${months}` : weekdays;
  const days = monthDaysText(s.daysOfMonth);
  if (!s.dayOfWeekRestricted) return `on ${days} of ${months ?? 'every month'}`;
  // Both day fields restricted: either one makes a day (standard cron).
  return months ? `on ${days} and ${weekdays} in ${months}` : `on ${days} of every month and ${weekdays}`;
}

/** The clock times of the day, when the schedule runs at a few fixed times; else null. */
function clockTimes(s: CronSchedule): string[] | null {
  const { minutes, hours } = s;
  if (minutes.length === 60 || hours.length === 24 || cycleStep(hours, 24, 3) !== null) return null;
  if (minutes.length * hours.length > MAX_CLOCK_TIMES) return null;
  return hours.flatMap((h) => minutes.map((m) => clock(h, m)));
}

/** How often within a day, for schedules that are not a few clock times. */
function recurrence(s: CronSchedule): string {
  const { minutes, hours } = s;
  const everyMinute = minutes.length === 60;
  const minuteStep = cycleStep(minutes, 60, 2);
  const onTheHour = minutes.length === 1 && minutes[0] === 0;
  const minutesList = counted(minutes, 'minute');
  if (hours.length === 24) {
    if (everyMinute) return 'Every minute';
    if (minuteStep) return `Every ${minuteStep} minutes`;
    return onTheHour ? 'Every hour' : `Every hour at ${minutesList}`;
  }
  const hourStep = cycleStep(hours, 24, 3);
  if (hourStep) {
    if (everyMinute) return `Every minute of every ${ordinal(hourStep)} hour`;
    if (minuteStep) return `Every ${minuteStep} minutes of every ${ordinal(hourStep)} hour`;
    return onTheHour ? `Every ${hourStep} hours` : `Every ${hourStep} hours at ${minutesList}`;
  }
  const hoursList = counted(hours, 'hour');
  if (everyMinute) return `Every minute during ${hoursList}`;
  if (minuteStep) return `Every ${minuteStep} minutes during ${hoursList}`;
  const [minute] = minutes;
  const first = hours[0] ?? 0;
  const last = hours.at(-1) ?? 0;
  if (minutes.length === 1 && minute !== undefined) {
    if (last - first === hours.length - 1) return `Every hour from ${clock(first, minute)} to ${clock(last, minute)}`;
    const steps = progression(hours);
    if (steps) return `Every ${steps.step} hours from ${clock(first, minute)} to ${clock(last, minute)}`;
  }
  return `At ${minutesList} of ${hoursList}`;
}

/**
 * The description of a schedule (five fields or the six-field Unix variant). Throws CronSyntaxError
 * for an invalid expression; validate first where the text comes from a user.
 */
export function describeCron(cron: string | CronSchedule): string {
  const schedule = requireCron(cron);
  const days = daysPhrase(schedule);
  const times = clockTimes(schedule);
  if (times) return `${capitalise(days ?? 'every day')} at ${joinList(times)}`;
  const often = recurrence(schedule);
  return days ? `${often}, ${days}` : often;
}
