import { eq, inArray } from 'drizzle-orm';
import { type Executor, oneOrNull } from './client.js';
import { joinMachineOwners, machineStatuses } from './machine-statuses.js';
import { backupMachines, customers } from './schema/index.js';

/**
 * A machine with what deciding about it needs: who may see or command it (its customer, that
 * customer's reseller, its assigned user), whether its tasks may run (its own, its package's and its
 * customer's status) and how commands reach it. One query, shared by the dashboard, the live channel and
 * task commands.
 */
export async function machineContext(db: Executor, machineId: number) {
  const query = db
    .select({
      id: backupMachines.id,
      customerId: backupMachines.customerId,
      backupPackageId: backupMachines.backupPackageId,
      assignedUserId: backupMachines.assignedUserId,
      osFamily: backupMachines.osFamily,
      timeZone: backupMachines.timeZone,
      remoteManagementEnabled: backupMachines.remoteManagementEnabled,
      online: backupMachines.online,
      beingDeleted: backupMachines.beingDeleted,
      parentResellerCustomerId: customers.parentResellerCustomerId,
      allowProviderMachineControl: customers.allowProviderMachineControl,
      ...machineStatuses,
    })
    .from(backupMachines)
    .$dynamic();
  return oneOrNull(joinMachineOwners(query).where(eq(backupMachines.id, machineId)));
}

export type MachineContext = NonNullable<Awaited<ReturnType<typeof machineContext>>>;

/** Whether the machine is there (not being deleted) at a path that names its customer and package. */
export const machineAtPath = <M extends Pick<MachineContext, 'customerId' | 'backupPackageId' | 'beingDeleted'>>(
  machine: M | null,
  path: { customerId: number; packageId: number },
): machine is M =>
  machine !== null &&
  !machine.beingDeleted &&
  machine.customerId === path.customerId &&
  machine.backupPackageId === path.packageId;

/** Who may see each of these machines (the live dashboard's fan-out): one query for a batch of ids. */
export async function machineVisibilities(db: Executor, machineIds: readonly number[]) {
  if (machineIds.length === 0) return [];
  return db
    .select({
      id: backupMachines.id,
      customerId: backupMachines.customerId,
      assignedUserId: backupMachines.assignedUserId,
      parentResellerCustomerId: customers.parentResellerCustomerId,
    })
    .from(backupMachines)
    .innerJoin(customers, eq(customers.id, backupMachines.customerId))
    .where(inArray(backupMachines.id, [...machineIds]));
}
