import { z } from 'zod';
import { CRON_FIELD_BOUNDS, type CronField, type CronFieldPart, type CronSyntaxMessage, parseCron } from './syntax.js';

/**
 * The schedule picker's model (000 §2 'Schedule picker', 002 §5.6). The picker works on a period
 * (hour, day, week, month, year: the period enumeration of 001 §3) and shows the fields that period
 * needs; each field is "every", one range (with an optional step) or one list of values — never a range
 * and a list together, which the discriminated union below makes impossible to write.
 */
export const SCHEDULE_PERIODS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type SchedulePeriod = (typeof SCHEDULE_PERIODS)[number];

/** One field of the picker: every value, one range from..to (from < to) every `step`, or a value list. */
export type PickerField =
  | { readonly kind: 'every' }
  | { readonly kind: 'range'; readonly from: number; readonly to: number; readonly step: number }
  | { readonly kind: 'values'; readonly values: readonly number[] };

/** The picker's field names, and the cron field each one fills. */
export const PICKER_FIELDS = {
  minutes: 'minute',
  hours: 'hour',
  monthDays: 'dayOfMonth',
  months: 'month',
  weekDays: 'dayOfWeek',
} as const satisfies Record<string, CronField>;
export type PickerFieldName = keyof typeof PICKER_FIELDS;

/**
 * The fields each period shows (the usual cron picker layout): an hourly schedule picks minutes; a
 * daily one adds hours; weekly adds weekdays; monthly adds days of the month; yearly adds months.
 * Fields a period does not show are "every".
 */
export const PERIOD_FIELDS = {
  hour: ['minutes'],
  day: ['minutes', 'hours'],
  week: ['minutes', 'hours', 'weekDays'],
  month: ['minutes', 'hours', 'monthDays', 'weekDays'],
  year: ['minutes', 'hours', 'monthDays', 'weekDays', 'months'],
} as const satisfies Record<SchedulePeriod, readonly PickerFieldName[]>;

export type SchedulePickerModel =
  | { readonly period: 'hour'; readonly minutes: PickerField }
  | { readonly period: 'day'; readonly minutes: PickerField; readonly hours: PickerField }
  | {
      readonly period: 'week';
      readonly minutes: PickerField;
      readonly hours: PickerField;
      readonly weekDays: PickerField;
    }
  | {
      readonly period: 'month';
      readonly minutes: PickerField;
      readonly hours: PickerField;
      readonly monthDays: PickerField;
      readonly weekDays: PickerField;
    }
  | {
      readonly period: 'year';
      readonly minutes: PickerField;
      readonly hours: PickerField;
      readonly monthDays: PickerField;
      readonly weekDays: PickerField;
      readonly months: PickerField;
    };

const sortedDistinct = (values: readonly number[]) => [...new Set(values)].sort((a, b) => a - b);

/**
 * Schema of one picker field. Values lists are sorted and de-duplicated (the order a user ticks boxes
 * in means nothing); a range needs from < to (a single value is a one-value list) and a step between 1
 * and the field's largest value, as in cron.
 */
export function pickerFieldSchema(field: CronField) {
  const { min, max } = CRON_FIELD_BOUNDS[field];
  const value = z.number().int().min(min).max(max);
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('every') }),
    z
      .object({
        kind: z.literal('range'),
        from: value,
        to: value,
        step: z.number().int().min(1).max(max).default(1),
      })
      .refine((range) => range.from < range.to, { message: 'The range must end after it starts', path: ['to'] }),
    z.object({ kind: z.literal('values'), values: z.array(value).min(1).transform(sortedDistinct) }),
  ]);
}

const minutesSchema = pickerFieldSchema('minute');
const hoursSchema = pickerFieldSchema('hour');
const monthDaysSchema = pickerFieldSchema('dayOfMonth');
const weekDaysSchema = pickerFieldSchema('dayOfWeek');
const monthsSchema = pickerFieldSchema('month');

/**
 * The picker model as the web form holds it and the server may accept it (000 §2); its output is a
 * SchedulePickerModel (checked at compile time by the `satisfies`).
 */
export const schedulePickerModelSchema = z.discriminatedUnion('period', [
  z.object({ period: z.literal('hour'), minutes: minutesSchema }),
  z.object({ period: z.literal('day'), minutes: minutesSchema, hours: hoursSchema }),
  z.object({ period: z.literal('week'), minutes: minutesSchema, hours: hoursSchema, weekDays: weekDaysSchema }),
  z.object({
    period: z.literal('month'),
    minutes: minutesSchema,
    hours: hoursSchema,
    monthDays: monthDaysSchema,
    weekDays: weekDaysSchema,
  }),
  z.object({
    period: z.literal('year'),
    minutes: minutesSchema,
    hours: hoursSchema,
    monthDays: monthDaysSchema,
    weekDays: weekDaysSchema,
    months: monthsSchema,
  }),
]) satisfies z.ZodType<SchedulePickerModel>;

const EVERY: PickerField = { kind: 'every' };

/** A model's field, "every" for the fields its period does not show. */
export function pickerField(model: SchedulePickerModel, name: PickerFieldName): PickerField {
  const fields: Partial<Record<PickerFieldName, PickerField>> = model;
  return fields[name] ?? EVERY;
}

function fieldText(field: PickerField, cronField: CronField): string {
  const { min, max } = CRON_FIELD_BOUNDS[cronField];
  switch (field.kind) {
    case 'every':
      return '*';
    case 'values':
      // An empty selection means "every", as in the usual cron pickers; the schema never yields one.
      return field.values.length === 0 ? '*' : sortedDistinct(field.values).join(',');
    case 'range':
      if (field.step === 1) return `${field.from}-${field.to}`;
      if (field.from === min && field.to === max) return `*/${field.step}`;
      return `${field.from}-${field.to}/${field.step}`;
  }
}

/**
 * The five-field cron of a picker model (000 §2), or the six-field Unix variant with `{ unix: true }`
 * (a leading seconds field of 0). The model should have passed schedulePickerModelSchema.
 */
export function pickerToCron(model: SchedulePickerModel, options: { unix?: boolean } = {}): string {
  const text = (name: PickerFieldName) => fieldText(pickerField(model, name), PICKER_FIELDS[name]);
  const five = [text('minutes'), text('hours'), text('monthDays'), text('months'), text('weekDays')].join(' ');
  return options.unix ? `0 ${five}` : five;
}

/** The picker field for one cron field as written, or null when a single picker field cannot hold it. */
function pickerFieldOf(parts: readonly CronFieldPart[], cronField: CronField): PickerField | null {
  const { max } = CRON_FIELD_BOUNDS[cronField];
  const range = (from: number, to: number, step: number): PickerField | null =>
    to > max || step > max
      ? null
      : from === to
        ? { kind: 'values', values: [from] }
        : { kind: 'range', from, to, step };
  const [only] = parts;
  if (only && parts.length === 1) {
    if (only.kind === 'any') return only.step === 1 ? EVERY : range(CRON_FIELD_BOUNDS[cronField].min, max, only.step);
    if (only.kind === 'range') return range(only.from, only.to, only.step);
    if (only.step !== null) return range(only.value, max, only.step);
  }
  const values: number[] = [];
  for (const part of parts) {
    if (part.kind !== 'value' || part.step !== null) return null;
    values.push(cronField === 'dayOfWeek' && part.value === 7 ? 0 : part.value);
  }
  return { kind: 'values', values: sortedDistinct(values) };
}

export type CronToPickerResult =
  | { readonly kind: 'picker'; readonly model: SchedulePickerModel }
  /**
   * A valid schedule the picker cannot show as it is written: a field mixing ranges or steps with other
   * parts ('1-5,10', '*\/15,7') or a day-of-week range through 7. The picker shows such a schedule as a
   * custom expression (text and description) rather than rewriting it; picking anew replaces it.
   */
  | { readonly kind: 'custom'; readonly expression: string; readonly fields: readonly CronField[] }
  | { readonly kind: 'invalid'; readonly message: CronSyntaxMessage };

const PERIOD_ORDER: readonly SchedulePeriod[] = SCHEDULE_PERIODS;

/**
 * The picker model of a cron expression (five fields, or the six-field Unix variant). The period is
 * `preferredPeriod` when that period shows every restricted field (so a picker keeps the period the
 * user chose), otherwise the smallest period that does.
 */
export function cronToPicker(expression: string, preferredPeriod?: SchedulePeriod): CronToPickerResult {
  const parsed = parseCron(expression);
  if (!parsed.ok) return { kind: 'invalid', message: parsed.message };
  const { schedule } = parsed;
  const fields: Partial<Record<PickerFieldName, PickerField>> = {};
  const custom: CronField[] = [];
  for (const [name, cronField] of Object.entries(PICKER_FIELDS) as [PickerFieldName, CronField][]) {
    const field = pickerFieldOf(schedule.parts[cronField], cronField);
    if (field) fields[name] = field;
    else custom.push(cronField);
  }
  if (custom.length > 0) return { kind: 'custom', expression: schedule.expression, fields: custom };
  const get = (name: PickerFieldName) => fields[name] ?? EVERY;
  const shown = (name: PickerFieldName) => get(name).kind !== 'every';
  const smallest: SchedulePeriod = shown('months')
    ? 'year'
    : shown('monthDays')
      ? 'month'
      : shown('weekDays')
        ? 'week'
        : shown('hours')
          ? 'day'
          : 'hour';
  const period =
    preferredPeriod && PERIOD_ORDER.indexOf(preferredPeriod) >= PERIOD_ORDER.indexOf(smallest)
      ? preferredPeriod
      : smallest;
  const model = buildModel(period, get);
  return { kind: 'picker', model };
}

function buildModel(period: SchedulePeriod, get: (name: PickerFieldName) => PickerField): SchedulePickerModel {
  const minutes = get('minutes');
  switch (period) {
    case 'hour':
      return { period, minutes };
    case 'day':
      return { period, minutes, hours: get('hours') };
    case 'week':
      return { period, minutes, hours: get('hours'), weekDays: get('weekDays') };
    case 'month':
      return { period, minutes, hours: get('hours'), monthDays: get('monthDays'), weekDays: get('weekDays') };
    case 'year':
      return {
        period,
        minutes,
        hours: get('hours'),
        monthDays: get('monthDays'),
        weekDays: get('weekDays'),
        months: get('months'),
      };
  }
}
