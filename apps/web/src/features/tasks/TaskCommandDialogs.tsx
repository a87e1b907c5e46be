import { MESSAGES, pauseDialogTitle } from '@portal/domain';
import type { CommunicationError } from '../../app/api';
import { machineCommandFailureText } from '../../app/machine-commands';
import { ConfirmByNameDialog, ConfirmDialog, toast, useDialogSubmit } from '../../ui';
import { useTaskCommand } from './mutations';
import type { TaskRef } from './queries';

const TEXT = MESSAGES.task;
/** 002 §8.3: no reply within 20 s, including delete; 001 §8: no connection to the machine's queue at all. */
const onTimeout = (error: CommunicationError) => toast.error(machineCommandFailureText(error));

interface CommandDialogProps {
  show: boolean;
  onHide: () => void;
  taskRef: TaskRef;
  taskName: string;
  animation?: boolean;
}

/** 'Execute backup task' (002 §2.6, §7.8 starttask): the page refreshes 10 s after a start (002 §9). */
export function RunTaskDialog({ show, onHide, taskRef, taskName, animation }: CommandDialogProps) {
  const submission = useDialogSubmit({
    mutation: useTaskCommand(taskRef),
    successText: TEXT.beingStarted,
    partialText: TEXT.beingStartedWithErrors,
    unknownErrorText: MESSAGES.liveChannel.backupMachineCommunicationError,
    onCommunicationError: onTimeout,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.runDialogTitle}
      confirmLabel="Run now"
      variant="primary"
      onConfirm={async () => {
        const outcome = await submission.submit({ command: 'starttask' });
        if (outcome.close) onHide();
      }}
      animation={animation}
      data-testid="run-task-dialog"
    >
      <p>
        Run the backup task <strong>{taskName}</strong> now?
      </p>
    </ConfirmDialog>
  );
}

/** 'Pause/Unpause backup task' (002 §7.8 udpatetaskstatus): the page refreshes 8 s after (002 §9). */
export function PauseTaskDialog({
  show,
  onHide,
  taskRef,
  taskName,
  target,
  animation,
}: CommandDialogProps & { target: 'PAUSED' | 'ACTIVE' }) {
  const pausing = target === 'PAUSED';
  const submission = useDialogSubmit({
    mutation: useTaskCommand(taskRef),
    successText: pausing ? TEXT.paused : TEXT.unpaused,
    partialText: pausing ? TEXT.pausedWithErrors : TEXT.unpausedWithErrors,
    unknownErrorText: MESSAGES.liveChannel.backupMachineCommunicationError,
    onCommunicationError: onTimeout,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={pauseDialogTitle(target)}
      confirmLabel={pausing ? 'Pause' : 'Unpause'}
      variant={pausing ? 'warning' : 'primary'}
      onConfirm={async () => {
        const outcome = await submission.submit({ command: 'udpatetaskstatus', status: target });
        if (outcome.close) onHide();
      }}
      animation={animation}
      data-testid="pause-task-dialog"
    >
      <p>
        {pausing
          ? 'Pausing stops future scheduled runs; a run already in progress continues.'
          : 'Unpausing lets the scheduled runs of this task start again.'}{' '}
        Task: <strong>{taskName}</strong>
      </p>
    </ConfirmDialog>
  );
}

/** Delete task (002 §5.8, §7.8 deletetask): the exact task name typed; the parent hears of it 8 s after. */
export function DeleteTaskDialog({
  show,
  onHide,
  taskRef,
  taskName,
  onDeleted,
  animation,
}: CommandDialogProps & { onDeleted: () => void }) {
  const submission = useDialogSubmit({
    mutation: useTaskCommand(taskRef),
    successText: TEXT.beingDeleted,
    partialText: TEXT.beingDeletedWithErrors,
    unknownErrorText: MESSAGES.liveChannel.backupMachineCommunicationError,
    onCommunicationError: onTimeout,
  });
  return (
    <ConfirmByNameDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title="Delete backup task"
      prompt={
        <>
          This deletes the task and its backed-up data. Type the task name <strong>{taskName}</strong> to confirm.
        </>
      }
      expectedName={taskName}
      mismatchMessage={MESSAGES.confirmByName.taskDeletion}
      confirmLabel="Delete"
      onConfirm={async () => {
        const outcome = await submission.submit({ command: 'deletetask' });
        if (!outcome.applied) return;
        onHide();
        onDeleted();
      }}
      animation={animation}
      data-testid="delete-task-dialog"
    ></ConfirmByNameDialog>
  );
}
