import {
  type Actor,
  isProviderAdmin,
  isResellerAdmin,
  type Paged,
  pageOf,
  restoreTestIntervalDays,
  VERIFICATION,
  VERIFICATION_STATUSES,
  type VerificationCounts,
  type VerificationLimits,
  type VerificationTaskQuery,
  type VerificationTaskRow,
  verificationNeedsAttention,
  verificationOverdueAt,
  verificationStatus,
} from '@portal/domain';
import type { Db, Executor } from '../../db/client.js';
import type { NotificationEvents } from '../notifications/service.js';
import { presentVerificationTaskRow } from './present.js';
import { createVerificationRepo } from './repo.js';
import { tenantScopeOf } from './scope.js';

/** The alert of a task whose verification became failed or overdue (NotificationEvents.verificationAlert). */
export type VerificationAlert = NotificationEvents['verificationAlert'];

/**
 * 'Last verified' (issue 32 item 3): after a restore test or a data check ends, the facts of the tasks concerned are
 * read again from their tests and checks and kept on the task with the domain's status; the sweep (job verification)
 * turns verified tasks past their deadline overdue. A task that becomes FAILED or OVERDUE is alerted once, in the
 * transaction that turned it, to the users who get verification alerts. The dashboard counts and lists the caller's
 * tasks by status.
 */
export function createVerificationService(deps: {
  db: Db;
  alert: VerificationAlert;
  defaults: { restoreTestIntervalDays: number; dataCheckPeriodDays: number };
  now: () => Date;
}) {
  const repo = createVerificationRepo(deps.db);

  async function limitsOf(tx: Executor, customerId: number): Promise<VerificationLimits> {
    const override = await createVerificationRepo(tx).intervalOverride(customerId);
    return {
      restoreTestIntervalDays: restoreTestIntervalDays(deps.defaults.restoreTestIntervalDays, override),
      dataCheckPeriodDays: deps.defaults.dataCheckPeriodDays,
    };
  }

  /** Recomputes and keeps the tasks' facts and status, alerting those that turned failed or overdue. */
  async function refresh(where: { taskIds?: readonly number[]; machineId?: number }): Promise<void> {
    await deps.db.transaction(async (tx) => {
      const txRepo = createVerificationRepo(tx);
      const tasks = await txRepo.tasks(where);
      const checks = new Map<number, Awaited<ReturnType<typeof txRepo.dataCheckFacts>>>();
      const now = deps.now();
      for (const task of tasks) {
        const read = checks.get(task.machineId) ?? (await txRepo.dataCheckFacts(task.machineId));
        checks.set(task.machineId, read);
        const facts = { ...(await txRepo.restoreTestFacts(task.id)), ...read };
        const limits = await limitsOf(tx, task.customerId);
        const status = verificationStatus(facts, limits, now);
        const saved = await txRepo.save(task.id, facts, verificationOverdueAt(facts, limits), status, now);
        if (saved.changed && (status === 'FAILED' || status === 'OVERDUE')) {
          await deps.alert(tx, { taskId: task.id, status, since: saved.since });
        }
      }
    });
  }

  return {
    /** A restore test of these tasks ended (passed, mismatched, failed or timed out). */
    restoreTestsEnded: (taskIds: readonly number[]) => (taskIds.length ? refresh({ taskIds }) : Promise.resolve()),
    /** A data check of the machine's repository ended: every task of the machine shares it. */
    dataCheckEnded: (machineId: number) => refresh({ machineId }),

    /** Turns verified tasks past their deadline overdue, alerting each; answers how many. */
    async sweepOverdue(): Promise<number> {
      let total = 0;
      for (;;) {
        const turned = await deps.db.transaction(async (tx) => {
          const now = deps.now();
          const ids = await createVerificationRepo(tx).sweepOverdue(now, VERIFICATION.sweepBatch);
          for (const taskId of ids) await deps.alert(tx, { taskId, status: 'OVERDUE', since: now });
          return ids.length;
        });
        total += turned;
        if (turned < VERIFICATION.sweepBatch) return total;
      }
    },

    /** The customer's interval changed: its tasks' next scheduled restore test moves with it. */
    async intervalChanged(customerId: number, overrideDays: number | null): Promise<void> {
      await repo.rescheduleCustomer(
        customerId,
        restoreTestIntervalDays(deps.defaults.restoreTestIntervalDays, overrideDays),
        { periodDays: deps.defaults.dataCheckPeriodDays, graceDays: VERIFICATION.graceDays },
        deps.now(),
      );
    },

    async counts(actor: Actor): Promise<VerificationCounts & { attention: number }> {
      const counts = await repo.counts(await tenantScopeOf(deps.db, actor));
      const attention = VERIFICATION_STATUSES.filter(verificationNeedsAttention).reduce((n, s) => n + counts[s], 0);
      return { ...counts, attention };
    },

    async tasks(actor: Actor, query: VerificationTaskQuery): Promise<Paged<VerificationTaskRow>> {
      const scope = await tenantScopeOf(deps.db, actor);
      const { rows } = await repo.taskPage(scope, query.status, query);
      const counts = await repo.counts(scope);
      const total = query.status ? counts[query.status] : VERIFICATION_STATUSES.reduce((n, s) => n + counts[s], 0);
      const audience = isProviderAdmin(actor) ? 'provider' : isResellerAdmin(actor) ? 'reseller' : 'customer';
      return pageOf(
        rows.map((row) => presentVerificationTaskRow(row, audience, actor.customerId)),
        total,
        query.size,
      );
    },
  };
}
export type VerificationService = ReturnType<typeof createVerificationService>;
