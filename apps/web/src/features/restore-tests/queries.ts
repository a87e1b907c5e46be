import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';

export interface TaskOfMachine {
  machineId: number;
  taskId: number;
}

export const restoreTestKeys = {
  /** The task's last test and its history refresh by this prefix. */
  task: (ref: TaskOfMachine) => ['restoreTests', ref.machineId, ref.taskId] as const,
  /** The account's interval override with the provider's default (its super admin's). */
  settings: () => ['restoreTests', 'settings'] as const,
};

/** While a test runs its result is asked for again this often: the agent reports it once, when it ends. */
const RUNNING_POLL_MS = 2000;

/** The task page's last restore test and whether the caller may start one. */
export const useRestoreTestSummary = (ref: TaskOfMachine) =>
  useQuery({
    queryKey: [...restoreTestKeys.task(ref), 'summary'],
    queryFn: () => getResult(routeCall(ROUTES.restoreTests.summary, ref)),
    retry: false,
    refetchInterval: (query) => (query.state.data?.latest?.outcome === 'RUNNING' ? RUNNING_POLL_MS : false),
  });

export const restoreTestHistoryCall = (ref: TaskOfMachine) => routeCall(ROUTES.restoreTests.history, ref);

/** The account's restore test interval and the provider's default (GET /admin/restoretestsettings). */
export const useRestoreTestSettings = () => useRouteQuery(restoreTestKeys.settings(), ROUTES.restoreTests.settings, {});
