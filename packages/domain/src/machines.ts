import { z } from 'zod';
import { MACHINE_STATUSES, type MachineStatus, type MessageType, type OsFamily } from './enums.js';
import { fieldNotValid, MESSAGES } from './messages.js';

/**
 * Backup machines as the machine pages show them (001 §2, §3, §4): the rows of a machines table, the
 * detail of one machine with the abilities the server computed, its storage figures and its messages.
 */

/** A row of the machines table (001 §2: Name, Status, Description, Storage space, Assigned user, tasks). */
export interface MachineRow {
  id: number;
  name: string;
  status: MachineStatus;
  description: string;
  operatingSystem: string;
  userId: number | null;
  /** The assigned user's full name; null when none. */
  assignedUser: string | null;
  /** The assigned user's page, only when the caller may open it (001 §2: a link only with a URL). */
  assignedUserUrl: string | null;
  backupPackageId: number;
  customerId: number;
  numberOfBackupTasks: number;
  /** Manage when true, View otherwise (001 §2, §6). */
  manageable: boolean;
  backupMachineUrl: string;
}

/** One machine's page (001 §2 detail header, plus presence and what the caller may do). */
export interface MachineDetail extends MachineRow {
  /** Ours (issue 31): the customer's and package's names, which the page's breadcrumbs show. */
  customerName: string;
  backupPackageName: string;
  osFamily: OsFamily;
  desktopClientVersion: string;
  /** Ours (issue 31): the IANA zone its tasks are scheduled in, which the task form's next run times are shown in. */
  timeZone: string;
  online: boolean;
  lastSeenAt: string | null;
  /** The statuses a manual change may go to, in the order offered (001 §4); empty when none or not allowed. */
  statusOptions: MachineStatus[];
  /** Delete is offered (001 §4: only when SUSPENDED, and only to admins who may change things). */
  deleteable: boolean;
  /** Change status and refresh storage space are offered (001 §6: the admin roles). */
  administrable: boolean;
  /**
   * Ours (issue 16): the provider admin may give the machine a new storage key — its package is on an S3
   * location, where each machine has a storage user and key of its own.
   */
  storageKeyRotatable: boolean;
  /** The remote-management button (002 §4.2, §6): whether it is on, and whether the caller may switch it. */
  remoteManagementEnabled: boolean;
  remoteManagementSwitchable: boolean;
  /** What the button's tooltip says: what a click does, or why the caller may not switch it. */
  remoteManagementTooltip: string;
  /** Why the add-task button is disabled (remote-management.ts), null when a task may be added. */
  addTaskBlockedReason: string | null;
  /** Why the provider's restic diagnostics button is disabled (remote-management.ts), null when it is not. */
  diagnosticsBlockedReason: string | null;
}

/** GET /backupmachines/{id}/storage (001 §3). A negative maximum means unlimited. */
export interface MachineStorage {
  id: number;
  maxBackupSizePerMachineInBytes: number;
  availableSpaceInBytes: number;
  usedSpaceInBytes: number;
}

/** A message of the message log (001 §3: time, messageType, backupTaskId, actionId, message; id is ours). */
export interface MachineMessageRow {
  id: number;
  time: string;
  messageType: MessageType;
  backupTaskId: number | null;
  actionId: number | null;
  message: string;
}

/** 001 §9: the message log shows 10 messages a page. */
export const MESSAGE_LOG_PAGE_SIZE = 10;

/**
 * The machine action of PUT /admin/backuppackages/{p}/backupmachines/{m} (001 §7): exactly one of
 * ?delete=true, ?status={newStatus} or ?refresh=true.
 */
export type MachineAction = { kind: 'delete' } | { kind: 'status'; status: MachineStatus } | { kind: 'refresh' };

const MACHINE_ACTION_NEEDED = MESSAGES.backupMachine.actionNeeded;

export const machineActionQuerySchema = z
  .strictObject(
    {
      delete: z.literal('true', { error: fieldNotValid('delete') }).optional(),
      status: z.enum(MACHINE_STATUSES, { error: fieldNotValid('Status') }).optional(),
      refresh: z.literal('true', { error: fieldNotValid('refresh') }).optional(),
    },
    { error: MACHINE_ACTION_NEEDED },
  )
  .transform((query, ctx): MachineAction => {
    const chosen = [query.delete, query.status, query.refresh].filter((v) => v !== undefined);
    if (chosen.length !== 1) {
      ctx.issues.push({ code: 'custom', message: MACHINE_ACTION_NEEDED, input: query, path: [] });
      return z.NEVER;
    }
    if (query.status !== undefined) return { kind: 'status', status: query.status };
    return query.delete !== undefined ? { kind: 'delete' } : { kind: 'refresh' };
  });

/**
 * Per-machine quota (DESIGN §8): the status a machine's reported usage puts it in, or null to keep it.
 * An ACTIVE machine over its package's per-machine limit becomes OVER_PER_MACHINE_QUOTA; one that is
 * OVER_PER_MACHINE_QUOTA and no longer over it returns to ACTIVE. Other statuses (suspended, blocked,
 * the package's) are a person's or the package's decision and stay. A negative limit is unlimited.
 */
export function machineQuotaStatus(status: MachineStatus, usedBytes: number, limitBytes: number): MachineStatus | null {
  const over = limitBytes >= 0 && usedBytes > limitBytes;
  if (status === 'ACTIVE' && over) return 'OVER_PER_MACHINE_QUOTA';
  if (status === 'OVER_PER_MACHINE_QUOTA' && !over) return 'ACTIVE';
  return null;
}
