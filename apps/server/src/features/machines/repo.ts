import type { MachineStatus, MessageType, OsFamily, Paging } from '@portal/domain';
import { and, asc, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { joinMachineOwners } from '../../db/machine-statuses.js';
import { countOf, countsPer, selectPage } from '../../db/paging.js';
import {
  backupMachines,
  backupPackages,
  backupTasks,
  customers,
  machineMessages,
  storageAccounts,
} from '../../db/schema/index.js';
import { joinPackageStorage } from '../../db/storage-joins.js';
import { machinePlacesWhere } from '../local-storage/repo.js';

/** A machine with what its page, its row and every decision about it read. */
export interface MachineRecord {
  id: number;
  customerId: number;
  backupPackageId: number;
  assignedUserId: number | null;
  assignedUserName: string | null;
  parentResellerCustomerId: number | null;
  allowProviderMachineControl: boolean;
  /** The customer's and package's names, for the page's breadcrumbs (issue 31). */
  customerName: string;
  backupPackageName: string;
  name: string;
  description: string;
  status: MachineStatus;
  osFamily: OsFamily;
  operatingSystem: string;
  desktopClientVersion: string;
  /** The IANA zone the agent schedules the machine's tasks in. */
  timeZone: string;
  online: boolean;
  lastSeenAt: Date | null;
  /** The remote-management button (002 §4.2, §6): task commands need it on. */
  remoteManagementEnabled: boolean;
  usedSpaceBytes: number;
  maxBackupSizePerMachineInMbs: number;
  beingDeleted: boolean;
  numberOfBackupTasks: number;
}

/** Which messages of a machine the message log asks for (001 §7). */
export interface MessageFilter {
  backupTaskId: number | null;
  backupActionId: number | null;
  messageTypes: MessageType[];
}

const fields = {
  id: backupMachines.id,
  customerId: backupMachines.customerId,
  backupPackageId: backupMachines.backupPackageId,
  assignedUserId: backupMachines.assignedUserId,
  assignedUserName: backupMachines.assignedUserName,
  parentResellerCustomerId: customers.parentResellerCustomerId,
  allowProviderMachineControl: customers.allowProviderMachineControl,
  customerName: customers.displayName,
  backupPackageName: backupPackages.name,
  name: backupMachines.name,
  description: backupMachines.description,
  status: backupMachines.status,
  osFamily: backupMachines.osFamily,
  operatingSystem: backupMachines.operatingSystem,
  desktopClientVersion: backupMachines.desktopClientVersion,
  timeZone: backupMachines.timeZone,
  online: backupMachines.online,
  lastSeenAt: backupMachines.lastSeenAt,
  remoteManagementEnabled: backupMachines.remoteManagementEnabled,
  usedSpaceBytes: backupMachines.usedSpaceBytes,
  maxBackupSizePerMachineInMbs: backupPackages.maxBackupSizePerMachineInMbs,
  beingDeleted: backupMachines.beingDeleted,
};

const liveMachine = eq(backupMachines.beingDeleted, false);
const liveTask = ne(backupTasks.status, 'BEING_DELETED');

/**
 * The queries of the machine pages (001 §2, §3, §7). Lookups by id return the machine with its owners;
 * the service decides with the domain's rules whether the caller sees it. Lists take the customer (and
 * the assigned user) the service resolved from the caller, so another tenant's machines never match.
 */
export function createMachinesRepo(db: Executor) {
  /** The number of tasks (those being deleted aside) of each of these machines, one grouped query. */
  const taskCounts = (ids: number[]) => countsPer(db, backupTasks.backupMachineId, ids, liveTask);

  const select = () => joinMachineOwners(db.select(fields).from(backupMachines).$dynamic());

  return {
    /** One machine, also while it is being deleted (the service decides what that means). */
    async machine(machineId: number): Promise<MachineRecord | null> {
      const [row] = await select().where(eq(backupMachines.id, machineId));
      if (!row) return null;
      const tasks = await taskCounts([row.id]);
      return { ...row, numberOfBackupTasks: tasks.get(row.id) ?? 0 };
    },

    /** The type of the storage account a package's location is on (LOCAL or S3), null when it has none. */
    async storageAccountType(packageId: number) {
      const [row] = await joinPackageStorage(
        db.select({ type: storageAccounts.type }).from(backupPackages).$dynamic(),
      ).where(eq(backupPackages.id, packageId));
      return row?.type ?? null;
    },

    /** A page of a customer's machines (or of those assigned to one of its users, or in one package), by name. */
    async page(
      scope: { customerId: number; assignedUserId: number | null; packageId?: number },
      paging: Paging,
    ): Promise<{ rows: MachineRecord[]; total: number }> {
      const conditions: SQL[] = [eq(backupMachines.customerId, scope.customerId), liveMachine];
      if (scope.assignedUserId !== null) conditions.push(eq(backupMachines.assignedUserId, scope.assignedUserId));
      if (scope.packageId !== undefined) conditions.push(eq(backupMachines.backupPackageId, scope.packageId));
      const where = and(...conditions);
      const { rows, total } = await selectPage(
        select().where(where).orderBy(sql`lower(${backupMachines.name})`, asc(backupMachines.id)),
        () => countOf(db, backupMachines, where),
        paging,
      );
      const tasks = await taskCounts(rows.map((r) => r.id));
      return {
        rows: rows.map((r) => ({ ...r, numberOfBackupTasks: tasks.get(r.id) ?? 0 })),
        total,
      };
    },

    async edit(machineId: number, change: { name: string; description: string }): Promise<boolean> {
      const rows = await db
        .update(backupMachines)
        .set(change)
        .where(and(eq(backupMachines.id, machineId), liveMachine))
        .returning({ id: backupMachines.id });
      return rows.length > 0;
    },

    /** Switches the machine's remote management; false when it is gone or being deleted. */
    async setRemoteManagement(machineId: number, enabled: boolean): Promise<boolean> {
      const rows = await db
        .update(backupMachines)
        .set({ remoteManagementEnabled: enabled })
        .where(and(eq(backupMachines.id, machineId), liveMachine))
        .returning({ id: backupMachines.id });
      return rows.length > 0;
    },

    /** A page of the machine's messages, newest first (machine_messages_machine_idx). */
    async messages(machineId: number, filter: MessageFilter, paging: Paging) {
      const conditions: SQL[] = [
        eq(machineMessages.backupMachineId, machineId),
        inArray(machineMessages.messageType, filter.messageTypes),
      ];
      if (filter.backupTaskId !== null) conditions.push(eq(machineMessages.backupTaskId, filter.backupTaskId));
      if (filter.backupActionId !== null) conditions.push(eq(machineMessages.taskActionId, filter.backupActionId));
      const where = and(...conditions);
      return selectPage(
        db
          .select({
            id: machineMessages.id,
            time: machineMessages.time,
            messageType: machineMessages.messageType,
            backupTaskId: machineMessages.backupTaskId,
            actionId: machineMessages.taskActionId,
            message: machineMessages.message,
          })
          .from(machineMessages)
          .where(where)
          .orderBy(desc(machineMessages.time), desc(machineMessages.id)),
        () => countOf(db, machineMessages, where),
        paging,
      );
    },

    /**
     * Marks a SUSPENDED machine for deletion (001 §4): its agent is refused from then on, and the deletion
     * job removes its data. The status is checked in the statement itself, so a change in between refuses.
     */
    async markForDeletion(machineId: number): Promise<boolean> {
      const rows = await db
        .update(backupMachines)
        .set({ beingDeleted: true })
        .where(and(eq(backupMachines.id, machineId), eq(backupMachines.status, 'SUSPENDED')))
        .returning({ id: backupMachines.id });
      return rows.length > 0;
    },

    /** Machines marked for deletion whose customer and package are not themselves being deleted (those take them). */
    async pendingDeletions(limit: number): Promise<number[]> {
      const rows = await db
        .select({ id: backupMachines.id })
        .from(backupMachines)
        .innerJoin(customers, eq(customers.id, backupMachines.customerId))
        .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
        // A package being deleted takes its machines with it.
        .where(
          and(
            eq(backupMachines.beingDeleted, true),
            eq(customers.beingDeleted, false),
            eq(backupPackages.beingDeleted, false),
          ),
        )
        .orderBy(asc(backupMachines.id))
        .limit(limit);
      return rows.map((r) => r.id);
    },

    /** Where a machine marked for deletion keeps its repository (none once its row is gone). */
    machinePlaces: (machineId: number) =>
      machinePlacesWhere(db, and(eq(backupMachines.id, machineId), eq(backupMachines.beingDeleted, true)) as SQL),
  };
}

export type MachinesRepo = ReturnType<typeof createMachinesRepo>;
