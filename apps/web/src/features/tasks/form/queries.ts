import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../../app/api';

export const taskFormKeys = {
  definition: (machineId: number, taskId: number) => ['taskForm', 'definition', machineId, taskId] as const,
};

/** The stored definition the edit dialog starts from, read each time the dialog opens. */
export const useTaskDefinition = (machineId: number, taskId: number, enabled: boolean) =>
  useQuery({
    queryKey: taskFormKeys.definition(machineId, taskId),
    queryFn: () => getResult(routeCall(ROUTES.taskForm.definition, { machineId, taskId })),
    enabled,
    staleTime: 0,
  });
