import type { Job } from './runner.js';

/**
 * Prunes audit records older than the retention period (AUDIT_RETENTION_DAYS): the trail's only delete. Runs at
 * start and every six hours; several instances pruning at once delete the same rows, which does no harm.
 */
export function auditPruneJob(deps: {
  prune: (before: Date) => Promise<number>;
  retentionDays: number;
  now: () => Date;
  everyMs?: number;
}): Job<number> {
  return {
    name: 'audit-prune',
    everyMs: deps.everyMs ?? 6 * 3_600_000,
    atStart: true,
    timeoutMs: 5 * 60_000,
    run: () => deps.prune(new Date(deps.now().getTime() - deps.retentionDays * 86_400_000)),
  };
}
