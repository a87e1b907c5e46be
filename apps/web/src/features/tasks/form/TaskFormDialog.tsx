import type { OsFamily } from '@portal/domain';

export interface TaskFormButtonProps {
  machineId: number;
  osFamily: OsFamily;
  /** Remote management off, task awaiting its seed or being deleted (002 §4.2). */
  disabled?: boolean;
  /** After a save the live channel confirmed: the caller refreshes its lists. */
  onSaved: () => void;
}

// SKELETON (helper "task-form" replaces): the add/edit task dialog of 002 §2.6, §4.3–§4.4, §5.6–§5.7.
export function AddTaskButton(_props: TaskFormButtonProps) {
  return null;
}

export function EditTaskButton(_props: TaskFormButtonProps & { taskId: number }) {
  return null;
}
