import type { FastifyBaseLogger } from 'fastify';
import type { AuthRepo } from '../features/auth/repo.js';
import type { MachineLinkRepo } from '../features/machine-link/repo.js';
import type { RestoreRepo } from '../features/restore/repo.js';

/**
 * Removes expired sessions, reset links, machine linking codes and download ids. Deletes are idempotent, so several
 * server instances running it at once do no harm.
 */
export function startHousekeeping(deps: {
  auth: AuthRepo;
  linkingCodes: Pick<MachineLinkRepo, 'deleteExpiredCodes'>;
  downloads: Pick<RestoreRepo, 'deleteExpiredDownloads'>;
  idleMinutes: number;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): () => void {
  const run = async () => {
    const now = new Date();
    try {
      await deps.auth.deleteExpiredSessions(now, new Date(now.getTime() - deps.idleMinutes * 60_000));
      await deps.auth.deleteStaleResetTokens(new Date(now.getTime() - 24 * 3_600_000));
      await deps.linkingCodes.deleteExpiredCodes(now);
      await deps.downloads.deleteExpiredDownloads(now);
    } catch (error) {
      deps.logger.warn({ err: error }, 'housekeeping failed; will retry');
    }
  };
  void run();
  const timer = setInterval(run, deps.intervalMs ?? 15 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
