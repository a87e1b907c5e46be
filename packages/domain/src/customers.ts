import { z } from 'zod';
import { CUSTOMER_STATUSES, type CustomerStatus, type PackageStatus, type StorageAccountType } from './enums.js';
import { pageSizeParam, pagingQuerySchema } from './envelope.js';
import { filterText } from './forms/fields.js';
import { fieldNotValid } from './messages.js';
import { canDeleteCustomer } from './transitions.js';

/**
 * Customer administration (002 §2.5, §3, §4.1, §4.5, §7.3) and the customer account page (001 §2, §3,
 * §5): the wire shapes of the calls, their query parameters and the rules the server applies and the
 * web shows. The spec gives the fields; the starred ones of the contract are ours.
 */

/** 002 §9: the customers, customers-to-make-resellers and resellers tables show 10 rows per page. */
export const CUSTOMERS_PAGE_SIZE = 10;

/** Ours: the longest search text the paged customer lists accept. */
export const CUSTOMER_SEARCH_MAX = 100;

/**
 * Paging and search of the customer lists (002 §7.3 leaves them open): zero-based `page`, `size`
 * (default 10) and `search`, a case-insensitive "contains" over the company name and the super admin's
 * name and e-mail; blank means no filter.
 */
export const customerSearchQuerySchema = pagingQuerySchema.extend({
  size: pageSizeParam(200, CUSTOMERS_PAGE_SIZE),
  search: filterText('Search', CUSTOMER_SEARCH_MAX),
});
export type CustomerSearchQuery = z.output<typeof customerSearchQuerySchema>;

/** ?status={newStatus} of PUT /boltadmin/customers/{id} and /admin/mycustomers/{id} (002 §7.3). */
export const customerStatusChangeQuerySchema = z.object({
  status: z.enum(CUSTOMER_STATUSES, { error: fieldNotValid('Status') }),
});

// --- Rules -----------------------------------------------------------------------------------------

/** What the make-reseller rule reads of a customer. */
export interface MakeResellerInput {
  /** null for the provider's own customers. */
  parentResellerCustomerId: number | null;
  /** The customer's reseller settings say reseller is enabled. */
  resellerEnabled: boolean;
  beingDeleted: boolean;
}

/**
 * 002 §4.5: customers are made resellers from the customers-to-make-resellers list. Ours: that list
 * holds the provider's own customers (no parent reseller: a reseller's customer stays its reseller's),
 * that are not resellers already and are not being deleted.
 */
export function mayBecomeReseller(customer: MakeResellerInput): boolean {
  return customer.parentResellerCustomerId === null && !customer.resellerEnabled && !customer.beingDeleted;
}

/**
 * 002 §4.1: delete is offered only when the customer is SUSPENDED. Ours: never for a reseller that still
 * has customers (their rows and data hang off it; they are deleted or moved first).
 */
export function isCustomerDeletable(customer: { status: CustomerStatus; numberOfChildCustomers: number }): boolean {
  return canDeleteCustomer(customer.status) && customer.numberOfChildCustomers === 0;
}

// --- Wire shapes -------------------------------------------------------------------------------------

/** 002 §3 'Customer display', as listed in the customer tables. */
export interface CustomerRow {
  id: number;
  companyName: string;
  /** Ours: companyName, else the super admin's full name (000 §3). */
  displayName: string;
  /** The stored status; status changes and delete read this one. */
  status: CustomerStatus;
  /** Ours: SIGNUP_REQUESTED while the customer has no storage locations (000 §4). */
  displayStatus: CustomerStatus;
  /** Ours: NEW SIGNUP (002 §2.5): no storage locations or accounts. */
  newSignup: boolean;
  superAdminId: number | null;
  superAdminFullName: string | null;
  superAdminEmail: string | null;
  /** The super admin's user page for the caller's audience; null without a super admin. */
  superAdminUrl: string | null;
  numberOfBackupPackages: number;
  backupPackagesUrl: string;
  parentResellerCustomerId: number | null;
  /** Ours. */
  parentResellerCompanyName: string | null;
  resellerSettingsDisplayDto: { resellerEnabled: boolean; brandName: string | null } | null;
  whmcsServerId: number | null;
  whmcsServerDescription: string | null;
  cpanelPluginEnabled: boolean;
  allowProviderMachineControl: boolean;
  /** Ours: /boltadmin/customers/{id} or /admin/mycustomers/{id}. */
  customerUrl: string;
  /** Ours: the status changes offered (002 §4.1), from the stored status. */
  statusOptions: CustomerStatus[];
  /** Ours: delete is offered (isCustomerDeletable). */
  deleteable: boolean;
  /** Ours. */
  numberOfChildCustomers: number;
}

/** 001 §3 'Storage-location-and-account pair', with 002 §3's location and account fields. */
export interface StorageLocationAndAccount {
  storageLocation: {
    id: number;
    customerId: number;
    bucketId: number;
    bucketName: string;
    subfolder: string | null;
    defaultForCustomer: boolean;
    numberOfBackupPackages: number;
  };
  storageAccount: { id: number; name: string; defaultStorageAccount: boolean; type: StorageAccountType };
}

/** The customer page: the row plus its storage (002 §3). */
export interface CustomerDetail extends CustomerRow {
  storageLocationAndAccountDisplayDtos: StorageLocationAndAccount[];
  /** Ours: the provider may make this customer a reseller (mayBecomeReseller); always false for resellers. */
  makeResellerAllowed: boolean;
}

/** 002 §3 'Backup package (as listed under a customer)'. */
export interface CustomerPackageRow {
  id: number;
  customerId: number;
  name: string;
  status: PackageStatus;
  packageQuotaSizeInBytes: number;
  /** Storage space used: the sum of its machines' last reported usage, 0 when unknown. */
  usedBytes: number;
  numberOfBackupMachines: number;
  numberOfChildCustomerPackages: number;
  storageAccount: { id: number; name: string } | null;
  backupPackageUrl: string;
  /** The billing product page of the package's service (002 §2.3's button); null without one (disabled). */
  paymentUrl: string | null;
}

/** An ACTIVE super admin or admin of the customer: a possible userIdToBeAdmin (ours). */
export interface AdminCandidate {
  id: number;
  fullName: string;
  email: string;
}

/** 001 §2, §3 'Customer (display)' as the customer account page shows it. */
export interface CustomerAccount {
  id: number;
  status: CustomerStatus;
  displayStatus: CustomerStatus;
  companyName: string;
  superAdminId: number | null;
  superAdminFullName: string | null;
  superAdminEmail: string | null;
  cpanelPluginEnabled: boolean;
  allowProviderMachineControl: boolean;
  /** A customer of the main brand (no parent reseller): the allow-provider-control option is hidden. */
  boltCustomer: boolean;
  /** The image the page shows (brandLogoUrl). */
  logo: string;
  /** Ours: the caller may edit the account (its super admin, not read-only). */
  editable: boolean;
  /** Ours (issue 18): every user of the account must use two-factor sign-in; its super admin decides. */
  requireMfa: boolean;
  /** Ours: the choices of userIdToBeAdmin. */
  adminCandidates: AdminCandidate[];
}
