import { describe, expect, it } from 'vitest';
import * as schedule from './schedule.js';

describe('schedule module entry (000 §2 and §5, 002 §4.3 and §5.6)', () => {
  it('exports the public API from one place', () => {
    for (const name of [
      'SCHEDULE_MESSAGES',
      'parseCron',
      'validateCron',
      'toFiveFieldCron',
      'toUnixCron',
      'sameSchedule',
      'neverRuns',
      'isDefaultSchedulePattern',
      'backupScheduleSchema',
      'cronExpressionSchema',
      'SCHEDULE_PERIODS',
      'schedulePickerModelSchema',
      'pickerToCron',
      'cronToPicker',
      'describeCron',
      'nextRunAfter',
      'previousRunBefore',
      'runsBetween',
      'isValidTimeZone',
      'CronSyntaxError',
    ]) {
      expect(schedule, name).toHaveProperty(name);
    }
    // Zone internals stay inside the module.
    expect(schedule).not.toHaveProperty('offsetAt');
  });

  it('works end to end: picker → cron → description → next run', () => {
    const cron = schedule.pickerToCron({
      period: 'week',
      minutes: { kind: 'values', values: [30] },
      hours: { kind: 'values', values: [22] },
      weekDays: { kind: 'range', from: 1, to: 5, step: 1 },
    });
    expect(schedule.backupScheduleSchema.parse(cron)).toBe('30 22 * * 1-5');
    expect(schedule.describeCron(cron)).toBe('Every weekday (Monday to Friday) at 22:30');
    // Friday 4 July 2025, 20:00 in London → that evening at 22:30 BST.
    expect(schedule.nextRunAfter(cron, new Date('2025-07-04T19:00:00Z'), 'Europe/London')?.toISOString()).toBe(
      '2025-07-04T21:30:00.000Z',
    );
  });
});
