import { type OsFamily, TASK_FORM_TEXTS } from '@portal/domain';
import { useState } from 'react';
import { lazyDialog, ReasonButton } from '../../../ui';
import { useTaskDefinition } from './queries';

const TEXT = TASK_FORM_TEXTS;

// The form (its hooks, schema, field rules, schedule picker and item tree) is loaded and made when it first opens,
// not with the page (issue 31, phones).
const TaskFormDialog = lazyDialog(() => import('./TaskFormDialog').then((m) => m.TaskFormDialog));

export interface TaskFormButtonProps {
  machineId: number;
  osFamily: OsFamily;
  /** The machine's IANA zone, which the schedule's next run times are shown in. */
  timeZone: string;
  /**
   * Why the button is disabled, from the server (issue 29: remote management off, the machine offline, the task
   * awaiting its seed or being deleted, 002 §4.2); null when it may be used. The form never opens while it is set.
   */
  blockedReason?: string | null;
  /** After a save the live channel confirmed: the caller refreshes its lists. */
  onSaved: () => void;
  /** Turned off in tests that do not want to wait for the fade. */
  animation?: boolean;
}

/**
 * The machine page's 'Add backup task' button and its dialog (002 §2.6, §4.3). A machine that cannot accept a task
 * (issue 29: the server's reason, e.g. remote management off or the machine offline) disables the button, says why
 * on it and under it, and never opens the form.
 */
export function AddTaskButton({ blockedReason = null, ...form }: TaskFormButtonProps) {
  const [show, setShow] = useState(false);
  const blocked = blockedReason !== null;
  return (
    <>
      <div className="mb-2">
        <ReasonButton
          reason={blockedReason}
          onClick={() => setShow(true)}
          {...TaskFormDialog.preloadProps}
          data-testid="add-task"
        >
          {TEXT.addButton}
        </ReasonButton>
        {blocked && (
          <div className="small text-muted mt-1" data-testid="add-task-reason">
            {blockedReason}
          </div>
        )}
      </div>
      <TaskFormDialog {...form} show={show && !blocked} onHide={() => setShow(false)} mode="add" definition={null} />
    </>
  );
}

/** The task page's Edit button: the dialog starts from the task's stored definition. */
export function EditTaskButton({ taskId, blockedReason = null, ...form }: TaskFormButtonProps & { taskId: number }) {
  const [show, setShow] = useState(false);
  const blocked = blockedReason !== null;
  const definition = useTaskDefinition(form.machineId, taskId, show && !blocked);
  return (
    <>
      <ReasonButton
        variant="outline-primary"
        reason={blockedReason}
        onClick={() => setShow(true)}
        {...TaskFormDialog.preloadProps}
        data-testid="edit-task"
      >
        {TEXT.editButton}
      </ReasonButton>
      <TaskFormDialog
        {...form}
        show={show && !blocked}
        onHide={() => setShow(false)}
        mode="edit"
        definition={definition.data ?? null}
        loadFailed={definition.isError}
      />
    </>
  );
}
