import type { VerificationService } from '../features/verification/service.js';
import type { Job } from './runner.js';

/**
 * 'Last verified' by the clock (issue 32 item 3, features/verification): every minute the verified tasks whose proof
 * is now older than its interval plus the grace turn overdue and are alerted once. It reads only the tasks past their
 * deadline (a partial index on verification_overdue_at); SKIP LOCKED lets several instances run it at once.
 */
export function verificationJob(deps: {
  verification: Pick<VerificationService, 'sweepOverdue'>;
  everyMs?: number;
}): Job<number> {
  return {
    name: 'verification',
    everyMs: deps.everyMs ?? 60_000,
    timeoutMs: 5 * 60_000,
    run: () => deps.verification.sweepOverdue(),
  };
}
