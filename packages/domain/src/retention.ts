import { resticTaskTag } from './agent-protocol.js';
import { PINNED_SNAPSHOT_TAG } from './guardrails.js';

/**
 * Retention and every other deletion of backup data run on the portal (issue 16): a machine's key may
 * write its repository but delete only restic's lock files, so ransomware on the machine cannot destroy
 * its backups. The portal applies the task's rules with its storage location's own key.
 */

/**
 * "Snapshots to keep (at most one kept snapshot per week per task)": `forget --tag task-{id} --group-by tags
 * --keep-weekly N`, i.e. the newest snapshot of each of the last N weeks that have one, and every pinned snapshot
 * (`--keep-tag`, issue 32). Grouping by tags keeps N weeks per cPanel / DirectAdmin account, and renaming the
 * machine or changing the task's paths does not restart the count. The portal runs it as a plan (`--dry-run
 * --json`): the task dialog's preview shows the plan, and retention forgets the plan's snapshots by id, less the
 * newest successful one, then prunes. The plan only reads, so it takes no lock (`--no-lock`): restic's forget would
 * otherwise take the exclusive one even for a dry run, and a preview would fail while the machine backs up or while
 * another preview of the same repository (the next digit typed) runs.
 */
export function retentionPlanArgs(taskId: number, keep: number): string[] {
  return [
    'forget',
    '--tag',
    resticTaskTag(taskId),
    '--group-by',
    'tags',
    '--keep-weekly',
    String(keep),
    '--keep-tag',
    PINNED_SNAPSHOT_TAG,
    '--dry-run',
    '--json',
    '--no-lock',
  ];
}

/** Whether a task's snapshot limit asks for retention at all: -1 (unlimited) and 0 (snapshots off) do not. */
export const taskHasRetention = (numberOfSnapshotsToKeep: number) => numberOfSnapshotsToKeep > 0;

/** The object types of a restic repository a machine's key may delete: restic's own lock files only. */
export const MACHINE_DELETABLE_OBJECT_TYPES = ['locks'] as const;

/** The portal's texts about retention and protected repositories. */
export const RETENTION_MESSAGES = {
  /** On the machine's message log when the portal's retention failed; it is tried again later. */
  failed: (why: string) => `Old snapshots could not be removed (retention will be applied after the next run): ${why}`,
  /**
   * On the machine's message log when the task has snapshots dated ahead of the portal's clock: restic keeps the
   * newest of each week by the snapshots' own times, so such snapshots would make it remove the real backups.
   */
  snapshotsAhead: (count: number) =>
    `Old snapshots were not removed: ${count} snapshot(s) of this task are dated in the future (check the machine's clock)`,
  /** The embedded storage's answer to a machine asking to delete backup data (403). */
  deleteRefused: (type: string) =>
    `A machine may not delete ${type} from its repository: retention and deletions are done by the portal`,
} as const;

/** How long the portal waits before trying a failed retention again: doubling from 1 minute up to 6 hours. */
export function retentionRetryDelayMs(failures: number): number {
  const minute = 60_000;
  return Math.min(minute * 2 ** Math.max(0, failures - 1), 6 * 60 * minute);
}
