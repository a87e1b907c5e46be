import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';

/** A run the stall job marked: what its alert and the task page's live update need. */
export interface StalledRun {
  id: number;
  taskId: number;
  machineId: number;
  lastProgressAt: Date;
}

/** The stall job's query (issue 29): busy runs without progress since the cutoff, marked stalled once. */
export function createRunStallsRepo(db: Executor) {
  return {
    /**
     * Marks stalled at `at` the busy runs, not yet stalled, whose last progress is before `cutoff`, longest
     * without progress first, at most `limit`. Rows another instance holds are skipped (SKIP LOCKED) and the
     * update re-checks the condition, so each stall is marked by one instance only (task_actions_stall_idx).
     */
    async claimStalled(cutoff: Date, at: Date, limit: number): Promise<StalledRun[]> {
      const rows = rowsOf<{
        id: number | string;
        backup_task_id: number;
        backup_machine_id: number;
        last_progress_at: string | Date;
      }>(
        await db.execute(sql`
          with due as (
            select id from task_actions
             where status in ('INITIATED', 'IN_PROGRESS') and stalled_at is null
               and last_progress_at < ${cutoff}
             order by last_progress_at
             limit ${limit}
               for update skip locked)
          update task_actions a set stalled_at = ${at}
            from due
           where a.id = due.id and a.status in ('INITIATED', 'IN_PROGRESS') and a.stalled_at is null
          returning a.id, a.backup_task_id, a.backup_machine_id, a.last_progress_at`),
      );
      return rows.map((r) => ({
        id: Number(r.id),
        taskId: Number(r.backup_task_id),
        machineId: Number(r.backup_machine_id),
        lastProgressAt: new Date(r.last_progress_at),
      }));
    },
  };
}
