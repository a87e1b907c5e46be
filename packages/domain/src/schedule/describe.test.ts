import { describe, expect, it } from 'vitest';
import { describeCron } from './describe.js';
import { CronSyntaxError, parseCron } from './syntax.js';

describe('schedule descriptions (000 §3 scheduleDescription, 002 §3 backupScheduleDescription)', () => {
  it.each([
    // A few clock times a day: the days, then the times.
    ['0 2 * * *', 'Every day at 02:00'],
    ['15 1 * * *', 'Every day at 01:15'],
    ['0 12,18 * * *', 'Every day at 12:00 and 18:00'],
    ['0,30 9 * * *', 'Every day at 09:00 and 09:30'],
    ['*/15 9 * * *', 'Every day at 09:00, 09:15, 09:30 and 09:45'],
    ['0 0,12 * * *', 'Every day at 00:00 and 12:00'],
    ['0 8-20/4 * * *', 'Every day at 08:00, 12:00, 16:00 and 20:00'],
    // Weekdays: the working week, names, Monday-first runs.
    ['30 22 * * 1-5', 'Every weekday (Monday to Friday) at 22:30'],
    ['30 22 * * MON-FRI', 'Every weekday (Monday to Friday) at 22:30'],
    ['0 3 * * 0', 'Every Sunday at 03:00'],
    ['0 3 * * 7', 'Every Sunday at 03:00'],
    ['0 20 * * 1,3,5', 'Every Monday, Wednesday and Friday at 20:00'],
    ['0 0 * * 6,0', 'Every Saturday and Sunday at 00:00'],
    ['0 0 * * 5-7', 'Every Friday to Sunday at 00:00'],
    ['0 0 * * 1-3,5', 'Every Monday to Wednesday and Friday at 00:00'],
    // Days of the month and months.
    ['0 1 1 * *', 'On day 1 of every month at 01:00'],
    ['0 0 1,15 * *', 'On days 1 and 15 of every month at 00:00'],
    ['0 0 1-7 * *', 'On days 1 to 7 of every month at 00:00'],
    ['0 0 */2 * *', 'On every 2nd day of every month at 00:00'],
    ['0 0 1/7 * *', 'On every 7th day of every month at 00:00'],
    ['0 0 2/2 * *', 'On days 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28 and 30 of every month at 00:00'],
    ['0 2 1 1 *', 'On day 1 of January at 02:00'],
    ['0 2 1 jan,jul *', 'On day 1 of January and July at 02:00'],
    ['0 2 * 1-3 *', 'Every day in January to March at 02:00'],
    ['0 2 * DEC 1-5', 'Every weekday (Monday to Friday) in December at 02:00'],
    ['0 0 29 2 *', 'On day 29 of February at 00:00'],
    // Both day fields: either makes a day (standard cron).
    ['0 0 1 * 1', 'On day 1 of every month and every Monday at 00:00'],
    ['0 0 1 1 1', 'On day 1 and every Monday in January at 00:00'],
    // Recurrences within the day.
    ['* * * * *', 'Every minute'],
    ['*/15 * * * *', 'Every 15 minutes'],
    ['0,30 * * * *', 'Every 30 minutes'],
    ['0 * * * *', 'Every hour'],
    ['15,45 * * * *', 'Every hour at minutes 15 and 45'],
    ['5 * * * *', 'Every hour at minute 5'],
    ['7/15 * * * *', 'Every hour at minutes 7, 22, 37 and 52'],
    ['0 */4 * * *', 'Every 4 hours'],
    ['30 */2 * * *', 'Every 2 hours at minute 30'],
    ['* */6 * * *', 'Every minute of every 6th hour'],
    ['*/20 */3 * * *', 'Every 20 minutes of every 3rd hour'],
    ['* 2 * * *', 'Every minute during hour 2'],
    ['*/10 9-17 * * MON-FRI', 'Every 10 minutes during hours 9 to 17, every weekday (Monday to Friday)'],
    ['0 9-17 * * 1-5', 'Every hour from 09:00 to 17:00, every weekday (Monday to Friday)'],
    ['5 1-23/2 * * *', 'Every 2 hours from 01:05 to 23:05'],
    ['0 1,2,5-9 * * *', 'At minute 0 of hours 1, 2 and 5 to 9'],
    ['0,30 9-17 * * *', 'Every 30 minutes during hours 9 to 17'],
    ['0,20 9-17 * * *', 'At minutes 0 and 20 of hours 9 to 17'],
    ['0 * 1 * *', 'Every hour, on day 1 of every month'],
    ['0 */4 * 6 *', 'Every 4 hours, every day in June'],
    ['0 0 2 * * *', 'Every day at 02:00'],
    ['0 11,12,13 * * *', 'Every day at 11:00, 12:00 and 13:00'],
  ])('describes %j as %j', (cron, text) => {
    expect(describeCron(cron)).toBe(text);
  });

  it('takes a parsed schedule, and reads ordinals right', () => {
    const parsed = parseCron('0 * * * *');
    if (!parsed.ok) throw new Error('parse failed');
    expect(describeCron(parsed.schedule)).toBe('Every hour');
    expect(describeCron('0 0 1/11 * *')).toBe('On every 11th day of every month at 00:00');
    expect(describeCron('0 0 1/21 * *')).toBe('On days 1 and 22 of every month at 00:00');
    expect(describeCron('0 0 1/3 * *')).toBe('On every 3rd day of every month at 00:00');
    expect(describeCron('0 0 1/12 * *')).toBe('On every 12th day of every month at 00:00');
    expect(describeCron('0 0 1/13 * *')).toBe('On every 13th day of every month at 00:00');
    expect(describeCron('0 0 1-20/2 * *')).toBe('On days 1, 3, 5, 7, 9, 11, 13, 15, 17 and 19 of every month at 00:00');
  });

  it('throws the picker message for an invalid expression', () => {
    expect(() => describeCron('0 2 * *')).toThrow(CronSyntaxError);
  });
});
