import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

/** Query keys of the machine pages: the lists, and one machine's detail, storage and messages. */
export const machineKeys = {
  all: ['machines'] as const,
  lists: () => [...machineKeys.all, 'list'] as const,
  machine: (machineId: number) => [...machineKeys.all, 'machine', machineId] as const,
  detail: (machineId: number) => [...machineKeys.machine(machineId), 'detail'] as const,
  storage: (machineId: number) => [...machineKeys.machine(machineId), 'storage'] as const,
  messages: (machineId: number) => [...machineKeys.machine(machineId), 'messages'] as const,
  logFiles: (machineId: number) => [...machineKeys.machine(machineId), 'logFiles'] as const,
};

/** The tasks table's key prefix (the task-page feature caches the machine's tasks under it). */
export const machineTasksKey = (machineId: number) => ['machineTasks', machineId] as const;

/** One machine's page data; every audience reads it at /backupmachines/{id}, scoped by the server. */
export function useMachine(machineId: number) {
  return useRouteQuery(machineKeys.detail(machineId), ROUTES.machines.detail, { machineId }, { retry: false });
}

/**
 * The storage figures of a machine (001 §4). `version` is what the row shows of the machine, so the
 * widget loads again when the row changes.
 */
export function useMachineStorage(machineId: number, version: unknown) {
  return useRouteQuery(
    [...machineKeys.storage(machineId), version],
    ROUTES.machines.storage,
    { machineId },
    { retry: false },
  );
}
