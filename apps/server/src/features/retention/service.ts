import {
  DEFAULT_PRUNING_TIME_UNIT,
  isPanelBackupType,
  type MessageType,
  PANEL_MESSAGES,
  pruneRemovedAccountAt,
  RETENTION_MESSAGES,
  resticAccountTag,
  resticTaskTag,
  retentionRetryDelayMs,
  taskHasRetention,
} from '@portal/domain';
import { resticFailure, runRestic } from '../../platform/restic.js';
import { machineResticEnv, type RepositoryJobDeps, repositoryJobTools } from '../../storage/access.js';
import type { AgentEventsRepo } from '../agent-events/repo.js';
import { planRetention } from './plan.js';
import type { DueTask, RetentionRepo } from './repo.js';

/** How long an instance holds a machine's retention before another may take it over (a crash, a huge prune). */
export const RETENTION_LEASE_MS = 60 * 60_000;

/** How far ahead of the portal's clock a snapshot's time may be (clocks differ) before retention refuses to run. */
const FUTURE_TOLERANCE_MS = 24 * 60 * 60_000;

/** What the portal reads of `restic snapshots --json`. */
interface TaskSnapshot {
  id: string;
  time: string;
  tags?: string[];
}

/** restic's words for a repository another process holds: a backup running on the machine. */
const LOCKED = /repository is already locked|unable to create lock/i;

/**
 * Retention and the pruning of removed hosting accounts, on the portal (issue 16; the rules in
 * packages/domain/src/retention.ts and panels.ts). A finished run marks its task due; the job takes one
 * machine's due tasks at a time (its repository gets one `forget --prune` after another, never two at
 * once from this instance) and runs restic with the storage location's own key, since the machine's key
 * may not delete. Success clears the mark; a failure keeps it and tries again later, doubling the wait,
 * and the first failure of a series goes on the machine's message log in the agent's former words. A
 * repository locked by a running backup is simply tried later; only stale locks are ever removed
 * (`restic unlock`, never `--remove-all`).
 */
export function createRetentionService(
  deps: RepositoryJobDeps & {
    repo: RetentionRepo;
    /** The machine's message log (the agent events' queries). */
    messages: Pick<AgentEventsRepo, 'insertMessages'>;
  },
) {
  const { repo } = deps;
  const { binary, now } = repositoryJobTools(deps);
  // Failures in a row per task, for the back-off; a restart begins again at the shortest wait.
  const failures = new Map<number, number>();

  const restic = (args: readonly string[], env: Record<string, string>) =>
    runRestic({ binary, args: ['--no-cache', ...args], env });

  const note = (machineId: number, taskId: number, type: MessageType, text: string) =>
    deps.messages.insertMessages(machineId, taskId, null, [{ type, text, time: now() }]);

  /** The removed accounts of a panel task whose pruning delay has passed. */
  async function accountsDue(task: DueTask): Promise<string[]> {
    if (!isPanelBackupType(task.type)) return [];
    const settings = {
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: task.pruneAfterCount,
      timeUnitForBackupItemPruning: task.pruneTimeUnit ?? DEFAULT_PRUNING_TIME_UNIT,
    };
    const at = now();
    return (await repo.removedAccounts(task.id))
      .filter((row) => {
        const pruneAt = pruneRemovedAccountAt(task.type, settings, row.missingSince);
        return pruneAt !== null && pruneAt <= at;
      })
      .map((row) => row.account);
  }

  /** Applies the task's rules; the text for the machine's log when it failed, null when done. */
  async function applyTo(machineId: number, task: DueTask, env: Record<string, string>) {
    // Issue 32: an unusual run holds the task's retention (nothing forgotten) until it is acknowledged, which marks
    // the task due again.
    if (task.retentionHoldActionId !== null) return null;
    const due = await accountsDue(task);
    const keep = taskHasRetention(task.numberOfSnapshotsToKeep);
    if (due.length === 0 && !keep) return null;
    const listed = await restic(['snapshots', '--json', '--tag', resticTaskTag(task.id)], env);
    if (listed.code !== 0) {
      const why = resticFailure(listed);
      return { text: due.length > 0 ? PANEL_MESSAGES.pruneFailed(why) : RETENTION_MESSAGES.failed(why), why };
    }
    const snapshots = JSON.parse(listed.stdout.join('\n') || '[]') as TaskSnapshot[];

    if (due.length > 0) {
      const tags = new Set(due.map(resticAccountTag));
      const ids = snapshots.filter((s) => s.tags?.some((tag) => tags.has(tag))).map((s) => s.id);
      if (ids.length > 0) {
        const pruned = await restic(['forget', '--prune', ...ids], env);
        if (pruned.code !== 0) {
          const why = resticFailure(pruned);
          return { text: PANEL_MESSAGES.pruneFailed(why), why };
        }
      }
      await repo.dropRemovedAccounts(task.id, due);
      await note(machineId, task.id, 'INFO', PANEL_MESSAGES.pruned(due));
    }
    if (keep) {
      // `--keep-weekly` goes by the snapshots' own times, which the machine writes: snapshots dated ahead of the
      // portal's clock would push every real backup out, so retention waits until none is.
      const ahead = snapshots.filter((s) => Date.parse(s.time) > now().getTime() + FUTURE_TOLERANCE_MS).length;
      if (ahead > 0)
        return { text: RETENTION_MESSAGES.snapshotsAhead(ahead), why: RETENTION_MESSAGES.snapshotsAhead(ahead) };
      const plan = await planRetention(restic, env, {
        id: task.id,
        keep: task.numberOfSnapshotsToKeep,
        newestGood: await repo.newestGoodSnapshot(task.id),
      });
      if ('why' in plan) return { text: RETENTION_MESSAGES.failed(plan.why), why: plan.why };
      // The plan's snapshots by id: a backup that finished meanwhile is never among them.
      if (plan.forget.length > 0) {
        const kept = await restic(['forget', '--prune', ...plan.forget.map((s) => s.id)], env);
        if (kept.code !== 0) {
          const why = resticFailure(kept);
          return { text: RETENTION_MESSAGES.failed(why), why };
        }
      }
    }
    return null;
  }

  /** One claimed machine: its repository found once, then each due task in turn. */
  async function applyToMachine(machineId: number, tasks: DueTask[], lease: Date): Promise<void> {
    const env = await machineResticEnv(deps, machineId, binary);
    // No machine, or nothing ever stored for it: nothing to remove.
    if (env === null) {
      for (const task of tasks) await repo.finish(task.id, lease, now());
      return;
    }
    for (const task of tasks) {
      const failed = await applyTo(machineId, task, env);
      if (failed === null) {
        failures.delete(task.id);
        await repo.finish(task.id, lease, now());
        continue;
      }
      const count = (failures.get(task.id) ?? 0) + 1;
      failures.set(task.id, count);
      if (LOCKED.test(failed.why)) {
        // Clears only locks restic itself calls stale (a killed restic's); a running backup's lock stays.
        await restic(['unlock'], env);
      } else if (count === 1) {
        await note(machineId, task.id, 'WARNING', failed.text);
      }
      await repo.retryAt(task.id, lease, new Date(now().getTime() + retentionRetryDelayMs(count)));
    }
  }

  return {
    /**
     * A run finished: a task with a snapshot limit is due for retention when the run made a snapshot; a panel run's
     * accounts on the server are recorded, and the task is due when a removed account's pruning delay has passed.
     */
    async runFinished(
      taskId: number,
      run: { snapshotMade: boolean; numberOfSnapshotsToKeep: number; panelAccounts?: readonly string[] | undefined },
    ): Promise<void> {
      const at = now();
      let due = run.snapshotMade && taskHasRetention(run.numberOfSnapshotsToKeep);
      if (run.panelAccounts !== undefined) {
        await repo.recordPanelAccounts(taskId, run.panelAccounts, at);
        due ||= (await repo.removedAccounts(taskId)).length > 0;
      }
      if (due) await repo.markDue(taskId, at);
    },

    /** Applies every due retention no other instance holds, one machine at a time; returns how many machines. */
    async runPending(): Promise<number> {
      let machines = 0;
      for (;;) {
        const at = now();
        const lease = new Date(at.getTime() + RETENTION_LEASE_MS);
        const claim = await repo.claimMachine(at, lease);
        if (claim === null) return machines;
        // Another instance took the machine's tasks between the two steps of the claim: look again.
        if (claim.tasks.length === 0) continue;
        machines++;
        await applyToMachine(claim.machineId, claim.tasks, lease);
      }
    },
  };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
