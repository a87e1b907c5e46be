import type { PresenceRepo } from '../features/live/repo.js';
import type { Job } from './runner.js';

const BATCH = 1_000;

/**
 * A server instance that dies leaves its machines marked online. Every live connection moves its
 * machine's last-seen on at least every `touchEveryMs` (heart-beats count), so a machine marked online
 * whose last-seen is three of those old has no connection anywhere: it is marked offline and the
 * dashboards are told. Idempotent and guarded by the same condition in the update, so several
 * instances may run it at once; a live connection wrongly caught says online again on its next touch.
 */
export function stalePresenceJob(deps: {
  presence: Pick<PresenceRepo, 'markStaleOffline'>;
  touchEveryMs: number;
  machinesChanged: (machineIds: number[]) => void;
  now: () => Date;
  everyMs?: number;
}): Job<number> {
  return {
    name: 'stale-presence',
    everyMs: deps.everyMs ?? deps.touchEveryMs,
    timeoutMs: 60_000,
    async run() {
      const before = new Date(deps.now().getTime() - 3 * deps.touchEveryMs);
      let total = 0;
      for (;;) {
        const ids = await deps.presence.markStaleOffline(before, BATCH);
        total += ids.length;
        if (ids.length > 0) deps.machinesChanged(ids);
        if (ids.length < BATCH) return total;
      }
    },
  };
}
