import { z } from 'zod';
import { fieldNotValid, MESSAGES } from './messages.js';
import {
  type Actor,
  type CommandedMachine,
  isProviderAdmin,
  machineAudience,
  mayChange,
  mayCommandMachine,
  type SeenMachine,
} from './permissions.js';
import { canRunTaskNow, pauseToggleTarget, type RunNowInput } from './transitions.js';

/**
 * The machine's remote-management button (002 §4.2, §6) and why task controls are unavailable (issue 29).
 *
 * Remote management is the customer's consent that tasks on the machine are added, edited, deleted, run and
 * paused from the portal; with it off the machine keeps running the tasks it has, and nobody changes them from
 * here. Ours, since the specification shows the button but not who presses it: the customer's own users who
 * may change things and see the machine (its admins, and the customer user it is assigned to: the person at
 * the machine). The provider and resellers never do: their own say over the machine is the customer's 'Allow
 * provider machine control', which the customer gives or takes back; switching the consent on for the customer
 * would make both meaningless.
 */

/** PUT /backupmachines/{machineId}/remotemanagement: the new state of the switch. */
export const remoteManagementSchema = z.strictObject({
  remoteManagementEnabled: z.boolean({ error: fieldNotValid('remoteManagementEnabled') }),
});
export type RemoteManagementPayload = z.output<typeof remoteManagementSchema>;

/** The machine facts the rules read: who sees it, the customer's consents and its presence. */
export interface MachineControlFacts extends CommandedMachine {
  remoteManagementEnabled: boolean;
  online: boolean;
  beingDeleted: boolean;
}

/** Why the caller may not switch the machine's remote management, or null when they may. */
export function remoteManagementSwitchBlockedReason(actor: Actor, machine: SeenMachine): string | null {
  if (isProviderAdmin(actor) || machineAudience(actor, machine) !== 'customer') {
    return MESSAGES.remoteManagement.customerOnly;
  }
  if (!mayChange(actor)) return MESSAGES.liveChannel.readOnlyUser;
  return null;
}

export const maySwitchRemoteManagement = (actor: Actor, machine: SeenMachine): boolean =>
  remoteManagementSwitchBlockedReason(actor, machine) === null;

/**
 * Why no task command (add, edit, delete, run now, pause) can be sent to the machine now, or null when they can:
 * in the order the server checks them (features/task-commands): a read-only caller, the provider without the
 * customer's 'Allow provider machine control', the machine being deleted or its remote management off, the machine
 * offline.
 */
export function machineCommandBlockedReason(actor: Actor, machine: MachineControlFacts): string | null {
  if (!mayChange(actor)) return MESSAGES.liveChannel.readOnlyUser;
  if (!mayCommandMachine(actor, machine)) return MESSAGES.remoteManagement.providerControlOff;
  if (machine.beingDeleted) return MESSAGES.backupMachine.beingDeleted;
  if (!machine.remoteManagementEnabled) return MESSAGES.liveChannel.remoteManagementDisabled;
  if (!machine.online) return MESSAGES.liveChannel.machineOffline;
  return null;
}

/**
 * Why the provider's restic diagnostics (realtime commands, 001 §3) are unavailable, or null when they are: like
 * every machine command they need the customer's 'Allow provider machine control' (issue 29); earlier output is
 * refused with it too, since it holds what restic read from the machine.
 */
export function diagnosticsBlockedReason(actor: Actor, machine: MachineControlFacts): string | null {
  return mayCommandMachine(actor, machine) ? null : MESSAGES.remoteManagement.providerControlOff;
}

/** The add-task button (002 §6): the machine's reason alone. */
export const addTaskBlockedReason = machineCommandBlockedReason;

/** Why each control of a task page is unavailable; null where it is available. */
export interface TaskControlReasons {
  runNow: string | null;
  togglePause: string | null;
  edit: string | null;
  delete: string | null;
}

/** A task's own reason for edit and pause (002 §4.2: awaiting its seed, being deleted, its deletion failed). */
function taskStatusReason(status: RunNowInput['status']): string | null {
  if (status === 'AWAITING_SEED') return MESSAGES.remoteManagement.taskAwaitingSeed;
  if (status === 'BEING_DELETED') return MESSAGES.remoteManagement.taskBeingDeleted;
  if (status === 'DELETION_FAILED') return MESSAGES.remoteManagement.taskDeletionFailed;
  return null;
}

/**
 * Every task control's reason (002 §4.2, §6): the machine's first (machineCommandBlockedReason), then the task's.
 * A control is available exactly when its reason is null; the rules are those of transitions.ts.
 */
export function taskControlReasons(machineReason: string | null, task: RunNowInput): TaskControlReasons {
  const statusReason = taskStatusReason(task.status);
  return {
    runNow: machineReason ?? (canRunTaskNow(task) ? null : MESSAGES.liveChannel.taskNotRunnable),
    togglePause: machineReason ?? (pauseToggleTarget(task.status) === null ? statusReason : null),
    edit: machineReason ?? (task.status === 'DELETION_FAILED' ? null : statusReason),
    delete: machineReason ?? (task.status === 'BEING_DELETED' ? MESSAGES.remoteManagement.taskBeingDeleted : null),
  };
}
