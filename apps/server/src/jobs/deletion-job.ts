import type { Job } from './runner.js';

/**
 * An asynchronous deletion (DESIGN §8: customers, machines, packages): a delete request marks the row and wakes
 * this job, which removes the stored backups and rows. A sweep every few minutes takes up what a wake-up missed or
 * an instance left half-done, so deletions resume after a restart; each row is claimed with SKIP LOCKED and a
 * lease, so several server instances may run it at once.
 */
export function deletionJob(deps: {
  /** What is deleted, for the job's name ('customer', 'machine', 'package'). */
  what: string;
  runPending: () => Promise<number>;
  everyMs?: number;
}): Job<number> {
  return {
    name: `${deps.what}-deletion`,
    everyMs: deps.everyMs ?? 5 * 60_000,
    atStart: true,
    timeoutMs: 5 * 60_000,
    run: () => deps.runPending(),
  };
}
