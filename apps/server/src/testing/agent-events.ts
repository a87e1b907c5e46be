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
