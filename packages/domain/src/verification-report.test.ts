import { describe, expect, it } from 'vitest';
import {
  previousMonth,
  VERIFICATION_CSV_HEADER,
  VERIFICATION_REPORT,
  VERIFICATION_REPORT_TEXTS,
  type VerificationReportTaskRow,
  verificationCsvCells,
  verificationFileName,
  verificationPeriod,
  verificationPeriodQuerySchema,
} from './verification-report.js';

const messagesOf = (query: unknown) => {
  const parsed = verificationPeriodQuerySchema.safeParse(query);
  return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('the verification report (issue 32 item 4)', () => {
  it('takes a period of real days, in order, at most a year long, and says which end is wrong', () => {
    expect(messagesOf({})).toEqual([]);
    expect(messagesOf({ from: '2026-01-01', to: '2026-12-31' })).toEqual([]);
    expect(messagesOf({ from: '2026-1-1' })).toEqual([['from', 'Enter a date as YYYY-MM-DD.']]);
    expect(messagesOf({ to: '2026-13-45' })).toEqual([['to', 'Enter a real date.']]);
    expect(messagesOf({ from: '2026-12-02', to: '2026-12-01' })).toEqual([
      ['to', VERIFICATION_REPORT_TEXTS.toBeforeFrom],
    ]);
    expect(messagesOf({ from: '2025-01-01', to: '2026-12-31' })).toEqual([
      ['from', VERIFICATION_REPORT_TEXTS.periodTooLong],
    ]);
    expect(messagesOf({ from: '2026-01-01', extra: 1 })).toHaveLength(1);
  });

  it('fills in the last 30 days up to today, both ends included, as half-open instants', () => {
    const now = new Date('2026-12-07T15:30:00Z');
    const period = verificationPeriod({}, now);
    expect(period).toEqual({
      from: '2026-11-08',
      to: '2026-12-07',
      start: new Date('2026-11-08T00:00:00Z'),
      end: new Date('2026-12-08T00:00:00Z'),
    });
    expect((period.end.getTime() - period.start.getTime()) / 86_400_000).toBe(VERIFICATION_REPORT.defaultDays);
    expect(verificationPeriod({ to: '2026-03-01' }, now).from).toBe('2026-01-31');
    expect(verificationPeriod({ from: '2026-12-01', to: '2026-12-01' }, now).end).toEqual(
      new Date('2026-12-02T00:00:00Z'),
    );
  });

  it('mails the calendar month before, across a year’s end too', () => {
    expect(previousMonth(new Date('2026-12-07T00:00:00Z'))).toEqual({
      key: '2026-11',
      query: { from: '2026-11-01', to: '2026-11-30' },
    });
    expect(previousMonth(new Date('2027-01-01T00:00:00Z'))).toEqual({
      key: '2026-12',
      query: { from: '2026-12-01', to: '2026-12-31' },
    });
    expect(previousMonth(new Date('2028-03-31T23:59:59Z')).query.to).toBe('2028-02-29');
  });

  it('writes a CSV row per task with a cell per header column, in its order', () => {
    const row: VerificationReportTaskRow = {
      customerName: 'Acme',
      machineName: 'db-1',
      taskName: 'Nightly',
      lastSuccessfulBackupAt: '2026-12-06T01:00:00.000Z',
      lastRestoreTestAt: null,
      lastRestoreTestOutcome: null,
      lastDataCheckAt: '2026-12-05T03:00:00.000Z',
      lastDataCheckOutcome: 'PASSED',
      runsSucceeded: 30,
      runsFailed: 1,
      restoreTestsPassed: 0,
      restoreTestsFailed: 0,
      dataChecksPassed: 6,
      dataChecksFailed: 0,
    } as VerificationReportTaskRow;
    const cells = verificationCsvCells(row);
    expect(cells).toHaveLength(VERIFICATION_CSV_HEADER.length);
    expect(cells.slice(0, 3)).toEqual(['Acme', 'db-1', 'Nightly']);
    expect(cells[VERIFICATION_CSV_HEADER.indexOf('Last data check result')]).toBe('PASSED');
    expect(cells[VERIFICATION_CSV_HEADER.indexOf('Runs failed')]).toBe(1);
  });

  it('names the files by a plain form of the subject and the period', () => {
    const period = { from: '2026-11-01', to: '2026-11-30' };
    expect(verificationFileName('Müller & Söhne GmbH', period, 'pdf')).toBe(
      'verification-report-muller-sohne-gmbh-2026-11-01-to-2026-11-30.pdf',
    );
    expect(verificationFileName('所有', period, 'csv')).toBe(
      'verification-report-customer-2026-11-01-to-2026-11-30.csv',
    );
  });

  it('sums the month up in the mail', () => {
    const counts = {
      runsSucceeded: 3,
      runsFailed: 1,
      restoreTestsPassed: 2,
      restoreTestsFailed: 0,
      dataChecksPassed: 5,
      dataChecksFailed: 1,
    };
    const lines = VERIFICATION_REPORT_TEXTS.mailLines('2026-11', 4, 2, counts as never);
    expect(lines).toContain('Backup runs: 3 succeeded, 1 failed.');
    expect(lines).toContain('Data checks: 5 passed, 1 failed.');
    expect(VERIFICATION_REPORT_TEXTS.mailSubject('2026-11')).toBe('Verification report for 2026-11');
  });
});
