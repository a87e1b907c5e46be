import type {
  PackageRequestStatus,
  PackageRequestType,
  PackageStatus,
  StorageItemType,
  StorageQuotaUnit,
} from './enums.js';
import { pageSizeParam, pagingQuerySchema } from './envelope.js';
import { packageQuotaInMb } from './forms/package.js';
import { quotaToBytesExact } from './sizes.js';

/**
 * Package templates and package requests on the wire (000 §2, §3, §7): the rows of the provider's and a
 * reseller's tables, the customer's own requests, and the page size of 000 §9.
 */

/** 000 §9: templates, packages and requests tables show 5 rows per page. */
export const PACKAGE_TABLES_PAGE_SIZE = 5;

/** ?page (zero-based) &size (default 5) of the template and request tables (000 §7). */
export const packageTablePagingSchema = pagingQuerySchema.extend({
  size: pageSizeParam(200, PACKAGE_TABLES_PAGE_SIZE),
});

/** A package template as its table shows it (000 §3; storageQuotaInBytes is ours, for the human form). */
export interface PackageTemplateRow {
  id: number;
  name: string;
  storageQuota: number;
  storageQuotaUnit: StorageQuotaUnit;
  noOfMachinesLimit: number;
  storageQuotaInBytes: number;
  /** Ours: a provider's template offered to resellers only (a reseller's own templates: always false). */
  resellersOnly: boolean;
}

/** A storage item an approval may link (000 §3); capacityInBytes -1 means unlimited. */
export interface StorageItem {
  id: number;
  name: string;
  capacityInBytes: number;
}

export interface AvailableStorageItems {
  storageItemsType: StorageItemType;
  storageItems: StorageItem[];
}

/** A pending request in the provider's or a reseller's table (000 §3 'Package request'). */
export interface PackageRequestRow {
  id: number;
  requestType: PackageRequestType;
  backupPackageName: string | null;
  requestedBackupPackageName: string | null;
  customerCompanyName: string;
  customerUsername: string;
  firstApprovalRequest: boolean;
  approveUrl: string;
  declineUrl: string;
  /** Null for change requests, which link nothing. */
  availableStorageItemsToLink: AvailableStorageItems | null;
}

/** A customer's own request (ours: the customer side of 000 §2), pending first. */
export interface MyPackageRequestRow {
  id: number;
  requestType: PackageRequestType;
  status: PackageRequestStatus;
  backupPackageName: string | null;
  requestedBackupPackageName: string | null;
  createdAt: string;
  decidedAt: string | null;
}

/** The request types as the tables show them (ours). */
export const PACKAGE_REQUEST_TYPE_TEXTS: Readonly<Record<PackageRequestType, string>> = {
  NEW_SIGNUP: 'New signup',
  ADDITIONAL_PACKAGE: 'Additional package',
  CHANGE_PACKAGE: 'Change package',
};

/** The request statuses as the customer's table shows them (ours). */
export const PACKAGE_REQUEST_STATUS_TEXTS: Readonly<Record<PackageRequestStatus, string>> = {
  PENDING: 'Pending',
  APPROVED: 'Approved',
  DECLINED: 'Declined',
};

/**
 * A template quota as a package's byte count: exact, capped to the largest safe integer (a template may
 * hold up to 1,024,000,000,000 PB, far beyond what a 64-bit count or a JavaScript number holds).
 */
export function templateQuotaBytes(storageQuota: number, unit: StorageQuotaUnit): number {
  const exact = quotaToBytesExact(storageQuota, unit);
  return exact > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(exact);
}

/** What a package takes from its template: quota in bytes, per-machine maximum (the quota in MB), machine limit. */
export function packageSizesFromTemplate(template: {
  storageQuota: number;
  storageQuotaUnit: StorageQuotaUnit;
  noOfMachinesLimit: number;
}): { packageQuotaSizeInBytes: number; maxBackupSizePerMachineInMbs: number; noOfMachinesLimit: number } {
  const bytes = templateQuotaBytes(template.storageQuota, template.storageQuotaUnit);
  return {
    packageQuotaSizeInBytes: bytes,
    maxBackupSizePerMachineInMbs: packageQuotaInMb(bytes),
    noOfMachinesLimit: template.noOfMachinesLimit,
  };
}

/** Packages a reseller may place its children's packages in (ours: only running ones). */
export const RESELLER_HOST_PACKAGE_STATUSES: readonly PackageStatus[] = ['ACTIVE'];
