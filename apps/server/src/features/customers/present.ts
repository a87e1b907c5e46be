import {
  type AdminAudience,
  type AdminCandidate,
  billingProductUrl,
  type CustomerAccount,
  type CustomerDetail,
  type CustomerPackageRow,
  type CustomerRow,
  customerStatusOptions,
  customerUrl,
  fullName,
  isCustomerDeletable,
  isNewSignup,
  mayBecomeReseller,
  packageUrl,
  userUrl,
} from '@portal/domain';
import type { AccountData, CustomerPackageData, CustomerRowData, StorageLocationData } from './repo.js';

/** A customer row of the lists (002 §3 'Customer display'): the fields listed, nothing else. */
export function presentCustomerRow(row: CustomerRowData, audience: AdminAudience): CustomerRow {
  const url = customerUrl(audience, row.id);
  return {
    id: row.id,
    companyName: row.companyName,
    displayName: row.displayName,
    status: row.status,
    displayStatus: row.displayStatus,
    newSignup: isNewSignup(row),
    superAdminId: row.superAdminId,
    superAdminFullName: row.superAdminFullName,
    superAdminEmail: row.superAdminEmail,
    superAdminUrl:
      row.superAdminId === null ? null : userUrl(audience, { customerId: row.id, userId: row.superAdminId }),
    numberOfBackupPackages: row.numberOfBackupPackages,
    backupPackagesUrl: `${url}#packages`,
    parentResellerCustomerId: row.parentResellerCustomerId,
    parentResellerCompanyName: row.parentResellerCompanyName,
    resellerSettingsDisplayDto: row.hasResellerSettings
      ? { resellerEnabled: row.resellerEnabled, brandName: row.brandName }
      : null,
    whmcsServerId: row.whmcsServerId,
    whmcsServerDescription: row.whmcsServerDescription,
    cpanelPluginEnabled: row.cpanelPluginEnabled,
    allowProviderMachineControl: row.allowProviderMachineControl,
    customerUrl: url,
    statusOptions: [...customerStatusOptions(row.status)],
    deleteable: isCustomerDeletable(row),
    numberOfChildCustomers: row.numberOfChildCustomers,
  };
}

/** The customer page (002 §3): the row, its storage locations with their accounts, make-reseller. */
export function presentCustomerDetail(
  row: CustomerRowData,
  locations: StorageLocationData[],
  audience: AdminAudience,
): CustomerDetail {
  return {
    ...presentCustomerRow(row, audience),
    storageLocationAndAccountDisplayDtos: locations.map((l) => ({
      storageLocation: {
        id: l.id,
        customerId: l.customerId,
        bucketId: l.bucketId,
        bucketName: l.bucketName,
        subfolder: l.subfolder,
        defaultForCustomer: l.defaultForCustomer,
        numberOfBackupPackages: l.numberOfBackupPackages,
      },
      storageAccount: {
        id: l.accountId,
        name: l.accountName,
        defaultStorageAccount: l.defaultStorageAccount,
        type: l.accountType,
      },
    })),
    makeResellerAllowed: audience === 'provider' && mayBecomeReseller(row),
  };
}

export function presentCustomerPackageRow(row: CustomerPackageData, audience: AdminAudience): CustomerPackageRow {
  return {
    id: row.id,
    customerId: row.customerId,
    name: row.name,
    status: row.status,
    packageQuotaSizeInBytes: row.packageQuotaSizeInBytes,
    usedBytes: row.usedBytes,
    numberOfBackupMachines: row.numberOfBackupMachines,
    numberOfChildCustomerPackages: row.numberOfChildCustomerPackages,
    storageAccount:
      row.storageAccountId === null || row.storageAccountName === null
        ? null
        : { id: row.storageAccountId, name: row.storageAccountName },
    backupPackageUrl: packageUrl(audience, { customerId: row.customerId, packageId: row.id }),
    paymentUrl: billingProductUrl(row.billingServer, row.whmcsServiceId),
  };
}

/** The customer account page (001 §2). */
export function presentAccount(
  row: AccountData,
  extra: {
    logo: string;
    editable: boolean;
    candidates: { id: number; firstName: string; surname: string; email: string }[];
  },
): CustomerAccount {
  const adminCandidates: AdminCandidate[] = extra.candidates.map((u) => ({
    id: u.id,
    fullName: fullName(u),
    email: u.email,
  }));
  return {
    id: row.id,
    status: row.status,
    displayStatus: row.displayStatus,
    companyName: row.companyName,
    superAdminId: row.superAdminId,
    superAdminFullName: row.superAdminFullName,
    superAdminEmail: row.superAdminEmail,
    cpanelPluginEnabled: row.cpanelPluginEnabled,
    allowProviderMachineControl: row.allowProviderMachineControl,
    boltCustomer: row.parentResellerCustomerId === null,
    logo: extra.logo,
    editable: extra.editable,
    requireMfa: row.requireMfa,
    adminCandidates,
  };
}
