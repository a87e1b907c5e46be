import { PINNED_SNAPSHOT_TAG, retentionPlanArgs } from '@portal/domain';
import { type ResticOutcome, resticFailure } from '../../platform/restic.js';

/** A snapshot of restic's plan. */
export interface PlannedSnapshot {
  id: string;
  time: string;
  tags: string[];
}

/** What the next retention of a task forgets, and how many snapshots it keeps (pinned ones among them). */
export interface RetentionPlan {
  forget: PlannedSnapshot[];
  kept: number;
  pinned: number;
}

/** One group of `restic forget --dry-run --json`'s answer. */
interface PlanGroup {
  keep: PlannedSnapshot[] | null;
  remove: PlannedSnapshot[] | null;
}

type Restic = (args: readonly string[], env: Record<string, string>) => Promise<ResticOutcome>;

/**
 * The task's retention as restic plans it (retentionPlanArgs: its rule, pinned snapshots kept), less the newest good
 * snapshot (issue 32: retention never forgets it, whatever the snapshots' dates say). The task dialog's preview and
 * retention itself both read this, so what the preview shows is what retention does. `{ why }` when restic failed.
 */
export async function planRetention(
  restic: Restic,
  env: Record<string, string>,
  task: { id: number; keep: number; newestGood: string | null },
): Promise<RetentionPlan | { why: string }> {
  const planned = await restic(retentionPlanArgs(task.id, task.keep), env);
  if (planned.code !== 0) return { why: resticFailure(planned) };
  const groups = JSON.parse(planned.stdout.join('\n') || '[]') as PlanGroup[];
  const isProtected = (s: PlannedSnapshot) => s.id === task.newestGood;
  const kept = groups.flatMap((g) => g.keep ?? []);
  const removed = groups.flatMap((g) => g.remove ?? []);
  const forget = removed.filter((s) => !isProtected(s)).sort((a, b) => a.time.localeCompare(b.time));
  return {
    forget,
    kept: kept.length + removed.length - forget.length,
    pinned: kept.filter((s) => s.tags.includes(PINNED_SNAPSHOT_TAG)).length,
  };
}
