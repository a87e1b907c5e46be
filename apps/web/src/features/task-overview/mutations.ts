import { ROUTES, type VolumeSnapshotsPayload } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';
import { taskOverviewKeys } from './queries';

export interface VolumeSnapshotsSave {
  customerId: number;
  packageId: number;
  machineId: number;
  taskId: number;
  payload: VolumeSnapshotsPayload;
}

/** PUT {provider task path} with volumeSnapshotsEnabled (002 §7.3): the task dashboards show the flag at once. */
export const useSaveVolumeSnapshots = () =>
  useApiMutation({
    request: ({ payload, ...path }: VolumeSnapshotsSave) => call(ROUTES.taskOverview.volumeSnapshots, path, payload),
    refreshes: () => [{ queryKey: taskOverviewKeys.all, afterMs: 0 }],
  });
