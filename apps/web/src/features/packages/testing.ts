/** Test-only: package records for the package pages' component tests (not imported by the app). */
import type { PackageDetail, PackageRow } from '@portal/domain';

let nextId = 700;
const GB = 1024 ** 3;

/** What every package row shows of package `id` (the packages table's, a customer's, a user's): customer 7's, 10 GB. */
export const packageFields = (id: number) => ({
  id,
  customerId: 7,
  name: `Package ${id}`,
  status: 'ACTIVE' as const,
  packageQuotaSizeInBytes: 10 * GB,
});

export function packageRow(overrides: Partial<PackageRow> = {}): PackageRow {
  const id = overrides.id ?? nextId++;
  return {
    ...packageFields(id),
    maxBackupSizePerMachineInMbs: 10 * 1024,
    noOfMachinesLimit: 5,
    numberOfBackupMachines: 2,
    upOrDownGradeRequested: false,
    requestedBackupPackageTemplateName: null,
    templateId: 1,
    initializable: false,
    manageable: true,
    accessibleByLoggedInUser: true,
    backupPackageUrl: `/admin/backuppackages/${id}`,
    paymentUrl: null,
    storageLocation: null,
    storageAccount: null,
    ...overrides,
  };
}

export function packageDetail(overrides: Partial<PackageDetail> = {}): PackageDetail {
  return {
    ...packageRow(overrides),
    customerName: 'Contoso Ltd',
    usedSpaceInBytes: 0,
    administrable: true,
    deleteable: false,
    statusOptions: ['SUSPENDED'],
    ...overrides,
  };
}

export const storageOf = (usedGb: number, quotaGb = 10) => ({
  packageQuotaSizeInBytes: quotaGb * GB,
  usedSpaceInBytes: usedGb * GB,
  availableSpaceInBytes: Math.max(0, quotaGb - usedGb) * GB,
});
