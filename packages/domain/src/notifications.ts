import { z } from 'zod';
import type { Role } from './enums.js';
import { pageSizeParam, pagingQuerySchema } from './envelope.js';
import { checkbox, choice, filterText, integerField } from './forms/fields.js';
import { idParam } from './ids.js';
import { ACCOUNT_MAIL_KIND_NAMES } from './mail.js';
import { someErrorsOccurred, unknownErrorWhile } from './messages.js';
import { formatBytes } from './sizes.js';

/**
 * Notification settings and backup alerts (issue 17): which users of a customer get which e-mails, for all
 * machines or chosen ones, and the texts of those e-mails. The spec names the screen only (002 §2.1:
 * customer super admin only); everything else here is ours.
 */

/** The alerts a user may subscribe to, one toggle each on the settings screen. */
export const NOTIFICATION_KINDS = [
  'runFailed',
  'runWarnings',
  'runMissed',
  'machineOffline',
  'quota',
  'verification',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const SUMMARY_FREQUENCIES = ['NONE', 'DAILY', 'WEEKLY'] as const;
export type SummaryFrequency = (typeof SUMMARY_FREQUENCIES)[number];

export const NOTIFICATION_LIMITS = {
  /** A machine offline for longer than this many hours is reported (per customer). */
  offlineHours: { min: 1, max: 168, default: 24 },
  /** A package whose usage reaches this share of its quota is reported as near its quota (per customer). */
  quotaNearPercent: { min: 50, max: 99, default: 90 },
  /** The most machines one user may choose (more: choose all machines). */
  chosenMachinesMax: 500,
  /** Summaries go out from this hour (UTC); a weekly one on Mondays. */
  summaryHourUtc: 6,
  /** Rows per page of the users table, the machine chooser and the delivery failures. */
  pageSize: 10,
  searchMax: 100,
} as const;

/** The labels of the screen's toggles and fields; field errors name them. */
export const NOTIFICATION_LABELS = {
  runFailed: 'Run failed',
  runWarnings: 'Run finished with warnings',
  runMissed: 'Scheduled run missed',
  machineOffline: 'Machine offline',
  quota: 'Package over or near quota',
  verification: 'Backup verification failed or overdue',
  summary: 'Summary',
  allMachines: 'All machines',
  machineIds: 'Machines',
  offlineHours: 'Machine offline after (hours)',
  quotaNearPercent: 'Near quota at (%)',
} as const;

export const SUMMARY_FREQUENCY_NAMES: Record<SummaryFrequency, string> = {
  NONE: 'None',
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
};

/** Every text of the notification settings screen. */
export const NOTIFICATION_TEXTS = {
  title: 'Notification Settings',
  subtitle: 'Who hears about failed, missed and warning runs, offline machines and quotas',
  customerSection: 'Alert thresholds',
  customerHint: 'These apply to every user of your account.',
  usersSection: 'Who gets which e-mails',
  noUsers: 'There are no users',
  edit: 'Edit',
  editTitle: (name: string) => `E-mails for ${name}`,
  save: 'Save',
  saved: 'Notification settings saved',
  savedWithErrors: someErrorsOccurred('Notification settings saved'),
  unknownWhileSaving: unknownErrorWhile('saving notification settings'),
  thresholdsSaved: 'Alert thresholds saved',
  thresholdsSavedWithErrors: someErrorsOccurred('Alert thresholds saved'),
  unknownWhileSavingThresholds: unknownErrorWhile('saving alert thresholds'),
  chosenMachines: 'Chosen machines',
  machinesColumn: 'Machines',
  allMachinesShort: 'All',
  chosenCount: (n: number) => `${n} chosen`,
  noMachines: 'No machines found',
  searchMachines: 'Search machines',
  searchUsers: 'Search users',
  chooseLabel: (machine: string) => `Choose ${machine}`,
  removeLabel: (machine: string) => `Remove ${machine}`,
  editLabel: (user: string) => `Edit ${user}`,
  chooseMachine: 'Choose at least one machine, or all machines',
  tooManyMachines: `Choose at most ${NOTIFICATION_LIMITS.chosenMachinesMax} machines, or all machines`,
  machineNotFound: 'A chosen machine is not one of your machines',
  quotaHint: 'Quota e-mails reach admins only: a plain user does not see packages.',
  failuresSection: 'E-mails that could not be delivered',
  noFailures: 'Every e-mail was delivered',
  failedStatus: 'Failed',
  retryingStatus: 'Retrying',
  columns: {
    user: 'User',
    email: 'Email',
    kind: 'Kind',
    recipient: 'Recipient',
    status: 'Status',
    attempts: 'Attempts',
    lastError: 'Last error',
    when: 'Queued at',
    machine: 'Machine',
    package: 'Package',
  },
} as const;

/** The mail kinds (mail_outbox.kind) of backup alerts, with the names the delivery failures table shows. */
export const NOTIFICATION_MAIL_KINDS = {
  RUN_FAILED: 'Run failed',
  RUN_WARNINGS: 'Run finished with warnings',
  /** Ours (issue 29): sent to those who get failed-run alerts. */
  RUN_STALLED: 'Run stalled',
  /** Ours (issue 32): a run that looks like ransomware at work, to those who get failed-run alerts and the provider. */
  RUN_UNUSUAL_CHANGE: 'Unusual backup run',
  RUN_MISSED: 'Scheduled run missed',
  MACHINE_OFFLINE: 'Machine offline',
  QUOTA_OVER: 'Package over quota',
  QUOTA_NEAR: 'Package near quota',
  SUMMARY_DAILY: 'Daily summary',
  SUMMARY_WEEKLY: 'Weekly summary',
  /** Issue 32: to the provider's admins, once per burst of a machine's attempts on its backups. */
  STORAGE_TAMPERING: 'Backups attacked',
  /** Ours (issue 32): the portal's data check found damage; sent to those who get failed-run alerts. */
  DATA_CHECK_FAILED: 'Data check found errors',
  /** Ours (issue 32 item 3): a task's verification failed or is overdue, once each time it becomes so. */
  VERIFICATION_FAILED: 'Backup verification failed',
  VERIFICATION_OVERDUE: 'Backup verification overdue',
  /** Ours (issue 32): the monthly verification report, to the super admins of a customer that opted in. */
  VERIFICATION_REPORT: 'Monthly verification report',
} as const;
export type NotificationMailKind = keyof typeof NOTIFICATION_MAIL_KINDS;
/** A queued mail's kind as people read it: a notification's or an account mail's name. */
export const mailKindName = (kind: string) =>
  (NOTIFICATION_MAIL_KINDS as Record<string, string | undefined>)[kind] ?? ACCOUNT_MAIL_KIND_NAMES[kind] ?? kind;

/** One user's choices: the alerts they get and for which machines. */
export interface NotificationChoices {
  runFailed: boolean;
  runWarnings: boolean;
  runMissed: boolean;
  machineOffline: boolean;
  quota: boolean;
  verification: boolean;
  summary: SummaryFrequency;
  allMachines: boolean;
}

/**
 * What a user gets before anyone changed their settings: the customer's super admin hears about failed and
 * missed runs of every machine, everyone else nothing. So a new customer is told about failures at once.
 */
export function defaultNotificationChoices(role: Role): NotificationChoices {
  const superAdmin = role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER';
  return {
    runFailed: superAdmin,
    runWarnings: false,
    runMissed: superAdmin,
    machineOffline: false,
    quota: false,
    verification: superAdmin,
    summary: 'NONE',
    allMachines: true,
  };
}

/** The customer's thresholds; absent settings mean the defaults. */
export interface NotificationThresholds {
  offlineHours: number;
  quotaNearPercent: number;
}
export const DEFAULT_NOTIFICATION_THRESHOLDS: NotificationThresholds = {
  offlineHours: NOTIFICATION_LIMITS.offlineHours.default,
  quotaNearPercent: NOTIFICATION_LIMITS.quotaNearPercent.default,
};

// --- Forms ---------------------------------------------------------------------------------------------

const L = NOTIFICATION_LABELS;

/** PUT /admin/notificationsettings/thresholds. */
export const notificationThresholdsSchema = z.object({
  offlineHours: integerField(L.offlineHours, NOTIFICATION_LIMITS.offlineHours),
  quotaNearPercent: integerField(L.quotaNearPercent, NOTIFICATION_LIMITS.quotaNearPercent),
});
export type NotificationThresholdsPayload = z.output<typeof notificationThresholdsSchema>;

/** PUT /admin/notificationsettings/users/{userId}: the user's alerts and machines. */
export const notificationUserSettingsSchema = z
  .object({
    runFailed: checkbox,
    runWarnings: checkbox,
    runMissed: checkbox,
    machineOffline: checkbox,
    quota: checkbox,
    verification: checkbox,
    summary: choice(L.summary, SUMMARY_FREQUENCIES),
    allMachines: checkbox,
    machineIds: z.array(idParam).default([]),
  })
  .superRefine((value, ctx) => {
    if (value.allMachines) return;
    if (value.machineIds.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['machineIds'], message: NOTIFICATION_TEXTS.chooseMachine });
    } else if (new Set(value.machineIds).size > NOTIFICATION_LIMITS.chosenMachinesMax) {
      ctx.addIssue({ code: 'custom', path: ['machineIds'], message: NOTIFICATION_TEXTS.tooManyMachines });
    }
  })
  // Every machine once; with all machines the chosen ones do not matter.
  .transform((value) => ({ ...value, machineIds: value.allMachines ? [] : [...new Set(value.machineIds)] }));
export type NotificationUserSettingsInput = z.input<typeof notificationUserSettingsSchema>;
export type NotificationUserSettingsPayload = z.output<typeof notificationUserSettingsSchema>;

/** The users table and the machine chooser: paged, with a "contains" search. */
export const notificationSearchQuerySchema = pagingQuerySchema.extend({
  size: pageSizeParam(200, NOTIFICATION_LIMITS.pageSize),
  search: filterText('Search', NOTIFICATION_LIMITS.searchMax),
});

// --- Wire shapes ----------------------------------------------------------------------------------------

/** A machine as the chooser lists it and a user's row names it. */
export interface NotificationMachineOption {
  id: number;
  name: string;
  packageName: string;
}

/** A row of the users table: the user and their choices (defaults until saved). */
export interface NotificationUserRow extends NotificationChoices {
  userId: number;
  name: string;
  email: string;
  roleName: string;
  /** The chosen machines (empty with all machines). */
  machines: NotificationMachineOption[];
}

// --- Summary periods -------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/**
 * The period whose summary is due at `now`, named by its day (YYYY-MM-DD, UTC): a daily summary is for
 * the day that started at the summary hour today (yesterday's before that hour), a weekly one for the
 * week starting Monday at that hour. Its key names it, so each period's summary is queued once.
 */
export function summaryPeriod(frequency: Exclude<SummaryFrequency, 'NONE'>, now: Date): { key: string; start: Date } {
  const shifted = now.getTime() - NOTIFICATION_LIMITS.summaryHourUtc * 3_600_000;
  let day = Math.floor(shifted / DAY_MS);
  // 1 January 1970 was a Thursday: (day + 3) % 7 is the days since Monday.
  if (frequency === 'WEEKLY') day -= (day + 3) % 7;
  const start = new Date(day * DAY_MS + NOTIFICATION_LIMITS.summaryHourUtc * 3_600_000);
  return { key: new Date(day * DAY_MS).toISOString().slice(0, 10), start };
}

// --- Mails --------------------------------------------------------------------------------------------

/** What a notification mail says; the delivery job adds the brand (the outbox's QueuedMailMessage). */
export interface NotificationMail {
  subject: string;
  lines: string[];
  link?: { label: string; path: string };
}

const SETTINGS_HINT = 'You get this e-mail because of your notification settings in the backup portal.';

export const NOTIFICATION_MAILS = {
  runEnded(run: {
    status: 'FAILED' | 'FINISHED_WARNINGS';
    taskName: string;
    machineName: string;
    finishedAt: Date;
    failureMessage: string | null;
    taskPath: string;
  }): NotificationMail {
    const failed = run.status === 'FAILED';
    return {
      subject: failed
        ? `Backup failed: ${run.taskName} on ${run.machineName}`
        : `Backup finished with warnings: ${run.taskName} on ${run.machineName}`,
      lines: [
        failed
          ? `The backup task ${run.taskName} on the machine ${run.machineName} failed at ${run.finishedAt.toISOString()}.`
          : `The backup task ${run.taskName} on the machine ${run.machineName} finished with warnings at ${run.finishedAt.toISOString()}: some files could not be read.`,
        ...(run.failureMessage ? [`Reason: ${run.failureMessage}`] : []),
        '',
        SETTINGS_HINT,
      ],
      link: { label: 'Open the task', path: run.taskPath },
    };
  },

  /** Issue 29: a busy run reported no progress for the stall limit; alerted like a failed run. */
  runStalled(run: {
    taskName: string;
    machineName: string;
    lastProgressAt: Date;
    stallMinutes: number;
    taskPath: string;
  }): NotificationMail {
    return {
      subject: `Backup stalled: ${run.taskName} on ${run.machineName}`,
      lines: [
        `The backup task ${run.taskName} on the machine ${run.machineName} has reported no progress since ${run.lastProgressAt.toISOString()} (more than ${run.stallMinutes} minutes).`,
        'Check the machine and its backup agent; you can cancel the run on the task page.',
        '',
        SETTINGS_HINT,
      ],
      link: { label: 'Open the task', path: run.taskPath },
    };
  },

  /** Issue 32: the portal's data check of a machine's repository found damage; alerted like a failed run. */
  dataCheckFailed(check: {
    machineName: string;
    checkedAt: Date;
    subset: string;
    errors: readonly string[];
    machinePath: string;
  }): NotificationMail {
    return {
      subject: `Backup data damaged: ${check.machineName}`,
      lines: [
        `The portal's data check of the backups of the machine ${check.machineName} (part ${check.subset} of its repository, ${check.checkedAt.toISOString()}) found errors:`,
        ...check.errors.slice(0, 3).map((line) => `- ${line}`),
        'Your provider has been told how to repair the repository; backups still on the machine are stored again by its next runs.',
        '',
        SETTINGS_HINT,
      ],
      link: { label: 'Open the machine', path: check.machinePath },
    };
  },

  /** Issue 32 item 3: a task's backups were not proved restorable (failed) or not recently enough (overdue). */
  verification(task: {
    status: 'FAILED' | 'OVERDUE';
    taskName: string;
    machineName: string;
    since: Date;
    taskPath: string;
  }): NotificationMail {
    const failed = task.status === 'FAILED';
    return {
      subject: failed
        ? `Backup verification failed: ${task.taskName} on ${task.machineName}`
        : `Backup verification overdue: ${task.taskName} on ${task.machineName}`,
      lines: [
        failed
          ? `The backups of the task ${task.taskName} on the machine ${task.machineName} could not be verified at ${task.since.toISOString()}: the last restore test did not restore identical files, or a data check found damage.`
          : `The backups of the task ${task.taskName} on the machine ${task.machineName} have not been verified recently enough (overdue since ${task.since.toISOString()}): a restore test or a data check is late.`,
        'The task page shows the last restore test and data check.',
        '',
        SETTINGS_HINT,
      ],
      link: { label: 'Open the task', path: task.taskPath },
    };
  },

  runMissed(task: { taskName: string; machineName: string; expectedAt: Date; taskPath: string }): NotificationMail {
    return {
      subject: `Backup missed: ${task.taskName} on ${task.machineName}`,
      lines: [
        `The backup task ${task.taskName} on the machine ${task.machineName} was due at ${task.expectedAt.toISOString()} but did not start.`,
        'Check that the machine is switched on, connected and that its backup agent is running.',
        '',
        SETTINGS_HINT,
      ],
      link: { label: 'Open the task', path: task.taskPath },
    };
  },

  machineOffline(machine: {
    machineName: string;
    lastSeenAt: Date;
    hours: number;
    machinePath: string;
  }): NotificationMail {
    return {
      subject: `Machine offline: ${machine.machineName}`,
      lines: [
        `The machine ${machine.machineName} has been offline for more than ${machine.hours} ${machine.hours === 1 ? 'hour' : 'hours'}; it was last seen at ${machine.lastSeenAt.toISOString()}.`,
        'Its scheduled backups do not run while it is offline.',
        '',
        SETTINGS_HINT,
      ],
      link: { label: 'Open the machine', path: machine.machinePath },
    };
  },

  quota(pkg: {
    level: 'OVER' | 'NEAR';
    packageName: string;
    usedBytes: number;
    quotaBytes: number;
    percent: number;
    packagePath: string;
  }): NotificationMail {
    const usage = `${formatBytes(pkg.usedBytes)} of ${formatBytes(pkg.quotaBytes)}`;
    return {
      subject:
        pkg.level === 'OVER' ? `Package over quota: ${pkg.packageName}` : `Package near quota: ${pkg.packageName}`,
      lines: [
        pkg.level === 'OVER'
          ? `The backup package ${pkg.packageName} uses ${usage}: it is over its quota, and its backups stop until space is freed or the quota raised.`
          : `The backup package ${pkg.packageName} uses ${usage}, ${pkg.percent}% of its quota.`,
        '',
        SETTINGS_HINT,
      ],
      link: { label: 'Open the package', path: pkg.packagePath },
    };
  },

  summary(summary: {
    frequency: Exclude<SummaryFrequency, 'NONE'>;
    periodKey: string;
    machines: number;
    offline: number;
    tasksFailed: number;
    tasksMissed: number;
    tasksSuccessful: number;
    attention: readonly string[];
  }): NotificationMail {
    const daily = summary.frequency === 'DAILY';
    return {
      subject: `${daily ? 'Daily' : 'Weekly'} backup summary for ${daily ? '' : 'the week of '}${summary.periodKey}`,
      lines: [
        `Machines: ${summary.machines} (${summary.offline} offline)`,
        `Tasks whose last run failed: ${summary.tasksFailed}`,
        `Tasks whose last run was missed: ${summary.tasksMissed}`,
        `Tasks whose last run succeeded: ${summary.tasksSuccessful}`,
        ...(summary.attention.length > 0
          ? ['', 'Machines that need attention:', ...summary.attention.map((name) => `- ${name}`)]
          : []),
        '',
        SETTINGS_HINT,
      ],
      link: { label: 'Open the dashboard', path: '/' },
    };
  },
} as const;
