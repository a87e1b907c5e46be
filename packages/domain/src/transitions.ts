import type { CustomerStatus, MachineStatus, OsFamily, PackageStatus, TaskStatus } from './enums.js';
import { customerStopsTasks, machineStopsTasks, packageStopsTasks, type TaskStatusInput } from './statuses.js';

/**
 * Manual status changes and the abilities that follow from a status. The web offers exactly these
 * options and the server validates every change with the same functions, so a hand-made request
 * cannot reach a status the dialog would not offer.
 */

/** 'The first offered option is preselected' (001 §4); every change-status dialog follows it. */
export function preselectedStatusOption<S extends string>(options: readonly S[]): S | null {
  return options[0] ?? null;
}

/**
 * The two readings of a table of manual status changes: the options the dialog offers from a status, and the
 * server's check of a change, so that both always agree.
 */
function statusChanges<S extends string>(table: Readonly<Record<S, readonly S[]>>) {
  return {
    offered: (status: S): readonly S[] => table[status],
    allowed: (from: S, to: S): boolean => table[from].includes(to),
  };
}

// --- Backup packages (000 §4 'Backup package status') ----------------------------------------------

/**
 * 000 §4: from ACTIVE, OVER_QUOTA, REQUESTED or APPROVED only SUSPENDED; from SUSPENDED only ACTIVE;
 * from BLOCKED either ACTIVE or SUSPENDED (in that order, so ACTIVE is preselected).
 */
export const PACKAGE_STATUS_OPTIONS: Readonly<Record<PackageStatus, readonly PackageStatus[]>> = {
  REQUESTED: ['SUSPENDED'],
  APPROVED: ['SUSPENDED'],
  ACTIVE: ['SUSPENDED'],
  OVER_QUOTA: ['SUSPENDED'],
  SUSPENDED: ['ACTIVE'],
  BLOCKED: ['ACTIVE', 'SUSPENDED'],
};

export const { offered: packageStatusOptions, allowed: canChangePackageStatus } = statusChanges(PACKAGE_STATUS_OPTIONS);

/** 000 §4: delete only when SUSPENDED (deletion then removes the machines' files from storage). */
export function canDeletePackage(status: PackageStatus): boolean {
  return status === 'SUSPENDED';
}

/** 000 §4: APPROVED means initializable: the owner names and initializes it. */
export function isPackageInitializable(status: PackageStatus): boolean {
  return status === 'APPROVED';
}

/** 000 §4: ACTIVE or OVER_QUOTA means editable. */
export function isPackageEditable(status: PackageStatus): boolean {
  return status === 'ACTIVE' || status === 'OVER_QUOTA';
}

/** 000 §4: upgrade or downgrade only for ACTIVE or OVER_QUOTA packages with no change already requested. */
export function canRequestPackageChange(pkg: { status: PackageStatus; upOrDownGradeRequested: boolean }): boolean {
  return isPackageEditable(pkg.status) && !pkg.upOrDownGradeRequested;
}

/**
 * 000 §4 'Suspending warns that all customer access is suspended'. The spec gives the meaning, not the
 * words; the wording is ours.
 */
export const PACKAGE_SUSPEND_WARNING =
  'Suspending this backup package suspends all customer access to it: its backup machines stop running their tasks.';

/** The warning the package change-status dialog shows for the chosen target, if any. */
export function packageStatusChangeWarning(to: PackageStatus): string | null {
  return to === 'SUSPENDED' ? PACKAGE_SUSPEND_WARNING : null;
}

// --- Backup machines (001 §4 'Machine status') ----------------------------------------------------

/**
 * 001 §4: ACTIVE to SUSPENDED; OVER_PER_MACHINE_QUOTA to SUSPENDED; SUSPENDED to ACTIVE; BLOCKED to
 * ACTIVE or SUSPENDED. PACKAGE_SUSPENDED and PACKAGE_OVER_QUOTA come from the package and offer no
 * manual change: the spec lists none, and the package is where they are resolved.
 */
export const MACHINE_STATUS_OPTIONS: Readonly<Record<MachineStatus, readonly MachineStatus[]>> = {
  ACTIVE: ['SUSPENDED'],
  OVER_PER_MACHINE_QUOTA: ['SUSPENDED'],
  SUSPENDED: ['ACTIVE'],
  BLOCKED: ['ACTIVE', 'SUSPENDED'],
  PACKAGE_SUSPENDED: [],
  PACKAGE_OVER_QUOTA: [],
};

export const { offered: machineStatusOptions, allowed: canChangeMachineStatus } = statusChanges(MACHINE_STATUS_OPTIONS);

/** 001 §4, §6: delete is offered only when the machine is SUSPENDED. */
export function canDeleteMachine(status: MachineStatus): boolean {
  return status === 'SUSPENDED';
}

// --- Customers (002 §4.1) -------------------------------------------------------------------------

/**
 * 002 §4.1: ACTIVE, SIGNUP_REQUESTED, APPROVED to SUSPENDED only; SUSPENDED to ACTIVE only; BLOCKED
 * to ACTIVE or SUSPENDED. Pass the stored status, not the displayed one (a customer without storage
 * locations displays as SIGNUP_REQUESTED whatever it is stored as).
 */
export const CUSTOMER_STATUS_OPTIONS: Readonly<Record<CustomerStatus, readonly CustomerStatus[]>> = {
  ACTIVE: ['SUSPENDED'],
  SIGNUP_REQUESTED: ['SUSPENDED'],
  APPROVED: ['SUSPENDED'],
  SUSPENDED: ['ACTIVE'],
  BLOCKED: ['ACTIVE', 'SUSPENDED'],
};

export const { offered: customerStatusOptions, allowed: canChangeCustomerStatus } =
  statusChanges(CUSTOMER_STATUS_OPTIONS);

/** 002 §4.1: delete is offered only when the customer is SUSPENDED. */
export function canDeleteCustomer(status: CustomerStatus): boolean {
  return status === 'SUSPENDED';
}

// --- Backup tasks (002 §4.2, §6) -------------------------------------------------------------------

/** What the task controls read: the raw task status and the machine's remote-management switch. */
export interface TaskControlInput {
  status: TaskStatus;
  /** Remote management is enabled on the task's backup machine (002 §6). */
  remoteManagementEnabled: boolean;
}

/**
 * The status a pause/unpause click sends (002 §4.2): ACTIVE pauses to PAUSED, PAUSED unpauses to
 * ACTIVE; any other status (awaiting seed, being deleted, deletion failed) has no toggle.
 */
export function pauseToggleTarget(status: TaskStatus): 'PAUSED' | 'ACTIVE' | null {
  if (status === 'ACTIVE') return 'PAUSED';
  if (status === 'PAUSED') return 'ACTIVE';
  return null;
}

/**
 * 002 §4.2: pause and unpause are disabled while the task awaits its seed, is being deleted, or remote
 * management is off. A task whose deletion failed has no toggle either (it is on its way out).
 */
export function canTogglePause(task: TaskControlInput): boolean {
  return task.remoteManagementEnabled && pauseToggleTarget(task.status) !== null;
}

/**
 * Server check of the channel's 'udpatetaskstatus' command (002 §7.8): only ACTIVE → PAUSED and
 * PAUSED → ACTIVE, and only with remote management on.
 */
export function canChangeTaskStatus(task: TaskControlInput, to: TaskStatus): boolean {
  return canTogglePause(task) && pauseToggleTarget(task.status) === to;
}

/** What run now reads besides the task controls: the owners' statuses (000 §3 'Backup task'). */
export type RunNowInput = TaskControlInput &
  Pick<TaskStatusInput, 'machineStatus' | 'packageStatus' | 'customerStatus'>;

/**
 * 002 §4.2, §6: run now needs remote management on the machine. The spec names no status rule; ours
 * allows ACTIVE and PAUSED tasks (pausing only stops scheduled runs, 002 §4.2, so a paused task may
 * still be run by hand) and refuses a task awaiting its seed (a run would upload what the seed is
 * meant to carry), being deleted or whose deletion failed, and a task whose machine, package or
 * customer stops its runs (000 §4 step 1: suspended, blocked or over quota), as the scheduler does.
 */
export function canRunTaskNow(task: RunNowInput): boolean {
  return (
    task.remoteManagementEnabled &&
    (task.status === 'ACTIVE' || task.status === 'PAUSED') &&
    !machineStopsTasks(task.machineStatus) &&
    !packageStopsTasks(task.packageStatus) &&
    !customerStopsTasks(task.customerStatus)
  );
}

/** 002 §4.2, §6: edit needs remote management and is disabled while being deleted or awaiting seed. */
export function canEditTask(task: TaskControlInput): boolean {
  return task.remoteManagementEnabled && task.status !== 'BEING_DELETED' && task.status !== 'AWAITING_SEED';
}

/**
 * 002 §4.2, §6: delete needs remote management and is disabled while being deleted. A task whose
 * deletion failed can be deleted again (the retry).
 */
export function canDeleteTask(task: TaskControlInput): boolean {
  return task.remoteManagementEnabled && task.status !== 'BEING_DELETED';
}

/**
 * 002 §6: adding a task needs remote management on the machine. The 'add/edit disabled while the task
 * awaits its seed' of 002 §4.2 concerns the shared dialog opened on an existing task, i.e. edit.
 */
export function canAddTask(machine: { remoteManagementEnabled: boolean }): boolean {
  return machine.remoteManagementEnabled;
}

/** Every task control at once, for a task row or page. */
export interface TaskControls {
  /** 'PAUSED' shows a Pause button, 'ACTIVE' an Unpause button, null neither. */
  pauseToggleTarget: 'PAUSED' | 'ACTIVE' | null;
  canTogglePause: boolean;
  canRunNow: boolean;
  canEdit: boolean;
  canDelete: boolean;
}

export function taskControls(task: RunNowInput): TaskControls {
  return {
    pauseToggleTarget: pauseToggleTarget(task.status),
    canTogglePause: canTogglePause(task),
    canRunNow: canRunTaskNow(task),
    canEdit: canEditTask(task),
    canDelete: canDeleteTask(task),
  };
}

/** 002 §5.5: the volume snapshot setting is editable only for machines whose OS family is WINDOWS. */
export function canEditVolumeSnapshots(osFamily: OsFamily): boolean {
  return osFamily === 'WINDOWS';
}
