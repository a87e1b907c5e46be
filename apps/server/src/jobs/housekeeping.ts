import type { AuthRepo } from '../features/auth/repo.js';
import type { MachineLinkRepo } from '../features/machine-link/repo.js';
import type { RestoreRepo } from '../features/restore/repo.js';
import type { Job } from './runner.js';

/**
 * Removes expired sessions, reset links, machine linking codes and download ids, at start and every 15 minutes.
 * Deletes are idempotent, so several server instances running it at once do no harm.
 */
export function housekeepingJob(deps: {
  auth: Pick<AuthRepo, 'deleteExpiredSessions' | 'deleteStaleResetTokens'>;
  linkingCodes: Pick<MachineLinkRepo, 'deleteExpiredCodes'>;
  downloads: Pick<RestoreRepo, 'deleteExpiredDownloads'>;
  idleMinutes: number;
  everyMs?: number;
}): Job<void> {
  return {
    name: 'housekeeping',
    everyMs: deps.everyMs ?? 15 * 60_000,
    atStart: true,
    timeoutMs: 60_000,
    async run() {
      const now = new Date();
      await deps.auth.deleteExpiredSessions(now, new Date(now.getTime() - deps.idleMinutes * 60_000));
      await deps.auth.deleteStaleResetTokens(new Date(now.getTime() - 24 * 3_600_000));
      await deps.linkingCodes.deleteExpiredCodes(now);
      await deps.downloads.deleteExpiredDownloads(now);
    },
  };
}
