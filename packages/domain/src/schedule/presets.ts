import { pickerToCron, type SchedulePickerModel } from './picker.js';
import { nextRunAfter } from './runs.js';
import { parseCron, WEEKDAY_NAMES } from './syntax.js';
import { offsetAt } from './zone.js';

/**
 * Schedule presets (issue 31): the common schedules picked in one step beside the five-field picker
 * (000 §2), which they fill. A preset is a picker model, so its cron is the picker's own spelling; the
 * picker stays the one place a schedule is written, and a schedule typed there that has a preset's shape
 * shows as that preset again.
 */
export const SCHEDULE_PRESET_KINDS = ['everyHours', 'daily', 'weekly', 'monthly'] as const;
export type SchedulePresetKind = (typeof SCHEDULE_PRESET_KINDS)[number];

export type SchedulePreset =
  | { readonly kind: 'everyHours'; readonly hours: number; readonly minute: number }
  | { readonly kind: 'daily'; readonly hour: number; readonly minute: number }
  | { readonly kind: 'weekly'; readonly weekDay: number; readonly hour: number; readonly minute: number }
  | { readonly kind: 'monthly'; readonly monthDay: number; readonly hour: number; readonly minute: number };

/**
 * The hour steps 'Every N hours' offers: the divisors of 24, so the runs are evenly spaced through the day and
 * across midnight (a step of 5 would run at 20:00 and then at 00:00).
 */
export const EVERY_N_HOURS_CHOICES = [1, 2, 3, 4, 6, 8, 12] as const;

/** Days of the month a monthly preset offers: 1 to 28, so it runs in every month (a '31' would skip five). */
export const PRESET_LAST_MONTH_DAY = 28;

/** How many run times the form shows for a schedule. */
export const NEXT_RUNS_SHOWN = 5;

export const SCHEDULE_PRESET_TEXTS = {
  label: 'Preset',
  none: 'Choose a preset…',
  kinds: {
    everyHours: 'Every N hours',
    daily: 'Daily at',
    weekly: 'Weekly on … at',
    monthly: 'Monthly on day … at',
  } satisfies Record<SchedulePresetKind, string>,
  hours: 'Every how many hours',
  minute: 'At minute',
  time: 'At (hh:mm)',
  weekDay: 'On',
  monthDay: 'On day',
  nextRunsTitle: (timeZone: string) => `Next ${NEXT_RUNS_SHOWN} runs (${timeZone})`,
  noRuns: 'This schedule never runs.',
} as const;

/** The preset's picker model: only the fields it fixes are restricted, every other one is 'every'. */
export function presetToPicker(preset: SchedulePreset): SchedulePickerModel {
  const minutes = { kind: 'values', values: [preset.minute] } as const;
  switch (preset.kind) {
    case 'everyHours':
      return {
        period: 'day',
        minutes,
        hours: preset.hours === 1 ? { kind: 'every' } : { kind: 'range', from: 0, to: 23, step: preset.hours },
      };
    case 'daily':
      return { period: 'day', minutes, hours: { kind: 'values', values: [preset.hour] } };
    case 'weekly':
      return {
        period: 'week',
        minutes,
        hours: { kind: 'values', values: [preset.hour] },
        weekDays: { kind: 'values', values: [preset.weekDay] },
      };
    case 'monthly':
      return {
        period: 'month',
        minutes,
        hours: { kind: 'values', values: [preset.hour] },
        monthDays: { kind: 'values', values: [preset.monthDay] },
        weekDays: { kind: 'every' },
      };
  }
}

/** The five-field cron a preset fills the picker with. */
export const presetToCron = (preset: SchedulePreset): string => pickerToCron(presetToPicker(preset));

/** A preset with its defaults: on the hour, at 02:00, on Monday, on day 1 (the night's quiet hours). */
export function defaultPreset(kind: SchedulePresetKind): SchedulePreset {
  switch (kind) {
    case 'everyHours':
      return { kind, hours: 6, minute: 0 };
    case 'daily':
      return { kind, hour: 2, minute: 0 };
    case 'weekly':
      return { kind, weekDay: 1, hour: 2, minute: 0 };
    case 'monthly':
      return { kind, monthDay: 1, hour: 2, minute: 0 };
  }
}

const isEvery = (values: readonly number[], size: number) => values.length === size;

/**
 * The preset a schedule is, however it is spelled (every sixth hour as a step or as the list 0,6,12,18 alike), or
 * null when it is none of them; the Unix variant's seconds are ignored.
 */
export function presetOf(expression: string): SchedulePreset | null {
  const parsed = parseCron(expression);
  if (!parsed.ok) return null;
  const s = parsed.schedule;
  const [minute] = s.minutes;
  if (minute === undefined || s.minutes.length !== 1 || !isEvery(s.months, 12)) return null;
  const onEveryDay = !s.dayOfMonthRestricted && !s.dayOfWeekRestricted;
  const [first] = s.hours;
  const step = s.hours.length > 1 ? (s.hours[1] ?? 0) - (first ?? 0) : 24;
  const hours = 24 / s.hours.length;
  if (onEveryDay && first === 0 && s.hours.length > 1 && step === hours && s.hours.every((h, i) => h === i * step)) {
    return (EVERY_N_HOURS_CHOICES as readonly number[]).includes(hours) ? { kind: 'everyHours', hours, minute } : null;
  }
  const [hour] = s.hours;
  if (hour === undefined || s.hours.length !== 1) return null;
  if (onEveryDay) return { kind: 'daily', hour, minute };
  const [weekDay] = s.daysOfWeek;
  if (!s.dayOfMonthRestricted && weekDay !== undefined && s.daysOfWeek.length === 1) {
    return { kind: 'weekly', weekDay, hour, minute };
  }
  const [monthDay] = s.daysOfMonth;
  if (
    !s.dayOfWeekRestricted &&
    monthDay !== undefined &&
    s.daysOfMonth.length === 1 &&
    monthDay <= PRESET_LAST_MONTH_DAY
  ) {
    return { kind: 'monthly', monthDay, hour, minute };
  }
  return null;
}

/** The next `count` runs after `after` in the zone (fewer when the schedule stops running); [] for a bad schedule. */
export function nextRuns(cron: string, after: Date, timeZone: string, count = NEXT_RUNS_SHOWN): Date[] {
  const runs: Date[] = [];
  if (!parseCron(cron).ok) return runs;
  let from = after;
  while (runs.length < count) {
    const next = nextRunAfter(cron, from, timeZone);
    if (next === null) break;
    runs.push(next);
    from = next;
  }
  return runs;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as the zone's clock reads it, 'Mon 2026-12-07 02:30': the same text in every browser and locale, so
 * a schedule's run times read alike for everyone who manages the machine.
 */
export function zoneTimeText(instant: Date, timeZone: string): string {
  const wall = new Date(instant.getTime() + offsetAt(instant.getTime(), timeZone));
  const day = (WEEKDAY_NAMES[wall.getUTCDay()] ?? '').slice(0, 3);
  const date = `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
  return `${day} ${date} ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
}
