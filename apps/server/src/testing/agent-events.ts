import type { AgentToServer } from '@portal/domain';

/** The agent's report of a finished restore test of `snapshotId`: 12 files, one changed file's content differing on MISMATCH. */
export function restoreTestFinished(
  testKey: string,
  outcome: 'PASSED' | 'MISMATCH',
  snapshotId: string,
): Extract<AgentToServer, { type: 'restoreTestFinished' }> {
  const mismatches = outcome === 'MISMATCH' ? [{ path: '/docs/a.txt', kind: 'CONTENT' as const }] : [];
  return {
    type: 'restoreTestFinished',
    testKey,
    outcome,
    snapshotId,
    filesTested: 12,
    bytesTested: 4096,
    changedFilesTested: 3,
    durationMs: 1500,
    mismatchCount: mismatches.length,
    mismatches,
    message: null,
  };
}

type RunFinished = Extract<AgentToServer, { type: 'runFinished' }>;

/** The agent's report of a run that ended well (10 bytes added, 10 in all, no snapshot) unless `changes` say otherwise. */
export function runFinished(runKey: string, changes: Partial<Omit<RunFinished, 'type' | 'runKey'>> = {}): RunFinished {
  return {
    type: 'runFinished',
    runKey,
    status: 'FINISHED_SUCCESS',
    finishedAt: new Date().toISOString(),
    exitCodeResult: 'SUCCESS',
    failureMessage: null,
    snapshotId: null,
    bytesAdded: 10,
    bytesTotal: 10,
    ...changes,
  };
}

/** The agent's report of a run that failed: restic could not open the repository, so no snapshot and no figures. */
export const runFailed = (runKey: string, changes: Partial<Omit<RunFinished, 'type' | 'runKey'>> = {}) =>
  runFinished(runKey, {
    status: 'FAILED',
    exitCodeResult: 'FATAL',
    failureMessage: 'Fatal: unable to open repository',
    bytesAdded: null,
    bytesTotal: null,
    ...changes,
  });
