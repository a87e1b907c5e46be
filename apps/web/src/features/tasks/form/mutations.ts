import type { TaskPayload } from '@portal/domain';
import { liveSideOf, useLiveChannel } from '../../../app/live';
import { sendMachineCommand } from '../../../app/machine-commands';
import { useSession } from '../../../app/session';
import { useApiMutation } from '../../../ui';
import { taskFormKeys } from './queries';

export interface TaskSave {
  machineId: number;
  payload: TaskPayload;
}

/**
 * newtask / edittask over the live channel (002 §7.8), its reply read as an envelope so the dialog's
 * submission handles it like any other answer: success, success with messages, or refusal. The machine's
 * messages carry no field name, so they are the dialog's global errors (002 §5.6).
 */
export function useSaveTask() {
  const client = useLiveChannel();
  const { actor } = useSession();
  const side = actor ? liveSideOf(actor) : 'customer';
  return useApiMutation({
    request: ({ machineId, payload }: TaskSave) =>
      sendMachineCommand(
        client,
        side,
        machineId,
        payload.id === null ? 'newtask' : 'edittask',
        payload.createOrUpdateTaskRequestId,
        payload,
      ),
    refreshes: ({ machineId, payload }) =>
      payload.id === null ? [] : [{ queryKey: taskFormKeys.definition(machineId, payload.id), afterMs: 0 }],
  });
}
