import type { RestoreService } from '../features/restore/service.js';
import type { Job } from './runner.js';

/** Takes up the snapshot archive deletions left pending (a restart, a locked repository), at start and every minute. */
export function restoreDeletionsJob(deps: {
  restore: Pick<RestoreService, 'resumeDeletions'>;
  everyMs?: number;
}): Job<void> {
  return {
    name: 'restore-deletions',
    everyMs: deps.everyMs ?? 60_000,
    atStart: true,
    timeoutMs: 5 * 60_000,
    run: () => deps.restore.resumeDeletions(),
  };
}
