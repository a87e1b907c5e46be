import { describe, expect, it } from 'vitest';
import type { LedgerRun } from './agents.js';
import { compareRuns, type StoredRun } from './runs-check.js';

const RESTART = Date.parse('2026-12-08T01:00:30Z');
/** Every-five-minute slots: the run's start rounded down to five minutes. */
const slotOf = (_taskId: number, startedAt: string) => Math.floor(Date.parse(startedAt) / 300_000);

const run = (runKey: string, startedAt: string, finishedAt: string, manual = false): LedgerRun => ({
  machineId: 1,
  runKey,
  taskId: 1,
  manual,
  startedAt,
  startAcknowledgedAt: Date.parse(startedAt) + 100,
  status: 'FINISHED_SUCCESS',
  finishedAt,
  finishAcknowledgedAt: Date.parse(finishedAt) + 100,
});
const stored = (r: LedgerRun, status = r.status ?? ''): StoredRun => ({
  machineId: r.machineId,
  runKey: r.runKey,
  taskId: r.taskId,
  status,
  finishedAt: r.finishedAt ? new Date(r.finishedAt) : null,
});

describe('the restart storm runs check', () => {
  const across = run('a', '2026-12-08T01:00:10Z', '2026-12-08T01:00:50Z', true);
  const scheduled = run('b', '2026-12-08T01:05:00Z', '2026-12-08T01:05:30Z');

  it('passes runs stored once with the outcome their agent reported, and counts those going at the restart', () => {
    const verdict = compareRuns([across, scheduled], [stored(across), stored(scheduled)], RESTART, slotOf);
    expect(verdict).toMatchObject({ runs: 2, inProgressAtRestart: 1, finishesAfterRestart: 2 });
    expect([...verdict.lost, ...verdict.extra, ...verdict.doubleStarts, ...verdict.unsettled]).toEqual([]);
  });

  it('finds a run missing, one failed as interrupted, and one stored that no agent started', () => {
    const verdict = compareRuns(
      [across, scheduled],
      [stored(across, 'FAILED'), stored({ ...scheduled, runKey: 'c' })],
      RESTART,
      slotOf,
    );
    expect(verdict.lost).toEqual(['1/a stored as FAILED, the agent reported FINISHED_SUCCESS', '1/b not stored']);
    expect(verdict.extra).toEqual(['1/c started by no agent']);
  });

  it('finds a task started twice for one slot of its schedule, and runs not yet delivered', () => {
    const again = run('d', '2026-12-08T01:06:10Z', '2026-12-08T01:06:40Z');
    const pending = { ...run('e', '2026-12-08T01:10:00Z', '2026-12-08T01:10:30Z'), finishAcknowledgedAt: null };
    const verdict = compareRuns(
      [scheduled, again, pending],
      [stored(scheduled), stored(again), stored(pending)],
      RESTART,
      slotOf,
    );
    expect(verdict.doubleStarts).toEqual(['task 1 started 2 times for the slot of 2026-12-08T01:06:10Z']);
    expect(verdict.unsettled).toEqual(['1/e outcome not delivered']);
  });
});
