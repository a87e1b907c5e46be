import type { VerificationReportService } from '../features/verification-report/service.js';
import type { Job } from './runner.js';

/**
 * The monthly verification report mail (issue 32 item 4): every hour the customers that opted in and were not yet
 * mailed for last month are claimed (SKIP LOCKED, marked in the claiming statement) and their super admins' mails
 * queued in the same transaction, so several instances and a restart still send a month once.
 */
export function verificationReportJob(deps: {
  verificationReport: Pick<VerificationReportService, 'monthlyPass'>;
  everyMs?: number;
}): Job<number> {
  return {
    name: 'verification-report',
    everyMs: deps.everyMs ?? 60 * 60_000,
    atStart: false,
    timeoutMs: 10 * 60_000,
    run: () => deps.verificationReport.monthlyPass(),
  };
}
