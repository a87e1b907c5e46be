import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLES } from './enums.js';
import {
  defaultNotificationChoices,
  NOTIFICATION_LIMITS,
  NOTIFICATION_MAILS,
  NOTIFICATION_TEXTS,
  notificationThresholdsSchema,
  notificationUserSettingsSchema,
  summaryPeriod,
} from './notifications.js';

const choices = {
  ...defaultNotificationChoices('ROLE_CUSTOMER_USER'),
  runFailed: true,
  allMachines: false,
  machineIds: [3],
};

describe('notification defaults', () => {
  it('gives the super admin failed and missed runs of every machine, everyone else nothing', () => {
    expect(defaultNotificationChoices('ROLE_CUSTOMER_SUPER_ADMIN_USER')).toMatchObject({
      runFailed: true,
      runMissed: true,
      runWarnings: false,
      allMachines: true,
    });
    for (const role of ROLES.filter((r) => r !== 'ROLE_CUSTOMER_SUPER_ADMIN_USER')) {
      const d = defaultNotificationChoices(role);
      expect([d.runFailed, d.runWarnings, d.runMissed, d.machineOffline, d.quota, d.summary]).toEqual([
        false,
        false,
        false,
        false,
        false,
        'NONE',
      ]);
    }
  });
});

describe('notification forms', () => {
  it('needs a machine when not all machines, and drops chosen ones with all machines', () => {
    const none = notificationUserSettingsSchema.safeParse({ ...choices, machineIds: [] });
    expect(none.success).toBe(false);
    expect(none.error?.issues[0]).toMatchObject({ path: ['machineIds'], message: NOTIFICATION_TEXTS.chooseMachine });
    expect(notificationUserSettingsSchema.parse({ ...choices, allMachines: true }).machineIds).toEqual([]);
    expect(notificationUserSettingsSchema.parse({ ...choices, machineIds: [3, 3, '4'] }).machineIds).toEqual([3, 4]);
    const many = Array.from({ length: NOTIFICATION_LIMITS.chosenMachinesMax + 1 }, (_, i) => i + 1);
    expect(notificationUserSettingsSchema.safeParse({ ...choices, machineIds: many }).error?.issues[0]?.message).toBe(
      NOTIFICATION_TEXTS.tooManyMachines,
    );
    expect(notificationUserSettingsSchema.safeParse({ ...choices, summary: 'HOURLY' }).success).toBe(false);
  });

  it('keeps the thresholds within their limits', () => {
    const { offlineHours, quotaNearPercent } = NOTIFICATION_LIMITS;
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }), (hours, percent) => {
        const parsed = notificationThresholdsSchema.safeParse({ offlineHours: hours, quotaNearPercent: percent });
        const valid =
          hours >= offlineHours.min &&
          hours <= offlineHours.max &&
          percent >= quotaNearPercent.min &&
          percent <= quotaNearPercent.max;
        expect(parsed.success).toBe(valid);
      }),
    );
    expect(notificationThresholdsSchema.parse({ offlineHours: '12', quotaNearPercent: '85' })).toEqual({
      offlineHours: 12,
      quotaNearPercent: 85,
    });
  });
});

describe('summary periods', () => {
  it('start at the summary hour, daily each day and weekly on Mondays', () => {
    expect(summaryPeriod('DAILY', new Date('2026-11-26T05:59:00Z')).key).toBe('2026-11-25');
    expect(summaryPeriod('DAILY', new Date('2026-11-26T06:00:00Z')).key).toBe('2026-11-26');
    expect(summaryPeriod('WEEKLY', new Date('2026-11-26T07:00:00Z')).key).toBe('2026-11-23');
    expect(summaryPeriod('WEEKLY', new Date('2026-11-23T05:00:00Z')).key).toBe('2026-11-16');
    expect(summaryPeriod('WEEKLY', new Date('2026-11-23T06:00:00Z')).start.toISOString()).toBe(
      '2026-11-23T06:00:00.000Z',
    );
  });

  it('contain the moment they are asked at and last a day or a week', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), (now) => {
        for (const [frequency, length] of [
          ['DAILY', 86_400_000],
          ['WEEKLY', 7 * 86_400_000],
        ] as const) {
          const { start, key } = summaryPeriod(frequency, now);
          expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
          expect(now.getTime() - start.getTime()).toBeLessThan(length);
          expect(start.getUTCHours()).toBe(NOTIFICATION_LIMITS.summaryHourUtc);
          expect(key).toBe(start.toISOString().slice(0, 10));
          if (frequency === 'WEEKLY') expect(start.getUTCDay()).toBe(1);
        }
      }),
    );
  });
});

describe('notification mails', () => {
  it('say what happened and link back to the task', () => {
    const mail = NOTIFICATION_MAILS.runEnded({
      status: 'FAILED',
      taskName: 'Documents',
      machineName: 'laptop',
      finishedAt: new Date('2026-11-23T09:05:00Z'),
      failureMessage: 'Fatal: unable to open repository',
      taskPath: '/backupmachines/1/backuptasks/2',
    });
    expect(mail.subject).toBe('Backup failed: Documents on laptop');
    expect(mail.lines).toContain('Reason: Fatal: unable to open repository');
    expect(mail.link).toEqual({ label: 'Open the task', path: '/backupmachines/1/backuptasks/2' });
  });
});
