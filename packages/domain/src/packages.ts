import { z } from 'zod';
import { PACKAGE_STATUSES, type PackageStatus } from './enums.js';
import { displayText } from './forms/fields.js';
import { PACKAGE_LABELS, PACKAGE_LIMITS } from './forms/package.js';
import { fieldNotValid, MESSAGES } from './messages.js';
import { PACKAGE_TABLES_PAGE_SIZE } from './package-requests.js';
import type { Audience } from './paths.js';
import { type Actor, isCustomerSuperAdmin, isProviderAdmin, isResellerAdmin } from './permissions.js';
import { machineLimitText } from './sizes.js';

/** Every backup packages table, the customer's and those under a customer (000 §9: 5 rows per page). */
export const PACKAGES_PAGE_SIZE = PACKAGE_TABLES_PAGE_SIZE;

/** 000 §3 'Backup package' with 001 §3's customer side (accessibleByLoggedInUser). */
export interface PackageRow {
  id: number;
  customerId: number;
  name: string;
  status: PackageStatus;
  packageQuotaSizeInBytes: number;
  maxBackupSizePerMachineInMbs: number;
  /** 0 or less means unlimited. */
  noOfMachinesLimit: number;
  numberOfBackupMachines: number;
  upOrDownGradeRequested: boolean;
  requestedBackupPackageTemplateName: string | null;
  /** The template the package was made from (an up/downgrade offers the others); null once it is gone. */
  templateId: number | null;
  initializable: boolean;
  manageable: boolean;
  accessibleByLoggedInUser: boolean;
  backupPackageUrl: string;
  /** The billing product page of the package's service; null without a billing server or service. */
  paymentUrl: string | null;
  storageLocation: { bucketId: number; bucketName: string; subfolder: string } | null;
  storageAccount: { id: number; name: string } | null;
}

/** The package page (ours, 000 §2): the row with what the page shows beside it and may do. */
export interface PackageDetail extends PackageRow {
  customerName: string;
  usedSpaceInBytes: number;
  /** Provider and reseller admins change the status and delete (000 §4). */
  administrable: boolean;
  /** Whether a deletion may be asked for now (SUSPENDED). */
  deleteable: boolean;
  statusOptions: readonly PackageStatus[];
}

/** 000 §3 'Storage details' of a package: its quota and its machines' reported usage. */
export interface PackageStorageDetails {
  packageQuotaSizeInBytes: number;
  availableSpaceInBytes: number;
  usedSpaceInBytes: number;
}

/** The Machines cell of the packages table: 'n of limit', or 'n of Unlimited' (0 or less is unlimited). */
export const packageMachinesText = (pkg: { numberOfBackupMachines: number; noOfMachinesLimit: number }) =>
  `${pkg.numberOfBackupMachines} of ${machineLimitText(pkg.noOfMachinesLimit)}`;

/** Storage details from the quota and the sum of the machines' usage; nothing is available past the quota. */
export function packageStorageDetails(
  packageQuotaSizeInBytes: number,
  usedSpaceInBytes: number,
): PackageStorageDetails {
  return {
    packageQuotaSizeInBytes,
    usedSpaceInBytes,
    availableSpaceInBytes: Math.max(0, packageQuotaSizeInBytes - usedSpaceInBytes),
  };
}

/**
 * Package quota (000 §4, DESIGN §8): the status the package's usage (the sum of its machines' reported
 * usage) puts it in, or null to keep it. An ACTIVE package above its quota becomes OVER_QUOTA; an
 * OVER_QUOTA one at or below it returns to ACTIVE. Other statuses are a person's or a request's decision.
 */
export function packageQuotaStatus(status: PackageStatus, usedBytes: number, quotaBytes: number): PackageStatus | null {
  const over = usedBytes > quotaBytes;
  if (status === 'ACTIVE' && over) return 'OVER_QUOTA';
  if (status === 'OVER_QUOTA' && !over) return 'ACTIVE';
  return null;
}

/** The package action of PUT .../backuppackages/{p} for provider and reseller: ?status= or ?delete=true. */
export type PackageAction = { kind: 'status'; status: PackageStatus } | { kind: 'delete' };

const ACTION_NEEDED = MESSAGES.packagePages.actionNeeded;

export const packageActionQuerySchema = z
  .strictObject(
    {
      delete: z.literal('true', { error: fieldNotValid('delete') }).optional(),
      status: z.enum(PACKAGE_STATUSES, { error: fieldNotValid('Status') }).optional(),
    },
    { error: ACTION_NEEDED },
  )
  .transform((query, ctx): PackageAction => {
    if ((query.delete === undefined) === (query.status === undefined)) {
      ctx.issues.push({ code: 'custom', message: ACTION_NEEDED, input: query, path: [] });
      return z.NEVER;
    }
    return query.status !== undefined ? { kind: 'status', status: query.status } : { kind: 'delete' };
  });

/** The customer's PUT /admin/backuppackages/{p}: an edit, or with ?initialize=true the naming of an APPROVED one. */
export const packageEditQuerySchema = z.strictObject({
  initialize: z.literal('true', { error: fieldNotValid('initialize') }).optional(),
});

/** Initialize an APPROVED package (000 §4): its owner names it; the name follows the edit form's rule. */
export const packageInitializeSchema = z.object({
  name: displayText(PACKAGE_LABELS.name, PACKAGE_LIMITS.nameMax),
});
export type PackageInitializePayload = z.output<typeof packageInitializeSchema>;

/**
 * How the caller sees a package, or null when it does not (another tenant's): the provider every package,
 * a reseller admin its child customers' packages, and on the customer's side its super admin every package
 * of the customer and anyone else those linked to them (user_backup_packages, 000 §3).
 */
export function packageAudience(
  actor: Actor,
  pkg: { customerId: number; parentResellerCustomerId: number | null; linkedToViewer: boolean },
): Audience | null {
  if (isProviderAdmin(actor)) return 'provider';
  if (pkg.customerId === actor.customerId) {
    return isCustomerSuperAdmin(actor) || pkg.linkedToViewer ? 'customer' : null;
  }
  if (isResellerAdmin(actor) && pkg.parentResellerCustomerId === actor.customerId) return 'reseller';
  return null;
}
