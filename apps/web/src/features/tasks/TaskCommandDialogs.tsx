import { MESSAGES, pauseDialogTitle } from '@portal/domain';
import type { CommunicationError } from '../../app/api';
import { machineCommandFailureText } from '../../app/machine-commands';
import { ConfirmActionDialog, ConfirmByNameActionDialog, type DialogProps, toast } from '../../ui';
import { type TaskCommand, useTaskCommand } from './mutations';
import type { TaskRef } from './queries';

const TEXT = MESSAGES.task;
/** 002 §8.3: no reply within 20 s, including delete; 001 §8: no connection to the machine's queue at all. */
const onTimeout = (error: CommunicationError) => toast.error(machineCommandFailureText(error));

/**
 * A task command's action: the command sent to the task's machine, its success and warning toasts; no answer
 * is the machine's to explain.
 */
function useTaskAction(taskRef: TaskRef, command: TaskCommand, successText: string, partialText: string) {
  return {
    mutation: useTaskCommand(taskRef),
    variables: () => command,
    successText,
    partialText,
    unknownErrorText: MESSAGES.liveChannel.backupMachineCommunicationError,
    onCommunicationError: onTimeout,
  };
}

interface CommandDialogProps extends DialogProps {
  taskRef: TaskRef;
  taskName: string;
}

/** 'Execute backup task' (002 §2.6, §7.8 starttask): the page refreshes 10 s after a start (002 §9). */
export function RunTaskDialog({ taskRef, taskName, ...dialog }: CommandDialogProps) {
  const action = useTaskAction(taskRef, { command: 'starttask' }, TEXT.beingStarted, TEXT.beingStartedWithErrors);
  return (
    <ConfirmActionDialog
      {...dialog}
      action={action}
      title={TEXT.runDialogTitle}
      confirmLabel="Run now"
      variant="primary"
      data-testid="run-task-dialog"
    >
      <p>
        Run the backup task <strong>{taskName}</strong> now?
      </p>
    </ConfirmActionDialog>
  );
}

/** 'Pause/Unpause backup task' (002 §7.8 udpatetaskstatus): the page refreshes 8 s after (002 §9). */
export function PauseTaskDialog({
  taskRef,
  taskName,
  target,
  ...dialog
}: CommandDialogProps & { target: 'PAUSED' | 'ACTIVE' }) {
  const pausing = target === 'PAUSED';
  const action = useTaskAction(
    taskRef,
    { command: 'udpatetaskstatus', status: target },
    pausing ? TEXT.paused : TEXT.unpaused,
    pausing ? TEXT.pausedWithErrors : TEXT.unpausedWithErrors,
  );
  return (
    <ConfirmActionDialog
      {...dialog}
      action={action}
      title={pauseDialogTitle(target)}
      confirmLabel={pausing ? 'Pause' : 'Unpause'}
      variant={pausing ? 'warning' : 'primary'}
      data-testid="pause-task-dialog"
    >
      <p>
        {pausing
          ? 'Pausing stops future scheduled runs; a run already in progress continues.'
          : 'Unpausing lets the scheduled runs of this task start again.'}{' '}
        Task: <strong>{taskName}</strong>
      </p>
    </ConfirmActionDialog>
  );
}

/** Delete task (002 §5.8, §7.8 deletetask): the exact task name typed; the parent hears of it 8 s after. */
export function DeleteTaskDialog({
  taskRef,
  taskName,
  onDeleted,
  ...dialog
}: CommandDialogProps & { onDeleted: () => void }) {
  const action = useTaskAction(taskRef, { command: 'deletetask' }, TEXT.beingDeleted, TEXT.beingDeletedWithErrors);
  return (
    <ConfirmByNameActionDialog
      {...dialog}
      action={{
        ...action,
        onOutcome: (outcome) => {
          if (!outcome.applied) return;
          dialog.onHide();
          onDeleted();
        },
      }}
      title="Delete backup task"
      prompt={
        <>
          This deletes the task and its backed-up data. Type the task name <strong>{taskName}</strong> to confirm.
        </>
      }
      expectedName={taskName}
      mismatchMessage={MESSAGES.confirmByName.taskDeletion}
      confirmLabel="Delete"
      data-testid="delete-task-dialog"
    />
  );
}
