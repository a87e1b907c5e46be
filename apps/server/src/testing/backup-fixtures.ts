import type { MachineStatus, OsFamily, PackageStatus, RunStatus, TaskStatus } from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import {
  backupMachines,
  backupPackages,
  buckets,
  customers,
  storageAccounts,
  storageLocations,
  taskActions,
} from '../db/schema/index.js';
import type { NewTask } from '../features/backup-state/repo.js';
import { createBackupStateService } from '../features/backup-state/service.js';

/** Inserts packages, machines and tasks straight into the tables, for tests of what reads them. */
export function backupFixtures(db: Db) {
  let sequence = 0;
  let accountId: number | null = null;

  return {
    /** A storage location for the customer, so it no longer shows as a new signup. */
    async storageLocation(customerId: number): Promise<number> {
      sequence += 1;
      if (accountId === null) {
        const [account] = await db
          .insert(storageAccounts)
          .values({ name: `Fixture storage ${Date.now()}-${sequence}`, type: 'LOCAL' })
          .returning({ id: storageAccounts.id });
        accountId = account?.id ?? null;
      }
      if (accountId === null) throw new Error('storage account not inserted');
      const [bucket] = await db
        .insert(buckets)
        .values({ storageAccountId: accountId, name: `fixture-${sequence}`, customerId })
        .returning({ id: buckets.id });
      if (!bucket) throw new Error('bucket not inserted');
      const [location] = await db
        .insert(storageLocations)
        .values({ customerId, bucketId: bucket.id })
        .returning({ id: storageLocations.id });
      if (!location) throw new Error('storage location not inserted');
      return location.id;
    },

    /** A package of the customer, in the given storage location (none unless told). */
    async package(
      customerId: number,
      options: { name?: string; status?: PackageStatus; storageLocationId?: number } = {},
    ): Promise<number> {
      sequence += 1;
      const [row] = await db
        .insert(backupPackages)
        .values({
          customerId,
          name: options.name ?? `Package ${sequence}`,
          status: options.status ?? 'ACTIVE',
          storageLocationId: options.storageLocationId ?? null,
          packageQuotaSizeInBytes: 100 * 1024 ** 3,
          maxBackupSizePerMachineInMbs: 10 * 1024,
        })
        .returning({ id: backupPackages.id });
      if (!row) throw new Error('package not inserted');
      return row.id;
    },

    async machine(
      packageId: number,
      options: {
        name?: string;
        status?: MachineStatus;
        osFamily?: OsFamily;
        assignedUserId?: number | null;
        softwareVersion?: string;
      } = {},
    ): Promise<number> {
      sequence += 1;
      const [pkg] = await db
        .select({ customerId: backupPackages.customerId })
        .from(backupPackages)
        .where(eq(backupPackages.id, packageId));
      if (!pkg) throw new Error(`package ${packageId} not found`);
      const [row] = await db
        .insert(backupMachines)
        .values({
          customerId: pkg.customerId,
          backupPackageId: packageId,
          name: options.name ?? `Machine ${sequence}`,
          status: options.status ?? 'ACTIVE',
          osFamily: options.osFamily ?? 'LINUX',
          operatingSystem: 'Debian 12',
          desktopClientVersion: options.softwareVersion ?? '1.0.0',
          assignedUserId: options.assignedUserId ?? null,
        })
        .returning({ id: backupMachines.id });
      if (!row) throw new Error('machine not inserted');
      return row.id;
    },

    /** The values of a new task for the backup-state service. */
    task(
      machineId: number,
      options: {
        name?: string;
        status?: TaskStatus;
        lastExecutionMissed?: boolean;
        statusOfLastRun?: RunStatus | null;
        statusOfRunBeforeLast?: RunStatus | null;
      } = {},
    ): NewTask {
      sequence += 1;
      return {
        backupMachineId: machineId,
        name: options.name ?? `Task ${sequence}`,
        scheduleCron: '0 2 * * *',
        scheduleDescription: 'Daily at 02:00',
        status: options.status ?? 'ACTIVE',
        lastExecutionMissed: options.lastExecutionMissed ?? false,
        statusOfLastRun: options.statusOfLastRun ?? null,
        statusOfRunBeforeLast: options.statusOfRunBeforeLast ?? null,
      };
    },

    /** A finished backup run of the task that made `resticSnapshotId` (still downloadable unless told otherwise). */
    async backupRun(
      task: { taskId: number; machineId: number },
      resticSnapshotId: string,
      snapshotsAvailable = true,
    ): Promise<number> {
      const [row] = await db
        .insert(taskActions)
        .values({
          backupTaskId: task.taskId,
          backupMachineId: task.machineId,
          type: 'BACKUP_RUN',
          status: 'FINISHED_SUCCESS',
          timeFinished: new Date(),
          resticSnapshotId,
          snapshotsAvailable,
        })
        .returning({ id: taskActions.id });
      if (!row) throw new Error('run not inserted');
      return row.id;
    },

    async setSuperAdmin(customerId: number, userId: number): Promise<void> {
      await db.update(customers).set({ superAdminUserId: userId }).where(eq(customers.id, customerId));
    },
  };
}

/** Tasks of the machine by these names, created as the portal creates them (its backup state service); their ids. */
export async function createdTasks(db: Db, machineId: number, ...names: string[]): Promise<number[]> {
  const fixtures = backupFixtures(db);
  const backupState = createBackupStateService({ db });
  const ids: number[] = [];
  for (const name of names) {
    const id = await backupState.createTask(fixtures.task(machineId, { name }));
    if (!id) throw new Error(`task ${name} not created`);
    ids.push(id);
  }
  return ids;
}
