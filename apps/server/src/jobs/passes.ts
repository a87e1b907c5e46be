import type { Job } from './runner.js';

const MINUTE = 60_000;

/**
 * The jobs that are one pass of a feature's service on a clock: when each runs and how long a pass may take. Each
 * pass claims its own rows (locks, leases, SKIP LOCKED), so several server instances may run it at once.
 */
const PASSES = {
  /** Takes up the snapshot archive deletions left pending (a restart, a locked repository), at start and every minute. */
  'restore-deletions': { everyMs: MINUTE, atStart: true, timeoutMs: 5 * MINUTE },
  /**
   * Scheduled restore tests (issue 32 item 1, features/restore-tests): every minute the due tasks' tests are marked
   * RUNNING (under a lock on each task, so several instances never start one twice) and sent to their agents, a few
   * per pass so a fleet's tests spread over time; tests whose agent never reported are failed first.
   */
  'restore-tests': { everyMs: MINUTE, atStart: false, timeoutMs: 5 * MINUTE },
  /**
   * 'Last verified' by the clock (issue 32 item 3, features/verification): every minute the verified tasks whose
   * proof is now older than its interval plus the grace turn overdue and are alerted once. It reads only the tasks
   * past their deadline (a partial index on verification_overdue_at); SKIP LOCKED lets several instances run it at once.
   */
  verification: { everyMs: MINUTE, atStart: false, timeoutMs: 5 * MINUTE },
  /**
   * The monthly verification report mail (issue 32 item 4): every hour the customers that opted in and were not yet
   * mailed for last month are claimed (SKIP LOCKED, marked in the claiming statement) and their super admins' mails
   * queued in the same transaction, so several instances and a restart still send a month once.
   */
  'verification-report': { everyMs: 60 * MINUTE, atStart: false, timeoutMs: 10 * MINUTE },
  /**
   * Retention on the portal (issue 16, features/retention/service.ts): every minute (and when woken), the tasks
   * whose retention is due are taken one machine at a time and pruned with the storage location's own key. The
   * marks are in the database (backup_tasks.retention_due_at, leased while a pass works on them), so the job
   * resumes after a restart and several server instances may run it at once without pruning the same repository.
   */
  retention: { everyMs: MINUTE, atStart: true, timeoutMs: 5 * MINUTE },
  /**
   * Rotating data checks (issue 32, features/data-checks/service.ts): every five minutes the repositories whose check
   * is due are checked, a few at once. The rotation and the leases are in the database (repository_check_states), so
   * the job resumes after a restart and several server instances may run it at once without checking one repository
   * twice. A check reads a share of a repository's data, so a run may take long: the limit only logs it.
   */
  'data-checks': { everyMs: 5 * MINUTE, timeoutMs: 60 * MINUTE },
  /**
   * Stalled-run detection (issue 29, DESIGN §8): every minute, busy runs without progress for the stall limit are
   * marked stalled and alerted. The state is in the database (last_progress_at, stalled_at), so it resumes after a
   * restart, and several instances may run it at once (the claim skips locked rows and re-checks).
   */
  'run-stalls': { everyMs: MINUTE, timeoutMs: MINUTE },
  /**
   * Approves the requests whose billing invoice has been paid (features/purchase/paid-invoices.ts), every minute.
   * Safe on several instances: each request is claimed once in the database before its approval is asked for.
   */
  'paid-invoices': { everyMs: MINUTE, timeoutMs: 2 * MINUTE },
  /**
   * Keeps customers.unpaid_invoices (the header's 'Invoices due', 002 §2.2) close to the billing systems' counts,
   * every ten minutes. Each write sets the count WHMCS answered, so several instances may run it at once.
   */
  'billing-sync': { everyMs: 10 * MINUTE, timeoutMs: 5 * MINUTE },
  /**
   * The alerts no request causes (issue 17, DESIGN §8): machines offline past their customer's hours and the
   * daily and weekly summaries, every minute. Each pass claims due rows with SKIP LOCKED and marks them in the
   * statement that claims them, so several server instances may run it at once and a restart resumes where it was.
   */
  notifications: { everyMs: MINUTE, timeoutMs: 2 * MINUTE },
  /** Sent mails past their keeping time are cleared at start and every hour. */
  'sent-mail-cleanup': { everyMs: 60 * MINUTE, atStart: true, timeoutMs: MINUTE },
} satisfies Record<string, Pick<Job, 'everyMs' | 'atStart' | 'timeoutMs'>>;

export type PassName = keyof typeof PASSES;

/** The job of one service pass, with its clock from the table above. */
export const passJob = <Result>(name: PassName, run: () => Promise<Result>): Job<Result> => ({
  name,
  ...PASSES[name],
  run,
});
