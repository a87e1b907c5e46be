import { stallCutoff } from '@portal/domain';
import type { Db, Executor } from '../../db/client.js';
import { createRunStallsRepo, type StalledRun } from './repo.js';

const BATCH = 200;

/**
 * Stalled runs (issue 29; domain runs.ts): a pass marks the busy runs that reported no progress for the stall
 * limit, alerts each in the transaction that marks it (as a failed run is alerted in the one that records it),
 * then tells the pages watching their machines. A run marked twice is impossible (the claim re-checks), so a
 * repeated or concurrent pass alerts nobody twice.
 */
export function createRunStallService(deps: {
  db: Db;
  stallMinutes: number;
  /** The notifications feature's stalled-run alert, in the marking transaction. */
  runStalled: (
    tx: Executor,
    run: { actionId: number; taskId: number; lastProgressAt: Date; stallMinutes: number },
  ) => Promise<unknown>;
  /** A run was marked: the task pages watching its machine read it again. */
  onStalled?: (run: StalledRun) => void;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return {
    /** Marks every run stalled by now, a batch per transaction; answers how many. */
    async pass(): Promise<number> {
      let total = 0;
      for (;;) {
        const at = now();
        const marked = await deps.db.transaction(async (tx) => {
          const runs = await createRunStallsRepo(tx).claimStalled(stallCutoff(at, deps.stallMinutes), at, BATCH);
          for (const run of runs) {
            await deps.runStalled(tx, {
              actionId: run.id,
              taskId: run.taskId,
              lastProgressAt: run.lastProgressAt,
              stallMinutes: deps.stallMinutes,
            });
          }
          return runs;
        });
        for (const run of marked) deps.onStalled?.(run);
        total += marked.length;
        if (marked.length < BATCH) return total;
      }
    },
  };
}

export type RunStallService = ReturnType<typeof createRunStallService>;
