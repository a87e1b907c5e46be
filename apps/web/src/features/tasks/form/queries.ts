import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../../app/useRouteQuery';

export const taskFormKeys = {
  definition: (machineId: number, taskId: number) => ['taskForm', 'definition', machineId, taskId] as const,
};

/** The stored definition the edit dialog starts from, read each time the dialog opens. */
export const useTaskDefinition = (machineId: number, taskId: number, enabled: boolean) =>
  useRouteQuery(
    taskFormKeys.definition(machineId, taskId),
    ROUTES.taskForm.definition,
    { machineId, taskId },
    { enabled, staleTime: 0 },
  );
