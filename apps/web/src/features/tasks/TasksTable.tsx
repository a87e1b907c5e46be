import type { Audience, OsFamily } from '@portal/domain';

export interface TasksMachine {
  id: number;
  customerId: number;
  backupPackageId: number;
  osFamily: OsFamily;
}

// SKELETON (helper "task-page" replaces): the machine's tasks (002 §2.6, §7.7), with the Add task button
// of helper "task-form" (<AddTaskButton>).
export function TasksTable(_props: { audience: Audience; machine: TasksMachine }) {
  return null;
}
