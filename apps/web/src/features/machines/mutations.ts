import { type MachineEditPayload, type MachineStatus, ROUTES, TIMINGS } from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { machineKeys } from './queries';

/** A machine on the admin action path (001 §7). */
export interface MachineOnPackage {
  machineId: number;
  packageId: number;
}

/** After a change of one machine: its page at once, the machine lists 500 ms after (001 §9). */
const machineRefreshes = (machineId: number): Refresh[] => [
  { queryKey: machineKeys.detail(machineId), afterMs: 0 },
  { queryKey: machineKeys.lists(), afterMs: TIMINGS.tableRefreshMs },
];

/** PUT /backupmachines/{id} (001 §7): name, description, userId. */
export const useEditMachine = () =>
  useApiMutation({
    request: ({ machineId, payload }: { machineId: number; payload: MachineEditPayload }) =>
      call(ROUTES.machines.edit, { machineId }, payload),
    refreshes: ({ machineId }) => machineRefreshes(machineId),
  });

/** PUT /admin/backuppackages/{p}/backupmachines/{m}?status={newStatus} (001 §7). */
export const useChangeMachineStatus = () =>
  useApiMutation({
    request: ({ machineId, packageId, status }: MachineOnPackage & { status: MachineStatus }) =>
      call(ROUTES.machines.action, { packageId, machineId }, undefined, { status }),
    refreshes: ({ machineId }) => [
      ...machineRefreshes(machineId),
      { queryKey: ['machineTasks', machineId], afterMs: TIMINGS.tableRefreshMs },
    ],
  });

/** PUT …?delete=true (001 §7): the machine is being deleted; the lists drop it when they refresh. */
export const useDeleteMachine = () =>
  useApiMutation({
    request: ({ machineId, packageId }: MachineOnPackage) =>
      call(ROUTES.machines.action, { packageId, machineId }, undefined, { delete: true }),
    refreshes: () => [{ queryKey: machineKeys.lists(), afterMs: 0 }],
  });

/** PUT …?refresh=true (001 §7): the storage figures are read again 500 ms after (001 §9). */
export const useRefreshMachineStorage = () =>
  useApiMutation({
    request: ({ machineId, packageId }: MachineOnPackage) =>
      call(ROUTES.machines.action, { packageId, machineId }, undefined, { refresh: true }),
    refreshes: ({ machineId }) => [{ queryKey: machineKeys.storage(machineId), afterMs: TIMINGS.tableRefreshMs }],
  });

/** Ours (issue 16): PUT …/backupmachines/{m}/storagekey/rotate; nothing on the page changes but the key. */
export const useRotateMachineStorageKey = () =>
  useApiMutation({
    request: ({ customerId, packageId, machineId }: MachineOnPackage & { customerId: number }) =>
      call(ROUTES.storageLocations.rotateMachineKey, { customerId, packageId, machineId }),
    refreshes: ({ machineId }) => machineRefreshes(machineId),
  });

/** POST /boltadmin/…/commands/uploadlogfiles?uploadupdaterfiles={bool} (001 §7). */
export const useRequestLogUpload = () =>
  useApiMutation({
    request: ({
      customerId,
      packageId,
      machineId,
      uploadupdaterfiles,
    }: MachineOnPackage & { customerId: number; uploadupdaterfiles: boolean }) =>
      call(ROUTES.machineCommands.uploadLogFiles, { customerId, packageId, machineId }, undefined, {
        uploadupdaterfiles,
      }),
    refreshes: ({ machineId }) => [{ queryKey: machineKeys.logFiles(machineId), afterMs: TIMINGS.tableRefreshMs }],
  });

/**
 * The remote-management button (002 §4.2, §6; issue 29): PUT /backupmachines/{id}/remotemanagement. The page at
 * once, then its tasks (their controls follow the switch) and any open task page of the machine.
 */
export const useSetRemoteManagement = () =>
  useApiMutation({
    request: ({ machineId, enabled }: { machineId: number; enabled: boolean }) =>
      call(ROUTES.machines.remoteManagement, { machineId }, { remoteManagementEnabled: enabled }),
    refreshes: ({ machineId }) => [
      { queryKey: machineKeys.detail(machineId), afterMs: 0 },
      { queryKey: ['machineTasks', machineId], afterMs: TIMINGS.tableRefreshMs },
      { queryKey: ['task', machineId], afterMs: 0 },
    ],
  });
