import {
  type Audience,
  isBusyRunStatus,
  RESTORE_END_TEXTS,
  restoreSummaryText,
  type TaskActionRow,
} from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { getResult } from '../../../app/api';
import { toast } from '../../../ui';
import { actionsCall, type TaskRef, taskKeys } from '../queries';

/** A finished restore's summary under its row's progress (issue 31). */
export function RestoreSummaryNote({ run }: { run: TaskActionRow }) {
  if (run.restoreSummary === null) return null;
  return (
    <div className="small" data-testid="restore-summary">
      {restoreSummaryText(run.restoreSummary)}
    </div>
  );
}

/** A restore started from this page counts as its own if the agent's start is at most this much earlier. */
const CLOCK_SKEW_MS = 30_000;

/**
 * Says with a toast how a restore ended (issue 31): a restore this page saw running, or one started from it. While
 * one may be running the task's newest restore is read along with the page's other reads (the task's key, so the
 * live run events refresh it too); once it is no longer busy the toast gives its summary or its failure, once.
 * Returns what the restore dialog calls when the agent took a restore.
 */
export function useRestoreEndToast(audience: Audience, taskRef: TaskRef, restoreRunning: boolean) {
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [runningId, setRunningId] = useState<number | null>(null);
  const told = useRef(new Set<number>());
  const newest = useQuery({
    queryKey: [...taskKeys.task(taskRef.machineId, taskRef.taskId), 'newestRestore', audience],
    queryFn: () => getResult(actionsCall(audience, taskRef), { type: 'BACKUP_RESTORE', page: 0, size: 1 }),
    enabled: restoreRunning || startedAt !== null || runningId !== null,
    retry: false,
  }).data?.elements[0];

  useEffect(() => {
    if (!newest || told.current.has(newest.id)) return;
    if (isBusyRunStatus(newest.status)) {
      setRunningId(newest.id);
      return;
    }
    const startedHere = startedAt !== null && Date.parse(newest.timeStarted) >= startedAt - CLOCK_SKEW_MS;
    if (newest.id !== runningId && !startedHere) return;
    told.current.add(newest.id);
    setRunningId(null);
    setStartedAt(null);
    if (newest.status === 'FAILED') toast.error(RESTORE_END_TEXTS.failed(newest.failureMessage));
    else if (newest.status === 'FINISHED_WARNINGS') toast.warning(RESTORE_END_TEXTS.finished(newest.restoreSummary));
    else toast.success(RESTORE_END_TEXTS.finished(newest.restoreSummary));
  }, [newest, runningId, startedAt]);

  return { started: () => setStartedAt(Date.now()) };
}
