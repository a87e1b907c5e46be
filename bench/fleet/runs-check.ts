// The restart storm's runs (issue 33 item 4: no run lost, none executed twice): what the agents ran, from their
// ledgers (agents.ts), against what the database holds afterwards.
import type { LedgerRun } from './agents.js';

/** A run as the database holds it (task_actions). */
export interface StoredRun {
  machineId: number;
  runKey: string;
  taskId: number;
  status: string;
  finishedAt: Date | null;
}

export interface RunsVerdict {
  /** Runs the agents started. */
  runs: number;
  /** Started before the old instance got SIGTERM and finished after it (or not at all). */
  inProgressAtRestart: number;
  /** Their start acknowledged by the new instance (sent again, or first sent, after the restart). */
  startsAfterRestart: number;
  /** Finished while the agent was away or after: their outcome acknowledged by the new instance. */
  finishesAfterRestart: number;
  /** Runs the agent finished whose row is missing, still busy, or holds another outcome (failed as interrupted). */
  lost: string[];
  /** Rows of runs no agent started. */
  extra: string[];
  /** Scheduled starts of a task for a slot of its schedule it had already started (each one after the first). */
  doubleStarts: string[];
  /** Runs the agents had not finished or delivered when the ledgers were read: the check cannot judge them. */
  unsettled: string[];
}

/**
 * `slotOf`: the slot of its task's schedule a scheduled run was started for (the latest scheduled time at or before
 * its start), as a number.
 */
export function compareRuns(
  ledger: readonly LedgerRun[],
  stored: readonly StoredRun[],
  restartAt: number,
  slotOf: (taskId: number, startedAt: string) => number,
): RunsVerdict {
  // One row a run key and machine at most: a unique index of task_actions.
  const rows = new Map(stored.map((row) => [`${row.machineId}/${row.runKey}`, row]));
  const extra: string[] = [];
  const lost: string[] = [];
  const unsettled: string[] = [];
  const slots = new Map<string, number>();
  const doubleStarts: string[] = [];
  let inProgressAtRestart = 0;
  let startsAfterRestart = 0;
  let finishesAfterRestart = 0;
  const known = new Set<string>();
  for (const run of ledger) {
    const key = `${run.machineId}/${run.runKey}`;
    known.add(key);
    const startedAt = new Date(run.startedAt).getTime();
    if (startedAt < restartAt && (run.finishedAt === null || new Date(run.finishedAt).getTime() > restartAt)) {
      inProgressAtRestart += 1;
    }
    if ((run.startAcknowledgedAt ?? 0) > restartAt) startsAfterRestart += 1;
    if ((run.finishAcknowledgedAt ?? 0) > restartAt) finishesAfterRestart += 1;
    if (!run.manual) {
      const slot = `${run.taskId}@${slotOf(run.taskId, run.startedAt)}`;
      const count = (slots.get(slot) ?? 0) + 1;
      slots.set(slot, count);
      if (count > 1) doubleStarts.push(`task ${run.taskId} started ${count} times for the slot of ${run.startedAt}`);
    }
    if (run.finishedAt === null || run.finishAcknowledgedAt === null) {
      unsettled.push(`${key} ${run.finishedAt === null ? 'still running' : 'outcome not delivered'}`);
      continue;
    }
    const row = rows.get(key);
    if (!row) lost.push(`${key} not stored`);
    else if (row.status !== run.status) lost.push(`${key} stored as ${row.status}, the agent reported ${run.status}`);
    else if (row.finishedAt?.getTime() !== new Date(run.finishedAt).getTime()) {
      lost.push(`${key} finished at ${row.finishedAt?.toISOString() ?? 'never'}, the agent reported ${run.finishedAt}`);
    }
  }
  for (const key of rows.keys()) if (!known.has(key)) extra.push(`${key} started by no agent`);
  return {
    runs: ledger.length,
    inProgressAtRestart,
    startsAfterRestart,
    finishesAfterRestart,
    lost,
    extra,
    doubleStarts,
    unsettled,
  };
}
