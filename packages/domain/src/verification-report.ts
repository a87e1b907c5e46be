/**
 * The verification report (issue 32 item 4): for auditors, every task of a customer with its last successful
 * backup, last restore test and last data check, and what each did over a chosen period; a reseller's and the
 * provider's roll-up over their customers. Downloaded as CSV (every task) and as a one-page PDF; optionally mailed
 * monthly to the customer's super admins in the customer's brand, with a link to the report (opt-in per customer).
 */
import { z } from 'zod';
import type { NotificationMailKind } from './notifications.js';

export const VERIFICATION_REPORT = {
  /** The period when none is chosen: the last 30 days, today included. */
  defaultDays: 30,
  /** The longest period one report covers. */
  maxDays: 366,
  /** Task rows the one-page PDF lists at most; the CSV has every task (the PDF says so when it leaves some out). */
  pdfTaskRows: 28,
  /** Customer rows the roll-up PDF lists at most (the CSV has every task of every customer). */
  pdfCustomerRows: 28,
  /** Tasks per query while a CSV streams: one set-based query per batch, never one per task. */
  csvBatch: 2000,
  /** The monthly mail covers the month before it (UTC), and goes out from the 1st of the month. */
  mailKind: 'VERIFICATION_REPORT' satisfies NotificationMailKind,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
// A day not written as one gets that message alone, not also 'Enter a real date.'
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Enter a date as YYYY-MM-DD.', abort: true });
const validDay = (value: string) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** The period of a report: `from` and `to` are days (UTC), both included. */
export const verificationPeriodQuerySchema = z
  .object({
    from: isoDay.refine(validDay, 'Enter a real date.').optional(),
    to: isoDay.refine(validDay, 'Enter a real date.').optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: VERIFICATION_REPORT_TEXTS.toBeforeFrom });
    }
    if (q.from && q.to && (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1 > VERIFICATION_REPORT.maxDays) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: VERIFICATION_REPORT_TEXTS.periodTooLong });
    }
  });
export type VerificationPeriodQuery = z.infer<typeof verificationPeriodQuerySchema>;

/** A period as the queries use it: [start, end) instants, and its days for texts and file names. */
export interface VerificationPeriod {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The period asked for, the missing ends filled in: `to` defaults to today, `from` to 29 days before `to`. */
export function verificationPeriod(query: VerificationPeriodQuery, now: Date): VerificationPeriod {
  const to = query.to ?? dayOf(now);
  const from =
    query.from ?? dayOf(new Date(Date.parse(`${to}T00:00:00Z`) - (VERIFICATION_REPORT.defaultDays - 1) * DAY_MS));
  return { from, to, start: new Date(`${from}T00:00:00Z`), end: new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) };
}

/** The calendar month (UTC) before `now`'s: what the monthly mail reports, and its key ('2026-11'). */
export function previousMonth(now: Date): { key: string; query: Required<VerificationPeriodQuery> } {
  const firstOfThis = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const lastOfPrevious = new Date(firstOfThis - DAY_MS);
  const firstOfPrevious = new Date(Date.UTC(lastOfPrevious.getUTCFullYear(), lastOfPrevious.getUTCMonth(), 1));
  return {
    key: dayOf(firstOfPrevious).slice(0, 7),
    query: { from: dayOf(firstOfPrevious), to: dayOf(lastOfPrevious) },
  };
}

/** The monthly mail's opt-in (a customer's, set by its super admin on the notification settings screen). */
export const verificationReportSettingsSchema = z.object({ monthlyMail: z.boolean() }).strict();
export type VerificationReportSettings = z.infer<typeof verificationReportSettingsSchema>;

/** What a period did: runs, restore tests and data checks, each counted by how it ended. */
export interface VerificationReportCounts {
  runsSucceeded: number;
  runsFailed: number;
  restoreTestsPassed: number;
  restoreTestsFailed: number;
  dataChecksPassed: number;
  dataChecksFailed: number;
}

/** One task of the report. The data checks are its machine's repository's (one repository per machine). */
export interface VerificationReportTaskRow extends VerificationReportCounts {
  customerId: number;
  customerName: string;
  machineName: string;
  taskName: string;
  lastSuccessfulBackupAt: string | null;
  lastRestoreTestAt: string | null;
  lastRestoreTestOutcome: string | null;
  lastDataCheckAt: string | null;
  lastDataCheckOutcome: string | null;
}

/** One customer of a roll-up: its tasks, how many were proved in the period, and the period's totals. */
export interface VerificationCustomerRow extends VerificationReportCounts {
  customerId: number;
  customerName: string;
  tasks: number;
  /** Tasks whose last restore test passed and whose repository's last data check passed. */
  tasksVerified: number;
}

export const VERIFICATION_REPORT_TEXTS = {
  title: 'Verification report',
  rollupTitle: 'Verification report: all customers',
  subtitle:
    'Proof for auditors: every task with its last successful backup, restore test and data check, and their results over the period.',
  rollupSubtitle: 'A row per customer with its totals; the CSV lists every task of every customer.',
  from: 'From',
  to: 'To',
  downloadCsv: 'Download CSV',
  downloadPdf: 'Download PDF',
  toBeforeFrom: 'The end of the period must not be before its start.',
  periodTooLong: `A report covers at most ${VERIFICATION_REPORT.maxDays} days.`,
  monthlyMailLabel: 'Mail the verification report to the super admins every month',
  monthlyMailHelp: 'On the 1st of each month, for the month before, in your brand.',
  monthlyMailSaved: 'Verification report mail setting saved.',
  monthlyMailSavedWithErrors: 'Verification report mail setting saved, with messages.',
  monthlyMailSaveFailed: 'The verification report mail setting could not be saved.',
  save: 'Save',
  openReport: 'Verification report',
  periodHint: 'Days in UTC, both included. The PDF is one page; the CSV lists every task.',
  monthlyMailSection: 'Monthly verification report',
  customerSection: 'Verification report',
  ownSection: "This account's tasks",
  pdfPeriod: (from: string, to: string) => `Period: ${from} to ${to} (UTC)`,
  pdfGenerated: (at: string) => `Generated ${at}`,
  pdfMoreTasks: (shown: number, total: number) =>
    `The first ${shown} of ${total} tasks are listed; the CSV of the same period lists every task.`,
  pdfMoreCustomers: (shown: number, total: number) =>
    `The first ${shown} of ${total} customers are listed; the CSV of the same period lists every task.`,
  pdfNoTasks: 'No tasks.',
  pdfTotals: 'Totals over the period',
  never: 'never',
  mailSubject: (month: string) => `Verification report for ${month}`,
  mailLines: (month: string, tasks: number, verified: number, t: VerificationReportCounts) => [
    `The verification report for ${month} (UTC) is ready.`,
    '',
    `Tasks: ${tasks}, of which ${verified} had their last restore test and last data check pass.`,
    `Backup runs: ${t.runsSucceeded} succeeded, ${t.runsFailed} failed.`,
    `Restore tests: ${t.restoreTestsPassed} passed, ${t.restoreTestsFailed} failed.`,
    `Data checks: ${t.dataChecksPassed} passed, ${t.dataChecksFailed} failed.`,
    '',
    'The report page downloads it as CSV (every task) and as a one-page PDF.',
  ],
  mailLink: 'Open the verification report',
} as const;

/** The CSV's columns, in order (the roll-up's every task has the same). */
export const VERIFICATION_CSV_HEADER = [
  'Customer',
  'Machine',
  'Task',
  'Last successful backup',
  'Last restore test',
  'Last restore test result',
  'Last data check',
  'Last data check result',
  'Runs succeeded',
  'Runs failed',
  'Restore tests passed',
  'Restore tests failed',
  'Data checks passed',
  'Data checks failed',
] as const;

export function verificationCsvCells(row: VerificationReportTaskRow): Array<string | number | null> {
  return [
    row.customerName,
    row.machineName,
    row.taskName,
    row.lastSuccessfulBackupAt,
    row.lastRestoreTestAt,
    row.lastRestoreTestOutcome,
    row.lastDataCheckAt,
    row.lastDataCheckOutcome,
    row.runsSucceeded,
    row.runsFailed,
    row.restoreTestsPassed,
    row.restoreTestsFailed,
    row.dataChecksPassed,
    row.dataChecksFailed,
  ];
}

/** The file names of the downloads: the customer's (or 'all-customers') and the period. */
export function verificationFileName(subject: string, period: { from: string; to: string }, ext: 'csv' | 'pdf') {
  const slug =
    subject
      .normalize('NFKD')
      // The accents NFKD split off: 'Müller' is 'muller', not 'mu-ller'.
      .replace(/\p{M}+/gu, '')
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'customer';
  return `verification-report-${slug}-${period.from}-to-${period.to}.${ext}`;
}
