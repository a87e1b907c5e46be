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
  machineUrlOf,
  type PackageStatus,
  type RunStatus,
  TASK_DISPLAY_STATUSES,
  type TaskDisplayStatus,
  type TaskStatus,
  taskBadges,
  taskUrl,
  taskUrlOf,
  zeroCounts,
} from '@portal/domain';
import { presentVerification } from '../verification/present.js';
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

/** The machine's row as its query reads it: the wire row's fields, with the number of its tasks in progress. */
type MachineRowRecord = Omit<DashboardMachineRow, 'tasksInProgress' | 'backupMachineUrl'> & { tasksInProgress: number };

export function presentMachineRow(row: MachineRowRecord, audience: Audience): DashboardMachineRow {
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
    backupMachineUrl: machineUrlOf(audience, row),
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
  } & Parameters<typeof presentVerification>[0],
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
  return {
    id: row.id,
    name: row.name,
    scheduleDescription: row.scheduleDescription,
    status: row.status,
    displayStatus: row.displayStatus,
    statusOfLastRun: row.statusOfLastRun,
    badges: taskBadges({ ...row, ...machine }),
    backupTaskUrl: taskUrlOf(audience, machine, row.id),
    verification: presentVerification(row),
  };
}

/** The rows' counts summed per key (`keyOf` a row's), every key of `keys` present. */
function tally<R extends { n: number }, K extends string>(
  rows: readonly R[],
  keys: readonly K[],
  keyOf: (row: R) => K,
) {
  const counts = zeroCounts(keys);
  for (const row of rows) counts[keyOf(row)] += row.n;
  return counts;
}

const totalOf = (rows: readonly { n: number }[]) => rows.reduce((total, row) => total + row.n, 0);

/** What the customers' and the machines' counts both start with: the total, and by their tasks' aggregate status. */
const byTaskStatus = (groups: readonly { taskStatus: AggregateTaskStatus; n: number }[]) => ({
  total: totalOf(groups),
  taskStatus: tally(groups, AGGREGATE_TASK_STATUSES, (g) => g.taskStatus),
});

export function presentCustomerCounts(
  groups: readonly { taskStatus: AggregateTaskStatus; displayStatus: CustomerStatus; n: number }[],
): DashboardCustomerCounts {
  return {
    ...byTaskStatus(groups),
    statusGroup: tally(groups, CUSTOMER_STATUS_GROUPS, (g) => customerStatusGroup(g.displayStatus)),
  };
}

export function presentMachineCounts(
  groups: readonly { taskStatus: AggregateTaskStatus; status: MachineStatus; n: number }[],
): DashboardMachineCounts {
  return {
    ...byTaskStatus(groups),
    status: tally(groups, MACHINE_STATUSES, (g) => g.status),
  };
}

export function presentTaskCounts(
  groups: readonly { displayStatus: TaskDisplayStatus; n: number }[],
): DashboardTaskCounts {
  return { total: totalOf(groups), taskStatus: tally(groups, TASK_DISPLAY_STATUSES, (g) => g.displayStatus) };
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
