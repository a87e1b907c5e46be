import { type Audience, ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, type RouteCall, routeCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';

/** Where a task lives; customerId and packageId matter on the admin audiences' paths only. */
export interface TaskRef {
  customerId: number;
  packageId: number;
  machineId: number;
  taskId: number;
}

export const taskKeys = {
  /** The machine page's tasks table; the add-task button refreshes it by this prefix. */
  machineTasks: (machineId: number) => ['machineTasks', machineId] as const,
  /** Everything one task page shows (detail, runs, snapshots, storage) refreshes by this prefix. */
  task: (machineId: number, taskId: number) => ['task', machineId, taskId] as const,
};

// The three audiences' task routes differ only in the path's leading ids and answer the same types; the
// customer's build ignores the admin ids, so one typed view serves all three.
type TaskRoutes = typeof ROUTES.tasks.provider;
export const taskRoutes = (audience: Audience): TaskRoutes => ROUTES.tasks[audience] as unknown as TaskRoutes;

export interface TaskPageCalls {
  detail: RouteCall<TaskRoutes['detail']>;
  snapshots: RouteCall<TaskRoutes['snapshots']>;
  storage: RouteCall<TaskRoutes['storage']>;
}

export function taskPageCalls(audience: Audience, ref: TaskRef): TaskPageCalls {
  const r = taskRoutes(audience);
  return {
    detail: routeCall(r.detail, ref),
    snapshots: routeCall(r.snapshots, ref),
    storage: routeCall(r.storage, ref),
  };
}

/** The runs table's call: the customer's /backupruns for backup runs (002 §7.5), otherwise actions?type=. */
export function actionsCall(audience: Audience, ref: TaskRef) {
  return routeCall(taskRoutes(audience).actions, ref);
}

/** The task page's task; `enabled` false once the task was deleted from the page (no 404s while it goes). */
export const useTaskDetail = (audience: Audience, ref: TaskRef, enabled = true) =>
  useQuery({
    queryKey: [...taskKeys.task(ref.machineId, ref.taskId), 'detail', audience],
    queryFn: () => getResult(taskPageCalls(audience, ref).detail),
    retry: false,
    enabled,
  });

export const useTaskStorage = (audience: Audience, ref: TaskRef) =>
  useQuery({
    queryKey: [...taskKeys.task(ref.machineId, ref.taskId), 'storage', audience],
    queryFn: () => getResult(taskPageCalls(audience, ref).storage),
    retry: false,
  });

export const useSnapshotStorage = (audience: Audience, ref: TaskRef, snapshotId: number) =>
  useRouteQuery(
    [...taskKeys.task(ref.machineId, ref.taskId), 'snapshotStorage', snapshotId, audience],
    taskRoutes(audience).snapshotStorage,
    { ...ref, snapshotId },
    { retry: false },
  );

/** While a check of all the data runs its result is asked for again this often: the job records it when it ends. */
const CHECKING_POLL_MS = 2000;

export const dataCheckKey = (audience: Audience, ref: TaskRef) =>
  [...taskKeys.task(ref.machineId, ref.taskId), 'dataCheck', audience] as const;

/** The last data check of the task's repository (issue 32), asked for again while a check of all the data runs. */
export const useTaskDataCheck = (audience: Audience, ref: TaskRef) =>
  useQuery({
    queryKey: dataCheckKey(audience, ref),
    queryFn: () => getResult(routeCall(taskRoutes(audience).dataCheck, ref)),
    retry: false,
    refetchInterval: (query) => (query.state.data?.checking ? CHECKING_POLL_MS : false),
  });
