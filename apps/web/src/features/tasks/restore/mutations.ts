import { type DownloadRequestForm, type RestoreRequest, ROUTES, TIMINGS } from '@portal/domain';
import { call } from '../../../app/api';
import { useApiMutation } from '../../../ui';
import { taskKeys } from '../queries';

/** A run of a task, on the customer's paths (002 §7.6). */
export interface RunRef {
  machineId: number;
  taskId: number;
  runId: number;
}

/**
 * POST .../downloads/initiate (002 §7.6): answers the downloadId. Nothing on the page changes until the
 * download itself, so nothing is refreshed.
 */
export const useInitiateDownload = () =>
  useApiMutation({
    request: ({ run, request }: { run: RunRef; request: DownloadRequestForm }) =>
      call(ROUTES.restore.initiateDownload, run, request),
    refreshes: () => [],
  });

/** PUT .../backupsnapshots/{s}?archivedelete=true (002 §7.5); the task page refreshes through onDeleted. */
export const useDeleteArchive = () =>
  useApiMutation({
    request: (at: { machineId: number; taskId: number; snapshotId: number }) =>
      call(ROUTES.restore.deleteArchive, at, undefined, { archivedelete: true }),
    refreshes: () => [],
  });

/**
 * POST .../backupruns/{r}/restore (issue 14): the agent restores the run's snapshot; the task's actions show the
 * restore once the agent reports it (the runs queue reloads the page; this refresh catches a quick one).
 */
export const useRestoreToMachine = () =>
  useApiMutation({
    request: ({ run, request }: { run: RunRef; request: RestoreRequest }) =>
      call(ROUTES.restore.restoreToMachine, run, request),
    refreshes: ({ run }) => [{ queryKey: taskKeys.task(run.machineId, run.taskId), afterMs: TIMINGS.tableRefreshMs }],
  });
