import {
  type Audience,
  type TaskVerification,
  taskUrl,
  type VerificationStatus,
  type VerificationTaskRow,
} from '@portal/domain';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/**
 * A task's verification as every task row carries it: the kept facts and status (the sweep turns a verified task
 * overdue within a minute of its deadline, so rows, badge counts and the attention list agree).
 */
export function presentVerification(task: {
  verificationStatus: VerificationStatus;
  lastRestoreTestAt: Date | null;
  lastRestoreTestFiles: number | null;
  lastFullReadAt: Date | null;
}): TaskVerification {
  return {
    status: task.verificationStatus,
    lastRestoreTestAt: iso(task.lastRestoreTestAt),
    lastRestoreTestFiles: task.lastRestoreTestFiles,
    lastFullReadAt: iso(task.lastFullReadAt),
  };
}

/** A row of the dashboard's tasks by verification status; the link is the caller's view of the task's machine. */
export function presentVerificationTaskRow(
  row: Parameters<typeof presentVerification>[0] & {
    id: number;
    name: string;
    customerId: number;
    packageId: number;
    machineId: number;
    machineName: string;
    customerName: string;
  },
  audience: Audience,
  ownCustomerId: number | null,
): VerificationTaskRow {
  const ref = { customerId: row.customerId, packageId: row.packageId, machineId: row.machineId, taskId: row.id };
  const own = row.customerId === ownCustomerId;
  return {
    taskId: row.id,
    taskName: row.name,
    machineName: row.machineName,
    customerName: row.customerName,
    backupTaskUrl: own || audience === 'customer' ? taskUrl('customer', ref) : taskUrl(audience, ref),
    verification: presentVerification(row),
  };
}
