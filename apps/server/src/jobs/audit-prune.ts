import type { FastifyBaseLogger } from 'fastify';

/**
 * Prunes audit records older than the retention period (AUDIT_RETENTION_DAYS): the trail's only delete. Runs at
 * start and every six hours; several instances pruning at once delete the same rows, which does no harm.
 */
export function startAuditPrune(deps: {
  prune: (before: Date) => Promise<number>;
  retentionDays: number;
  logger: FastifyBaseLogger;
  now?: () => Date;
  intervalMs?: number;
}) {
  const now = deps.now ?? (() => new Date());
  const runOnce = async (): Promise<number> => {
    try {
      const removed = await deps.prune(new Date(now().getTime() - deps.retentionDays * 86_400_000));
      if (removed > 0) deps.logger.info({ removed }, 'audit records past their retention pruned');
      return removed;
    } catch (error) {
      deps.logger.warn({ err: error }, 'audit prune failed; will retry');
      return 0;
    }
  };
  void runOnce();
  const timer = setInterval(runOnce, deps.intervalMs ?? 6 * 3_600_000);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
