import type { ActionType } from '@portal/domain';

export interface MessageLogDialogProps {
  show: boolean;
  onHide: () => void;
  machineId: number;
  /** With a task (and an action of it): that task's (action's) messages only, as 'View log' of a run asks. */
  backupTaskId?: number;
  backupActionId?: number;
  backupTaskActionType?: ActionType;
}

// SKELETON (helper "machines" replaces): the message log modal of 001 §2, §4, §7 (PUT /backupmachines/{id}/messages).
export function MessageLogDialog(_props: MessageLogDialogProps) {
  return null;
}
