import type { RestoreTestRow } from '@portal/domain';
import type { RestoreTestRecord } from './repo.js';

/** A test as the task page shows it: the fields listed here only. */
export function presentRestoreTest(row: RestoreTestRecord): RestoreTestRow {
  return {
    id: row.id,
    outcome: row.outcome,
    manual: row.manual,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    snapshotId: row.snapshotId,
    filesTested: row.filesTested,
    bytesTested: row.bytesTested,
    changedFilesTested: row.changedFilesTested,
    durationMs: row.durationMs,
    mismatchCount: row.mismatchCount,
    mismatches: row.mismatches,
    message: row.message,
  };
}
