import {
  type Actor,
  AGGREGATE_TASK_STATUSES,
  type AggregateTaskStatus,
  type AttentionKind,
  type AttentionList,
  type Audience,
  CUSTOMER_STATUS_GROUPS,
  type CustomerStatus,
  customerStatusGroup,
  customerTypes,
  customerUrl,
  type DashboardCustomerCounts,
  type DashboardCustomerRow,
  type DashboardMachineCounts,
  type DashboardMachineRow,
  type DashboardTaskCounts,
  type DashboardTaskRow,
  MACHINE_STATUSES,
  type MachineStatus,
  machineAudience,
  machineUrl,
  type OsFamily,
  type PackageStatus,
  type RunStatus,
  TASK_DISPLAY_STATUSES,
  type TaskDisplayStatus,
  type TaskStatus,
  taskBadges,
  taskUrl,
  zeroCounts,
} from '@portal/domain';
import type { AttentionRow } from './attention-repo.js';

export function presentCustomerRow(
  row: {
    id: number;
    name: string;
    superAdminEmail: string | null;
    displayStatus: CustomerStatus;
    parentResellerCustomerId: number | null;
    resellerEnabled: boolean;
    taskStatus: AggregateTaskStatus;
    tasksInProgress: number;
  },
  audience: 'provider' | 'reseller',
): DashboardCustomerRow {
  return {
    id: row.id,
    name: row.name,
    superAdminEmail: row.superAdminEmail,
    status: row.displayStatus,
    statusGroup: customerStatusGroup(row.displayStatus),
    types: customerTypes(row),
    taskStatus: row.taskStatus,
    tasksInProgress: row.tasksInProgress > 0,
    customerUrl: customerUrl(audience, row.id),
  };
}

const machineLink = (audience: Audience, ref: { customerId: number; packageId: number; machineId: number }) =>
  audience === 'customer' ? machineUrl('customer', ref) : machineUrl(audience, ref);

export function presentMachineRow(
  row: {
    id: number;
    name: string;
    customerId: number;
    backupPackageId: number;
    user: string | null;
    osFamily: OsFamily;
    operatingSystem: string;
    softwareVersion: string;
    status: MachineStatus;
    taskStatus: AggregateTaskStatus;
    tasksInProgress: number;
    online: boolean;
  },
  audience: Audience,
): DashboardMachineRow {
  return {
    id: row.id,
    name: row.name,
    customerId: row.customerId,
    backupPackageId: row.backupPackageId,
    user: row.user,
    osFamily: row.osFamily,
    operatingSystem: row.operatingSystem,
    softwareVersion: row.softwareVersion,
    status: row.status,
    taskStatus: row.taskStatus,
    tasksInProgress: row.tasksInProgress > 0,
    online: row.online,
    backupMachineUrl: machineLink(audience, {
      customerId: row.customerId,
      packageId: row.backupPackageId,
      machineId: row.id,
    }),
  };
}

export function presentTaskRow(
  row: {
    id: number;
    name: string;
    scheduleDescription: string;
    status: TaskStatus;
    displayStatus: TaskDisplayStatus;
    lastExecutionMissed: boolean;
    statusOfLastRun: RunStatus | null;
    statusOfRunBeforeLast: RunStatus | null;
  },
  machine: {
    id: number;
    customerId: number;
    backupPackageId: number;
    machineStatus: MachineStatus;
    packageStatus: PackageStatus;
    customerStatus: CustomerStatus;
  },
  audience: Audience,
): DashboardTaskRow {
  const ref = {
    customerId: machine.customerId,
    packageId: machine.backupPackageId,
    machineId: machine.id,
    taskId: row.id,
  };
  return {
    id: row.id,
    name: row.name,
    scheduleDescription: row.scheduleDescription,
    status: row.status,
    displayStatus: row.displayStatus,
    statusOfLastRun: row.statusOfLastRun,
    badges: taskBadges({ ...row, ...machine }),
    backupTaskUrl: audience === 'customer' ? taskUrl('customer', ref) : taskUrl(audience, ref),
  };
}

export function presentCustomerCounts(
  groups: readonly { taskStatus: AggregateTaskStatus; displayStatus: CustomerStatus; n: number }[],
): DashboardCustomerCounts {
  const counts: DashboardCustomerCounts = {
    total: 0,
    taskStatus: zeroCounts(AGGREGATE_TASK_STATUSES),
    statusGroup: zeroCounts(CUSTOMER_STATUS_GROUPS),
  };
  for (const { taskStatus, displayStatus, n } of groups) {
    counts.total += n;
    counts.taskStatus[taskStatus] += n;
    counts.statusGroup[customerStatusGroup(displayStatus)] += n;
  }
  return counts;
}

export function presentMachineCounts(
  groups: readonly { taskStatus: AggregateTaskStatus; status: MachineStatus; n: number }[],
): DashboardMachineCounts {
  const counts: DashboardMachineCounts = {
    total: 0,
    taskStatus: zeroCounts(AGGREGATE_TASK_STATUSES),
    status: zeroCounts(MACHINE_STATUSES),
  };
  for (const { taskStatus, status, n } of groups) {
    counts.total += n;
    counts.taskStatus[taskStatus] += n;
    counts.status[status] += n;
  }
  return counts;
}

export function presentTaskCounts(
  groups: readonly { displayStatus: TaskDisplayStatus; n: number }[],
): DashboardTaskCounts {
  const counts: DashboardTaskCounts = { total: 0, taskStatus: zeroCounts(TASK_DISPLAY_STATUSES) };
  for (const { displayStatus, n } of groups) {
    counts.total += n;
    counts.taskStatus[displayStatus] += n;
  }
  return counts;
}

/**
 * 'Needs attention': each item links to its task's page (failed, missed, stalled) or machine's (over quota,
 * offline), by the caller's audience for that machine as every other link to it.
 */
export function presentAttention(
  list: { rows: AttentionRow[]; counts: Record<AttentionKind, number>; hasMachines: boolean },
  actor: Actor,
): AttentionList {
  return {
    items: list.rows.flatMap((row) => {
      const audience = machineAudience(actor, row);
      if (audience === null) return [];
      const machine = { customerId: row.customerId, packageId: row.packageId, machineId: row.machineId };
      return [
        {
          kind: row.kind,
          at: row.at.toISOString(),
          customerName: row.customerName,
          machineName: row.machineName,
          taskName: row.taskName,
          url:
            row.taskId === null ? machineUrl(audience, machine) : taskUrl(audience, { ...machine, taskId: row.taskId }),
        },
      ];
    }),
    counts: list.counts,
    hasMachines: list.hasMachines,
  };
}
