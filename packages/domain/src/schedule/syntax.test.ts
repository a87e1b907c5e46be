import { describe, expect, it } from 'vitest';
import {
  CronSyntaxError,
  cronElements,
  isUnixCron,
  neverRuns,
  parseCron,
  requireCron,
  SCHEDULE_MESSAGES,
  sameSchedule,
  toFiveFieldCron,
  toUnixCron,
  validateCron,
} from './syntax.js';

const BAD_COUNT = 'Bad number of elements';
const UNRECOGNIZED = 'Unrecognized expression';

function schedule(expression: string) {
  const result = parseCron(expression);
  if (!result.ok) throw new Error(`expected '${expression}' to parse: ${result.message}`);
  return result.schedule;
}

describe('schedule syntax messages (000 §5 Schedule picker)', () => {
  it('spells the two picker messages exactly', () => {
    expect(SCHEDULE_MESSAGES.badNumberOfElements).toBe(BAD_COUNT);
    expect(SCHEDULE_MESSAGES.unrecognizedExpression).toBe(UNRECOGNIZED);
  });

  it.each([
    '',
    '   ',
    '*',
    '0 2 * *',
    '0 0 2 * * * *',
    '@daily',
  ])("answers 'Bad number of elements' for %j", (expression) => {
    expect(validateCron(expression)).toBe(BAD_COUNT);
  });

  it.each([
    ['60 * * * *', 'minute', 'minute out of range'],
    ['* 24 * * *', 'hour', 'hour out of range'],
    ['* * 0 * *', 'dayOfMonth', 'day of month 0'],
    ['* * 32 * *', 'dayOfMonth', 'day of month 32'],
    ['* * * 13 *', 'month', 'month 13'],
    ['* * * 0 *', 'month', 'month 0'],
    ['* * * * 8', 'dayOfWeek', 'day of week 8'],
    ['5-1 * * * *', 'minute', 'reversed range'],
    ['* * * * FRI-MON', 'dayOfWeek', 'reversed named range'],
    ['*/0 * * * *', 'minute', 'step 0'],
    ['*/60 * * * *', 'minute', 'step above the largest minute'],
    ['1-5/ * * * *', 'minute', 'empty step'],
    ['/5 * * * *', 'minute', 'step without a base'],
    ['*/x * * * *', 'minute', 'step not a number'],
    ['1,,2 * * * *', 'minute', 'empty list item'],
    ['1, * * * *', 'minute', 'trailing comma'],
    ['1-2-3 * * * *', 'minute', 'double range'],
    ['-5 * * * *', 'minute', 'negative number'],
    ['5- * * * *', 'minute', 'open range'],
    ['*-5 * * * *', 'minute', 'star in a range'],
    ['1.5 * * * *', 'minute', 'decimal'],
    ['005 * * * *', 'minute', 'three digits'],
    ['a * * * *', 'minute', 'letters'],
    ['* * ? * *', 'dayOfMonth', "Quartz '?'"],
    ['* * L * *', 'dayOfMonth', "Quartz 'L'"],
    ['* * * * 1#2', 'dayOfWeek', "Quartz '#'"],
    ['* * * MON *', 'month', 'weekday name as month'],
    ['* * * * JAN', 'dayOfWeek', 'month name as weekday'],
    ['* * * * 7/2', 'dayOfWeek', 'Sunday 7 with a step runs past Saturday'],
    ['* JAN * * *', 'hour', 'month name as hour'],
  ] as const)("answers 'Unrecognized expression' for %j (%s: %s)", (expression, field, _why) => {
    const result = parseCron(expression);
    expect(result).toEqual({ ok: false, message: UNRECOGNIZED, field });
    expect(validateCron(expression)).toBe(UNRECOGNIZED);
  });

  it('accepts the six-field Unix variant only with a seconds field of 0 (000 §2)', () => {
    expect(validateCron('0 0 2 * * *')).toBeNull();
    expect(validateCron('00 0 2 * * *')).toBeNull();
    for (const seconds of ['*', '30', '0-5', '*/2', '60', 'x']) {
      expect(parseCron(`${seconds} 0 2 * * *`)).toEqual({ ok: false, message: UNRECOGNIZED, field: 'second' });
    }
  });
});

describe('schedule values (000 §2: minutes 0-59, hours 0-23, day of month 1-31, weekdays, months)', () => {
  it('expands values, lists, ranges and steps to sorted distinct values', () => {
    const s = schedule('*/15 1-5/2 1,15,1 * *');
    expect(s.minutes).toEqual([0, 15, 30, 45]);
    expect(s.hours).toEqual([1, 3, 5]);
    expect(s.daysOfMonth).toEqual([1, 15]);
    expect(s.months).toHaveLength(12);
    expect(s.daysOfWeek).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("reads 'value/step' from the value to the field's end (Vixie cron)", () => {
    expect(schedule('50/5 * * * *').minutes).toEqual([50, 55]);
    expect(schedule('* * * 10/1 *').months).toEqual([10, 11, 12]);
    // Days of week end at Saturday: Monday, Wednesday, Friday.
    expect(schedule('* * * * 1/2').daysOfWeek).toEqual([1, 3, 5]);
    expect(schedule('* * * * */2').daysOfWeek).toEqual([0, 2, 4, 6]);
  });

  it('takes month and weekday names in any letter case, and 7 as Sunday', () => {
    expect(schedule('0 0 * jan-Mar,DEC *').months).toEqual([1, 2, 3, 12]);
    expect(schedule('0 0 * * mon-FRI').daysOfWeek).toEqual([1, 2, 3, 4, 5]);
    expect(schedule('0 0 * * 7').daysOfWeek).toEqual([0]);
    expect(schedule('0 0 * * SUN,7,0').daysOfWeek).toEqual([0]);
    expect(schedule('0 0 * * 5-7').daysOfWeek).toEqual([0, 5, 6]);
  });

  it('keeps the parts as written, names turned into numbers', () => {
    expect(schedule('5,10-20/5,*/30 * * * MON/2').parts).toMatchObject({
      minute: [
        { kind: 'value', value: 5, step: null },
        { kind: 'range', from: 10, to: 20, step: 5 },
        { kind: 'any', step: 30 },
      ],
      dayOfWeek: [{ kind: 'value', value: 1, step: 2 }],
    });
  });

  it('calls a day field restricted by its values, not by a leading star (standard cron OR rule)', () => {
    expect(schedule('0 0 * * *')).toMatchObject({ dayOfMonthRestricted: false, dayOfWeekRestricted: false });
    expect(schedule('0 0 1-31 * 0-7')).toMatchObject({ dayOfMonthRestricted: false, dayOfWeekRestricted: false });
    expect(schedule('0 0 */1 * SUN-SAT')).toMatchObject({ dayOfMonthRestricted: false, dayOfWeekRestricted: false });
    expect(schedule('0 0 */2 * 1')).toMatchObject({ dayOfMonthRestricted: true, dayOfWeekRestricted: true });
  });

  it('normalises white space and drops the Unix seconds for the stored five-field form', () => {
    expect(cronElements('  0\t2  *\n* *  ')).toEqual(['0', '2', '*', '*', '*']);
    expect(toFiveFieldCron('  0\t2  * * * ')).toBe('0 2 * * *');
    expect(toFiveFieldCron('0 30 22 * * mon-fri')).toBe('30 22 * * mon-fri');
    expect(toUnixCron('30 22 * * 1-5')).toBe('0 30 22 * * 1-5');
    expect(toUnixCron('0 30 22 * * 1-5')).toBe('0 30 22 * * 1-5');
    expect(isUnixCron('0 30 22 * * 1-5')).toBe(true);
    expect(isUnixCron('30 22 * * 1-5')).toBe(false);
  });

  it('throws a CronSyntaxError carrying the picker message for invalid input', () => {
    expect(() => toFiveFieldCron('1 2 3')).toThrow(BAD_COUNT);
    try {
      requireCron('0 25 * * *');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CronSyntaxError);
      expect(error).toMatchObject({ message: UNRECOGNIZED, field: 'hour', expression: '0 25 * * *' });
    }
    const parsed = schedule('0 2 * * *');
    expect(requireCron(parsed)).toBe(parsed);
  });

  it('memoises parsing and still answers correctly once the memo is full', () => {
    expect(parseCron('0 2 * * *')).toBe(parseCron('0 2 * * *'));
    for (let i = 0; i < 1100; i++) parseCron(`${i % 60} ${i % 24} ${(i % 28) + 1} * *`);
    expect(validateCron('0 2 * * *')).toBeNull();
  });
});

describe('same schedule, different spelling (002 §4.3 backupScheduleDefinitionChanged)', () => {
  it('compares values, not text', () => {
    expect(sameSchedule('30 22 * * 1-5', '0 30 22 * * MON-FRI')).toBe(true);
    expect(sameSchedule('*/15 * * * *', '0,15,30,45 * * * *')).toBe(true);
    expect(sameSchedule('0 2 * * *', '0 3 * * *')).toBe(false);
    expect(sameSchedule('0 2 1 * *', '0 2 2 * *')).toBe(false);
    expect(sameSchedule('0 2 * 1 *', '0 2 * 2 *')).toBe(false);
    expect(sameSchedule('0 2 * * 1', '0 2 * * 2')).toBe(false);
    expect(sameSchedule('0 2 * * 1', '0 2 * * 1,2')).toBe(false);
    expect(sameSchedule(' bad ', 'bad')).toBe(true);
    expect(sameSchedule('bad', '0 2 * * *')).toBe(false);
  });
});

describe('schedules that never run (ours; the specification is silent)', () => {
  it('finds day-of-month choices no chosen month has', () => {
    expect(neverRuns('0 0 30 2 *')).toBe(true);
    expect(neverRuns('0 0 31 4,6,9,11 *')).toBe(true);
    expect(neverRuns('0 0 30,31 FEB *')).toBe(true);
  });

  it('lets 29 February, any weekday choice and months with the day run', () => {
    expect(neverRuns('0 0 29 2 *')).toBe(false);
    expect(neverRuns('0 0 30 2 1')).toBe(false);
    expect(neverRuns('0 0 31 2,3 *')).toBe(false);
    expect(neverRuns('0 0 * 2 *')).toBe(false);
  });
});
