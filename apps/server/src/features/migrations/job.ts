import type { FastifyBaseLogger } from 'fastify';
import type { MigrationService } from './service.js';

/**
 * The migrations' job (DESIGN §8): sequences whose instance stopped renewing its lease are failed, the
 * automatic migrations of a storage account migration moved on, and the source copies of finalised
 * migrations removed. Every step is safe with several instances (leases and guarded updates) and runs again
 * after a restart.
 */
export function startMigrationJob(deps: { migrations: MigrationService; everyMs: number; logger: FastifyBaseLogger }): {
  stop(): void;
} {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await deps.migrations.sweepExpiredLeases();
      await deps.migrations.drive();
      await deps.migrations.removeSources();
    } catch (error) {
      deps.logger.error({ err: error }, 'migration job failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), deps.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
