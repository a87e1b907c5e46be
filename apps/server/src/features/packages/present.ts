import {
  type Actor,
  type Audience,
  billingProductUrl,
  canDeletePackage,
  isPackageInitializable,
  mayChange,
  type PackageDetail,
  type PackageRow,
  packageAccessibleTo,
  packageStatusOptions,
  packageUrl,
} from '@portal/domain';
import type { PackageRecord } from './repo.js';

/**
 * What every packages table shows of a package (its own list, a user's page): whether the viewer may open it, and
 * the page `audience` opens.
 */
export const packageColumns = (
  pkg: Pick<
    PackageRecord,
    'id' | 'customerId' | 'name' | 'status' | 'packageQuotaSizeInBytes' | 'numberOfBackupMachines'
  >,
  audience: Audience,
  accessible: boolean,
) => {
  const ref = { customerId: pkg.customerId, packageId: pkg.id };
  return {
    id: pkg.id,
    customerId: pkg.customerId,
    name: pkg.name,
    status: pkg.status,
    packageQuotaSizeInBytes: pkg.packageQuotaSizeInBytes,
    numberOfBackupMachines: pkg.numberOfBackupMachines,
    accessibleByLoggedInUser: accessible,
    backupPackageUrl: audience === 'customer' ? packageUrl('customer', ref) : packageUrl(audience, ref),
  };
};

/** A package row (000 §3, 001 §3) as the caller, who sees it as `audience`, may use it. */
export function presentPackageRow(pkg: PackageRecord, actor: Actor, audience: Audience): PackageRow {
  const accessible = packageAccessibleTo({ actor, audience }, pkg);
  return {
    ...packageColumns(pkg, audience, accessible),
    maxBackupSizePerMachineInMbs: pkg.maxBackupSizePerMachineInMbs,
    noOfMachinesLimit: pkg.noOfMachinesLimit,
    upOrDownGradeRequested: pkg.upOrDownGradeRequested,
    requestedBackupPackageTemplateName: pkg.upOrDownGradeRequested ? pkg.requestedBackupPackageTemplateName : null,
    templateId: pkg.templateId,
    initializable: isPackageInitializable(pkg.status),
    manageable: accessible && mayChange(actor),
    paymentUrl: billingProductUrl(pkg.billingServer, pkg.whmcsServiceId),
    storageLocation:
      pkg.bucketId !== null && pkg.bucketName !== null
        ? { bucketId: pkg.bucketId, bucketName: pkg.bucketName, subfolder: pkg.subfolder ?? '' }
        : null,
    storageAccount:
      pkg.storageAccountId !== null && pkg.storageAccountName !== null
        ? { id: pkg.storageAccountId, name: pkg.storageAccountName }
        : null,
  };
}

/** The package page (ours, 000 §2): provider and reseller admins who may change things administer it. */
export function presentPackageDetail(pkg: PackageRecord, actor: Actor, audience: Audience): PackageDetail {
  const administrable = audience !== 'customer' && mayChange(actor);
  return {
    ...presentPackageRow(pkg, actor, audience),
    customerName: pkg.customerName,
    usedSpaceInBytes: pkg.usedSpaceInBytes,
    administrable,
    deleteable: administrable && canDeletePackage(pkg.status),
    statusOptions: administrable ? packageStatusOptions(pkg.status) : [],
  };
}
