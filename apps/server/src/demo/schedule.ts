/**
 * Schedules of the demo tasks. Run times come from the domain's schedule rules (nextRunAfter,
 * runsBetween in '@portal/domain'), the same ones the agent and the server's jobs use; the descriptions
 * are what describeCron says of each expression (the seed test checks them).
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
