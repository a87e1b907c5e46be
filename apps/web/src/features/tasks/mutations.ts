import { type ActionType, ROUTES, TASK_COMMAND_TIMINGS, TIMINGS } from '@portal/domain';
import { call } from '../../app/api';
import { liveSideOf, useLiveChannel } from '../../app/live';
import { sendMachineCommand } from '../../app/machine-commands';
import { newRequestId } from '../../app/requestId';
import { useSession } from '../../app/session';
import { type Refresh, useApiMutation } from '../../ui';
import { dataCheckKey, type TaskRef, taskKeys, taskRoutes } from './queries';

/** 002 §9: task tables refresh 500 ms after a trigger; a task command's dialog waits its own time first. */
const taskRefreshes = (ref: TaskRef, afterMs: number): Refresh[] => [
  { queryKey: taskKeys.task(ref.machineId, ref.taskId), afterMs },
  { queryKey: taskKeys.machineTasks(ref.machineId), afterMs },
];

export type TaskCommand =
  | { command: 'starttask' }
  | { command: 'udpatetaskstatus'; status: 'ACTIVE' | 'PAUSED' }
  | { command: 'deletetask' };

const WAIT_OF: Record<TaskCommand['command'], number> = {
  starttask: TASK_COMMAND_TIMINGS.runNowWaitMs,
  udpatetaskstatus: TASK_COMMAND_TIMINGS.pauseWaitMs,
  deletetask: TASK_COMMAND_TIMINGS.deleteWaitMs,
};

/**
 * Run now, pause/unpause and delete (002 §7.8) over the live channel with a request id; the task page
 * refreshes after the dialog's wait of 002 §9 (10 s after a start, 8 s after pause, unpause or delete).
 */
export function useTaskCommand(ref: TaskRef) {
  const client = useLiveChannel();
  const { actor } = useSession();
  const side = actor ? liveSideOf(actor) : 'customer';
  return useApiMutation({
    request: (command: TaskCommand) => {
      const requestId = newRequestId();
      return sendMachineCommand(client, side, ref.machineId, command.command, requestId, {
        requestId,
        backupTaskId: ref.taskId,
        ...(command.command === 'udpatetaskstatus' ? { status: command.status } : {}),
      });
    },
    refreshes: (command) => taskRefreshes(ref, WAIT_OF[command.command]),
  });
}

/** PUT .../backupactions/{actionId}/cancel?type={type} (002 §7.5) of the page's audience. */
export function useCancelAction(ref: TaskRef, audience: Parameters<typeof taskRoutes>[0]) {
  return useApiMutation({
    request: (action: { id: number; type: ActionType }) =>
      call(taskRoutes(audience).cancel, { ...ref, actionId: action.id }, undefined, { type: action.type }),
    refreshes: () => taskRefreshes(ref, TIMINGS.tableRefreshMs),
  });
}

/** The provider's 'Check all data now' (issue 32): the section shows the answer (checking) and asks until it ends. */
export const useCheckData = (ref: TaskRef) =>
  useApiMutation({
    request: () => call(ROUTES.tasks.provider.checkData, ref),
    onApplied: ({ envelope }, _variables, client) => {
      if (envelope.result) client.setQueryData(dataCheckKey('provider', ref), envelope.result);
    },
    refreshes: () => [{ queryKey: dataCheckKey('provider', ref), afterMs: 0 }],
  });
