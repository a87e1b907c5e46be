import { type FileHistoryRequest, type FileSearchForm, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';

/** POST /backupmachines/{m}/filesearches (issue 31): the agent searches; its matches follow on the live channel. */
export const useStartFileSearch = () =>
  useApiMutation({
    request: ({ machineId, request }: { machineId: number; request: FileSearchForm }) =>
      call(ROUTES.fileSearch.start, { machineId }, request),
    refreshes: () => [],
  });

/** POST …/backuptasks/{t}/filehistory: every snapshot of the task that holds the path. */
export const useStartFileHistory = () =>
  useApiMutation({
    request: ({ machineId, taskId, request }: { machineId: number; taskId: number; request: FileHistoryRequest }) =>
      call(ROUTES.fileSearch.history, { machineId, taskId }, request),
    refreshes: () => [],
  });

export const useStopFileSearch = () =>
  useApiMutation({
    request: ({ machineId, searchId }: { machineId: number; searchId: string }) =>
      call(ROUTES.fileSearch.stop, { machineId }, { searchId }),
    refreshes: () => [],
  });
