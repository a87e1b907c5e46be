import type { MigrationService } from '../features/migrations/service.js';
import type { Job } from './runner.js';

/**
 * The migrations' job (DESIGN §8): sequences whose instance stopped renewing its lease are failed, the
 * automatic migrations of a storage account migration moved on, and the source copies of finalised
 * migrations removed. Every step is safe with several instances (leases and guarded updates) and runs again
 * after a restart.
 */
export function migrationsJob(deps: {
  migrations: Pick<MigrationService, 'sweepExpiredLeases' | 'drive' | 'removeSources'>;
  everyMs: number;
}): Job<void> {
  return {
    name: 'migrations',
    everyMs: deps.everyMs,
    timeoutMs: 5 * 60_000,
    async run() {
      await deps.migrations.sweepExpiredLeases();
      await deps.migrations.drive();
      await deps.migrations.removeSources();
    },
  };
}

/**
 * The leases of the sequences this instance runs, renewed three times per lease: an instance that stops renewing
 * (it died) has its sequences failed by the sweep above on another instance.
 */
export function migrationLeasesJob(deps: {
  migrations: Pick<MigrationService, 'renewLeases'>;
  leaseMs: number;
}): Job<number> {
  return {
    name: 'migration-leases',
    everyMs: Math.max(50, Math.floor(deps.leaseMs / 3)),
    timeoutMs: deps.leaseMs,
    run: () => deps.migrations.renewLeases(),
  };
}
