import { describe, expect, it } from 'vitest';
import { backupScheduleError, backupScheduleSchema, cronExpressionSchema, isDefaultSchedulePattern } from './form.js';
import { SCHEDULE_MESSAGES } from './syntax.js';

const SELECT = 'Please select a schedule for this task.';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('the default every-second pattern (002 §5.6)', () => {
  it.each([
    ['* * * * * *', true],
    ['*/1 * * * * *', true],
    ['0-59 * * * * *', true],
    ['0 * * * * *', true],
    ['* * * * *', true],
    ['  *   *  * * *  ', true],
    ['*/1 0-23 1-31 JAN-DEC 0-7', true],
    ['0-59 * */1 1-12 SUN-SAT', true],
    ['', false],
    ['0 * * * *', false],
    ['* 2 * * *', false],
    ['* * 1 * *', false],
    ['* * * 1 *', false],
    ['* * * * 1', false],
    ['* * * *', false],
    ['* * * * * * *', false],
    ['x * * * * *', false],
    ['* * * * 8', false],
  ])('%j is the default pattern: %s', (expression, isDefault) => {
    expect(isDefaultSchedulePattern(expression)).toBe(isDefault);
  });
});

describe('backupScheduleSchema, the task form rule (002 §5.6)', () => {
  it("refuses empty or the default pattern with 'Please select a schedule for this task.'", () => {
    expect(SCHEDULE_MESSAGES.selectSchedule).toBe(SELECT);
    for (const value of ['', '   ', '* * * * * *', '* * * * *', '0 * * * * *']) {
      expect(messagesOf(backupScheduleSchema.safeParse(value))).toEqual([SELECT]);
      expect(backupScheduleError(value)).toBe(SELECT);
    }
    expect(messagesOf(backupScheduleSchema.safeParse(undefined))).toEqual([SELECT]);
    expect(messagesOf(backupScheduleSchema.safeParse(null))).toEqual([SELECT]);
  });

  it('passes the picker messages through for a malformed schedule (000 §5)', () => {
    expect(messagesOf(backupScheduleSchema.safeParse('0 2 * *'))).toEqual(['Bad number of elements']);
    expect(messagesOf(backupScheduleSchema.safeParse('0 25 * * *'))).toEqual(['Unrecognized expression']);
    expect(messagesOf(backupScheduleSchema.safeParse('30 0 2 * * *'))).toEqual(['Unrecognized expression']);
  });

  it('refuses a schedule that can never run (ours)', () => {
    expect(messagesOf(backupScheduleSchema.safeParse('0 2 30 2 *'))).toEqual([SCHEDULE_MESSAGES.neverRuns]);
  });

  it('accepts five fields and the Unix variant, trimmed and otherwise as submitted', () => {
    expect(backupScheduleSchema.parse(' 0 2 * * * ')).toBe('0 2 * * *');
    expect(backupScheduleSchema.parse('0 30 22 * * MON-FRI')).toBe('0 30 22 * * MON-FRI');
    expect(backupScheduleError('0 0 29 2 *')).toBeNull();
  });
});

describe('cronExpressionSchema, the picker check (000 §5)', () => {
  it('gives only the two picker messages', () => {
    expect(cronExpressionSchema.parse('0 2 * * *')).toBe('0 2 * * *');
    expect(messagesOf(cronExpressionSchema.safeParse(''))).toEqual(['Bad number of elements']);
    expect(messagesOf(cronExpressionSchema.safeParse('0 2 * * 9'))).toEqual(['Unrecognized expression']);
    // Syntax only: the task form's own rules are not the picker's.
    expect(cronExpressionSchema.safeParse('* * * * *').success).toBe(true);
    expect(cronExpressionSchema.safeParse('0 0 30 2 *').success).toBe(true);
  });
});
