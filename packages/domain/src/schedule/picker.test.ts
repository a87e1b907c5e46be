import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backupScheduleError } from './form.js';
import {
  cronToPicker,
  PERIOD_FIELDS,
  type PickerField,
  pickerField,
  pickerToCron,
  SCHEDULE_PERIODS,
  type SchedulePickerModel,
  schedulePickerModelSchema,
} from './picker.js';
import { CRON_FIELD_BOUNDS, type CronField, SCHEDULE_MESSAGES, validateCron } from './syntax.js';

// --- generators of picker models -------------------------------------------------------------------

function fieldArbitrary(field: CronField): fc.Arbitrary<PickerField> {
  const { min, max } = CRON_FIELD_BOUNDS[field];
  const value = fc.integer({ min, max });
  return fc.oneof(
    fc.constant<PickerField>({ kind: 'every' }),
    fc
      .tuple(value, value, fc.integer({ min: 1, max }))
      .filter(([a, b]) => a !== b)
      .map(([a, b, step]): PickerField => ({ kind: 'range', from: Math.min(a, b), to: Math.max(a, b), step })),
    fc
      .uniqueArray(value, { minLength: 1, maxLength: 8 })
      .map((values): PickerField => ({ kind: 'values', values: [...values].sort((x, y) => x - y) })),
  );
}

const minutes = fieldArbitrary('minute');
const hours = fieldArbitrary('hour');
const monthDays = fieldArbitrary('dayOfMonth');
const weekDays = fieldArbitrary('dayOfWeek');
const months = fieldArbitrary('month');

const modelArbitrary: fc.Arbitrary<SchedulePickerModel> = fc.oneof(
  fc.record({ period: fc.constant('hour' as const), minutes }),
  fc.record({ period: fc.constant('day' as const), minutes, hours }),
  fc.record({ period: fc.constant('week' as const), minutes, hours, weekDays }),
  fc.record({ period: fc.constant('month' as const), minutes, hours, monthDays, weekDays }),
  fc.record({ period: fc.constant('year' as const), minutes, hours, monthDays, weekDays, months }),
);

// ---------------------------------------------------------------------------------------------------

describe('schedule picker model (000 §2 Schedule picker)', () => {
  it('has the five periods of the specification, each showing its fields', () => {
    expect(SCHEDULE_PERIODS).toEqual(['hour', 'day', 'week', 'month', 'year']);
    expect(PERIOD_FIELDS.hour).toEqual(['minutes']);
    expect(PERIOD_FIELDS.year).toEqual(['minutes', 'hours', 'monthDays', 'weekDays', 'months']);
  });

  it('writes the five-field cron, and the Unix variant with a leading seconds field of 0', () => {
    const model: SchedulePickerModel = {
      period: 'week',
      minutes: { kind: 'values', values: [30] },
      hours: { kind: 'values', values: [22] },
      weekDays: { kind: 'range', from: 1, to: 5, step: 1 },
    };
    expect(pickerToCron(model)).toBe('30 22 * * 1-5');
    expect(pickerToCron(model, { unix: true })).toBe('0 30 22 * * 1-5');
    expect(
      pickerToCron({
        period: 'year',
        minutes: { kind: 'range', from: 0, to: 59, step: 15 },
        hours: { kind: 'range', from: 8, to: 20, step: 4 },
        monthDays: { kind: 'values', values: [15, 1, 15] },
        weekDays: { kind: 'every' },
        months: { kind: 'range', from: 1, to: 12, step: 1 },
      }),
    ).toBe('*/15 8-20/4 1,15 1-12 *');
    // An empty selection means "every", as in the usual pickers.
    expect(pickerToCron({ period: 'hour', minutes: { kind: 'values', values: [] } })).toBe('* * * * *');
  });

  it('reads a cron into the smallest period that shows it, or the preferred one', () => {
    expect(cronToPicker('0 2 * * *')).toEqual({
      kind: 'picker',
      model: { period: 'day', minutes: { kind: 'values', values: [0] }, hours: { kind: 'values', values: [2] } },
    });
    expect(cronToPicker('0 2 * * *', 'month')).toMatchObject({
      model: { period: 'month', monthDays: { kind: 'every' }, weekDays: { kind: 'every' } },
    });
    // A preferred period too small for the cron gives way.
    expect(cronToPicker('0 2 1 * *', 'day')).toMatchObject({ model: { period: 'month' } });
    expect(cronToPicker('*/5 * * * *')).toEqual({
      kind: 'picker',
      model: { period: 'hour', minutes: { kind: 'range', from: 0, to: 59, step: 5 } },
    });
    expect(cronToPicker('0 0 * * 1')).toMatchObject({ model: { period: 'week' } });
    expect(cronToPicker('0 0 * 6 *')).toMatchObject({ model: { period: 'year' } });
  });

  it('reads names, Sunday 7, single-value ranges and value/step into picker fields', () => {
    expect(cronToPicker('0 0 * * SUN,7,MON')).toMatchObject({
      model: { weekDays: { kind: 'values', values: [0, 1] } },
    });
    expect(cronToPicker('0 0 * JAN-MAR *')).toMatchObject({
      model: { months: { kind: 'range', from: 1, to: 3, step: 1 } },
    });
    expect(cronToPicker('5-5 10/4 * * *')).toMatchObject({
      model: { minutes: { kind: 'values', values: [5] }, hours: { kind: 'range', from: 10, to: 23, step: 4 } },
    });
    expect(cronToPicker('59/5 * * * *')).toMatchObject({ model: { minutes: { kind: 'values', values: [59] } } });
    expect(cronToPicker('0 0 2 * * * *')).toMatchObject({ kind: 'invalid' });
    expect(cronToPicker('0 0 2 * * *')).toMatchObject({ kind: 'picker', model: { period: 'day' } });
  });

  it("answers 'custom' for a valid cron a single picker field cannot hold, and 'invalid' with the message", () => {
    expect(cronToPicker('0 0 1-5,10 * *')).toEqual({
      kind: 'custom',
      expression: '0 0 1-5,10 * *',
      fields: ['dayOfMonth'],
    });
    expect(cronToPicker('*/15,7 0 * * 5-7')).toEqual({
      kind: 'custom',
      expression: '*/15,7 0 * * 5-7',
      fields: ['minute', 'dayOfWeek'],
    });
    expect(cronToPicker('0 0 * * */7')).toMatchObject({ kind: 'custom', fields: ['dayOfWeek'] });
    expect(cronToPicker('0 0 * * 1-5/7')).toMatchObject({ kind: 'custom', fields: ['dayOfWeek'] });
    expect(cronToPicker('0 0 *')).toEqual({ kind: 'invalid', message: SCHEDULE_MESSAGES.badNumberOfElements });
    expect(cronToPicker('0 0 * * 9')).toEqual({ kind: 'invalid', message: SCHEDULE_MESSAGES.unrecognizedExpression });
  });

  it('gives "every" for a field the period does not show', () => {
    const model: SchedulePickerModel = { period: 'hour', minutes: { kind: 'values', values: [0] } };
    expect(pickerField(model, 'minutes')).toEqual({ kind: 'values', values: [0] });
    expect(pickerField(model, 'months')).toEqual({ kind: 'every' });
  });
});

describe('schedule picker schema (000 §2: a range or a values list, not both; 002 §5.6)', () => {
  it('sorts and de-duplicates values, defaults a range step to 1', () => {
    expect(
      schedulePickerModelSchema.parse({
        period: 'day',
        minutes: { kind: 'values', values: [30, 0, 30] },
        hours: { kind: 'range', from: 1, to: 5 },
      }),
    ).toEqual({
      period: 'day',
      minutes: { kind: 'values', values: [0, 30] },
      hours: { kind: 'range', from: 1, to: 5, step: 1 },
    });
  });

  it('refuses out-of-range values, empty lists, reversed ranges, bad steps and a range with values', () => {
    const bad = [
      { period: 'hour', minutes: { kind: 'values', values: [60] } },
      { period: 'hour', minutes: { kind: 'values', values: [] } },
      { period: 'hour', minutes: { kind: 'range', from: 5, to: 5 } },
      { period: 'hour', minutes: { kind: 'range', from: 6, to: 5 } },
      { period: 'hour', minutes: { kind: 'range', from: 0, to: 59, step: 0 } },
      {
        period: 'week',
        minutes: { kind: 'every' },
        hours: { kind: 'every' },
        weekDays: { kind: 'values', values: [7] },
      },
      { period: 'day', minutes: { kind: 'every' }, hours: { kind: 'values', values: [24] } },
      { period: 'minute', minutes: { kind: 'every' } },
    ];
    for (const model of bad)
      expect(schedulePickerModelSchema.safeParse(model).success, JSON.stringify(model)).toBe(false);
    // A field that is both a range and a list is not a model: the extra keys are not kept.
    const both = schedulePickerModelSchema.parse({
      period: 'hour',
      minutes: { kind: 'range', from: 0, to: 10, step: 1, values: [3] },
    });
    expect(both.minutes).toEqual({ kind: 'range', from: 0, to: 10, step: 1 });
  });

  it('holds every generated model as it is (property)', () => {
    fc.assert(
      fc.property(modelArbitrary, (model) => {
        expect(schedulePickerModelSchema.parse(model)).toEqual(model);
      }),
    );
  });
});

describe('picker round trips (000 §2 Schedule picker, property tests)', () => {
  it('model → cron → model gives the model back', () => {
    fc.assert(
      fc.property(modelArbitrary, (model) => {
        expect(cronToPicker(pickerToCron(model), model.period)).toEqual({ kind: 'picker', model });
      }),
      { numRuns: 500 },
    );
  });

  it('model → Unix variant → model gives the model back', () => {
    fc.assert(
      fc.property(modelArbitrary, (model) => {
        const unix = pickerToCron(model, { unix: true });
        expect(unix.split(' ')).toHaveLength(6);
        expect(unix.startsWith('0 ')).toBe(true);
        expect(cronToPicker(unix, model.period)).toEqual({ kind: 'picker', model });
      }),
      { numRuns: 300 },
    );
  });

  it('every cron the picker writes validates (000 §5), and the task form only refuses what 002 §5.6 says', () => {
    fc.assert(
      fc.property(modelArbitrary, fc.boolean(), (model, unix) => {
        const cron = pickerToCron(model, { unix });
        expect(validateCron(cron)).toBeNull();
        const formError = backupScheduleError(cron);
        const everyField = Object.values(model).every((f) => typeof f === 'string' || f.kind === 'every');
        if (everyField) expect(formError).toBe(SCHEDULE_MESSAGES.selectSchedule);
        else expect([null, SCHEDULE_MESSAGES.selectSchedule, SCHEDULE_MESSAGES.neverRuns]).toContain(formError);
      }),
      { numRuns: 500 },
    );
  });
});
