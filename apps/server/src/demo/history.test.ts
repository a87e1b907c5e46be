import { SECOND_MS, type TaskDisplayStatus, taskDisplayStatus } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import type { Recipe } from './data.js';
import { demoRunSummary, type HistoryMode, restoreRun, seedCreationRun, taskHistory, taskStatusOf } from './history.js';
import { Random } from './random.js';
import { DEMO_SCHEDULES } from './schedule.js';

/** What each recipe is for: the display status its task shows on a machine nothing stops (000 §4). */
const EXPECTED: Record<Recipe, TaskDisplayStatus> = {
  success: 'LAST_SUCCEEDED',
  warnings: 'LAST_SUCCEEDED',
  inProgressAfterSuccess: 'LAST_SUCCEEDED',
  failed: 'LAST_FAILED',
  inProgressAfterFailure: 'LAST_FAILED',
  missed: 'MISSED',
  never: 'NOT_COMPLETED_YET',
  initiatedFirst: 'NOT_COMPLETED_YET',
  paused: 'NOT_RUNNABLE',
  awaitingSeed: 'AWAITING_SEED',
  beingDeleted: 'BEING_DELETED',
  deletionFailed: 'DELETION_FAILED',
};
const RECIPES = Object.keys(EXPECTED) as Recipe[];
const MODES: readonly HistoryMode[] = [{ kind: 'schedule', timeZone: 'Europe/London' }, { kind: 'fast' }];
const NOW = Date.parse('2026-03-04T10:17:00Z');

describe('the run history of generated tasks (demo and benchmark)', () => {
  for (const mode of MODES) {
    it(`gives every recipe its display status, runs in order and in the past (${mode.kind})`, () => {
      const rng = new Random(7);
      for (let round = 0; round < 4; round++) {
        for (const recipe of RECIPES) {
          for (const schedule of DEMO_SCHEDULES) {
            const { runs, createdAt } = taskHistory(rng, NOW, recipe, schedule, mode);
            const display = taskDisplayStatus({
              status: taskStatusOf(recipe),
              lastExecutionMissed: recipe === 'missed',
              statusOfLastRun: runs.at(-1)?.status ?? null,
              statusOfRunBeforeLast: runs.at(-2)?.status ?? null,
              machineStatus: 'ACTIVE',
              packageStatus: 'ACTIVE',
              customerStatus: 'ACTIVE',
            });
            const where = `${recipe} on '${schedule.cron}'`;
            expect(display, where).toBe(EXPECTED[recipe]);
            expect(createdAt, where).toBeLessThan(runs[0]?.start ?? NOW);
            runs.forEach((run, i) => {
              const next = runs[i + 1];
              expect(run.type, where).toBe('BACKUP_RUN');
              if (run.finish === null) {
                expect(next, `${where}: only the last run is under way`).toBeUndefined();
                expect(run.start, where).toBeLessThan(NOW);
                return;
              }
              expect(run.finish, where).toBeGreaterThan(run.start);
              expect(run.finish, `${where}: ends before the next run starts`).toBeLessThan(next?.start ?? NOW);
            });
          }
        }
      }
    });
  }

  it('places a seed creation and a restore in the past, the restore after a successful run', () => {
    const rng = new Random(11);
    const seed = seedCreationRun(rng, NOW);
    expect(seed.finish).toBeLessThan(NOW);
    const { runs } = taskHistory(rng, NOW, 'success', DEMO_SCHEDULES[0] ?? fail(), { kind: 'fast' });
    const restore = restoreRun(rng, NOW, runs, 1);
    const lastFinish = runs.at(-1)?.finish ?? fail();
    expect(restore?.type).toBe('BACKUP_RESTORE');
    expect(restore?.start).toBeGreaterThan(lastFinish);
    expect(restore?.start).toBeLessThanOrEqual(NOW - 30 * 60 * SECOND_MS);
    expect(restoreRun(rng, NOW, [], 1)).toBeNull();
  });

  it("gives a run a summary in proportion to what it read and added (issue 31's run report)", () => {
    const first = demoRunSummary(100_000_000, 100_000_000, 60_000);
    expect(first).toMatchObject({ filesNew: 50, filesChanged: 0, filesUnmodified: 0, dirsNew: 3, durationSeconds: 54 });
    const later = demoRunSummary(100_000_000, 2_000_000, 10_000);
    expect(later).toMatchObject({ filesNew: 0, filesChanged: 1, filesUnmodified: 49 });
    expect(later.dirsChanged + later.dirsUnmodified).toBe(3);
  });
});

function fail(): never {
  throw new Error('missing fixture');
}
