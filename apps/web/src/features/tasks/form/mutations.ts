import type { Envelope, TaskPayload } from '@portal/domain';
import { type ApiResult, CommunicationError } from '../../../app/api';
import { useAskMachine } from '../../../app/live';
import { useApiMutation } from '../../../ui';
import { taskFormKeys } from './queries';

/** The channel gave no reply within 20 s (002 §8.3): 'Error in communicating with backup machine.' */
export class MachineTimeoutError extends CommunicationError {}

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
  const ask = useAskMachine();
  return useApiMutation({
    request: async ({ machineId, payload }: TaskSave): Promise<ApiResult<null>> => {
      const command = payload.id === null ? 'newtask' : 'edittask';
      const reply = await ask(machineId, command, payload.createOrUpdateTaskRequestId, payload);
      if (reply === 'timeout') throw new MachineTimeoutError();
      const envelope: Envelope<null> = {
        status: reply.success ? 'OK' : 'ERROR',
        messages: reply.messages,
        responseSummaryCode: reply.success ? 'OK' : 'ERROR',
        result: null,
      };
      return { ok: reply.success, httpStatus: 200, envelope };
    },
    refreshes: ({ machineId, payload }) =>
      payload.id === null ? [] : [{ queryKey: taskFormKeys.definition(machineId, payload.id), afterMs: 0 }],
  });
}
