import { type DownloadRequestForm, ROUTES } from '@portal/domain';
import { call } from '../../../app/api';
import { useApiMutation } from '../../../ui';

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
