import { PACKAGE_STATUSES, PAYMENT_METHODS, type PackageStatus, type PaymentMethod } from './enums.js';
import { isHostname, isWebUrl } from './forms/fields.js';
import { type AdminAudience, type Audience, idSegment, member, type Paging, withPaging, withQuery } from './paths.js';

export * from './paths.js';

/**
 * Addresses of the portal: the pages tables link to (000 §2, 001 §2, 002 §2.3) and the paths of the
 * calls of §7 of each document. Every id is checked to be a positive whole number (a RangeError
 * otherwise, so a bad id never reaches another tenant's path), every other value is URL-encoded.
 * A call the server has is not here: its path is built with its route table entry (ROUTES in api.ts);
 * the calls here are the specification's calls still to come.
 */

// --- References -------------------------------------------------------------------------------------

export interface PackageRef {
  customerId: number;
  packageId: number;
}
export interface MachineRef extends PackageRef {
  machineId: number;
}
export interface TaskRef extends MachineRef {
  taskId: number;
}
/** What a customer user's links need: the machine (and task) only. */
export interface CustomerMachineRef {
  machineId: number;
}
export interface CustomerTaskRef extends CustomerMachineRef {
  taskId: number;
}

// --- Pages (000 §2, 001 §2, 002 §2.3) ---------------------------------------------------------------

/** /boltadmin/customers/{id} (provider) or /admin/mycustomers/{id} (reseller). */
export function customerUrl(audience: AdminAudience, customerId: number): string {
  const id = idSegment(customerId, 'customerId');
  return audience === 'provider' ? `/boltadmin/customers/${id}` : `/admin/mycustomers/${id}`;
}

const adminRefOf = <R extends PackageRef>(ref: R | CustomerMachineRef | { packageId: number }): R => {
  if (!('customerId' in ref)) throw new TypeError('an admin link needs the customer id');
  return ref as R;
};

/**
 * A backup package page: {customer}/backuppackages/{packageId} for the provider and resellers (000 §2,
 * 002 §2.3); ours for a customer's own admins: /admin/backuppackages/{packageId}.
 */
export function packageUrl(audience: 'customer', ref: { packageId: number }): string;
export function packageUrl(audience: Audience, ref: PackageRef): string;
export function packageUrl(audience: Audience, ref: PackageRef | { packageId: number }): string {
  const packageId = idSegment(ref.packageId, 'packageId');
  if (audience === 'customer') return `/admin/backuppackages/${packageId}`;
  return `${customerUrl(audience, adminRefOf<PackageRef>(ref).customerId)}/backuppackages/${packageId}`;
}

/** A backup machine page (000 §2, 002 §2.3): /backupmachines/{id} for a customer user. */
export function machineUrl(audience: 'customer', ref: CustomerMachineRef): string;
export function machineUrl(audience: Audience, ref: MachineRef): string;
export function machineUrl(audience: Audience, ref: MachineRef | CustomerMachineRef): string {
  const machineId = idSegment(ref.machineId, 'machineId');
  if (audience === 'customer') return `/backupmachines/${machineId}`;
  return `${packageUrl(audience, adminRefOf<MachineRef>(ref))}/backupmachines/${machineId}`;
}

/** A backup task page: the machine page plus /backuptasks/{taskId} (000 §2, 002 §2.3). */
export function taskUrl(audience: 'customer', ref: CustomerTaskRef): string;
export function taskUrl(audience: Audience, ref: TaskRef): string;
export function taskUrl(audience: Audience, ref: TaskRef | CustomerTaskRef): string {
  const taskId = idSegment(ref.taskId, 'taskId');
  const machine =
    audience === 'customer' ? machineUrl('customer', ref) : machineUrl(audience, adminRefOf<TaskRef>(ref));
  return `${machine}/backuptasks/${taskId}`;
}

/** A machine as its record names it: its id, its customer and its package. */
export interface MachineRecordRef {
  id: number;
  customerId: number;
  backupPackageId: number;
}

/** The machine's page for the audience, from its record. */
export const machineUrlOf = (audience: Audience, machine: MachineRecordRef): string =>
  machineUrl(audience, { customerId: machine.customerId, packageId: machine.backupPackageId, machineId: machine.id });

/** The page of a task of the machine for the audience, from the machine's record. */
export const taskUrlOf = (audience: Audience, machine: MachineRecordRef, taskId: number): string =>
  taskUrl(audience, {
    customerId: machine.customerId,
    packageId: machine.backupPackageId,
    machineId: machine.id,
    taskId,
  });

/** /boltadmin/storageaccounts/{id} (000 §2, 001 §2). */
export const storageAccountUrl = (storageAccountId: number) =>
  `/boltadmin/storageaccounts/${idSegment(storageAccountId, 'storageAccountId')}`;

/** /boltadmin/customers/{customerId}/storagelocations/{storageLocationId} (001 §2). */
export const storageLocationUrl = (customerId: number, storageLocationId: number) =>
  `${customerUrl('provider', customerId)}/storagelocations/${idSegment(storageLocationId, 'storageLocationId')}`;

/** /boltadmin/customers/{customerId}/backuppackages/{packageId}/migrations/{migrationId} (001 §2). */
export const migrationUrl = (ref: PackageRef, migrationId: number) =>
  `${packageUrl('provider', ref)}/migrations/${idSegment(migrationId, 'migrationId')}`;

/** Where logout leads (001 §7). */
export const AFTER_LOGOUT_URL = '/login?logout';
export const AFTER_LOGOUT_FAILURE_URL = '/login?error';

// --- Calls of 000 §7: package templates, reseller settings, packages and requests -------------------

/** POST /boltadmin/backuppackagetemplates or /admin/mypackagetemplates. */
export const packageTemplatesPath = (audience: AdminAudience) =>
  audience === 'provider' ? '/boltadmin/backuppackagetemplates' : '/admin/mypackagetemplates';

/** PUT and DELETE of one template. */
export const packageTemplatePath = (audience: AdminAudience, templateId: number) =>
  `${packageTemplatesPath(audience)}/${idSegment(templateId, 'templateId')}`;

/** GET ...paginated, page size 5 by default (000 §7, §9). */
export const packageTemplatesPagedPath = (audience: AdminAudience, paging: Paging = { page: 0, size: 5 }) =>
  withPaging(`${packageTemplatesPath(audience)}paginated`, paging);

/** The settings sections of the PUT calls (000 §7, 002 §7.4). */
export const RESELLER_SETTINGS_SECTIONS = [
  'reselleraccountsettings',
  'resellerlookandfeelsettings',
  'reselleremailsettings',
] as const;
export type ResellerSettingsSection = (typeof RESELLER_SETTINGS_SECTIONS)[number];

/**
 * PUT of a reseller settings section (000 §7, 002 §7.4): /boltadmin/customers/{customerId}/{section}
 * when the provider edits a customer's settings, /admin/account/{section} for the caller's own.
 */
export function resellerSettingsPath(section: ResellerSettingsSection, customerId: number | null): string {
  const part = member(RESELLER_SETTINGS_SECTIONS, section, 'section');
  return customerId === null ? `/admin/account/${part}` : `${customerUrl('provider', customerId)}/${part}`;
}

/**
 * The approve and decline calls of a package request. The specification reads them from the request
 * (approveUrl, declineUrl); these are the paths our server hands out (ours).
 */
export const packageRequestApprovePath = (audience: AdminAudience, requestId: number) =>
  `${audience === 'provider' ? '/boltadmin' : '/admin'}/backuppackagerequests/${idSegment(requestId, 'requestId')}/approve`;
export const packageRequestDeclinePath = (audience: AdminAudience, requestId: number) =>
  `${audience === 'provider' ? '/boltadmin' : '/admin'}/backuppackagerequests/${idSegment(requestId, 'requestId')}/decline`;

/** GET /boltadmin/backuppackagerequestspaginated or /admin/backuppackagerequestspaginated. */
export const packageRequestsPagedPath = (audience: AdminAudience, paging: Paging = { page: 0, size: 5 }) =>
  withPaging(`${audience === 'provider' ? '/boltadmin' : '/admin'}/backuppackagerequestspaginated`, paging);

/** POST /admin/backuppackages (purchase). */
export const PACKAGE_PURCHASE_PATH = '/admin/backuppackages';

/** PUT /admin/backuppackages/{id} (edit). */
export const packageEditPath = (packageId: number) => `${PACKAGE_PURCHASE_PATH}/${idSegment(packageId, 'packageId')}`;

/** PUT /admin/backuppackages/{id}/upgrade. */
export const packageUpgradePath = (packageId: number) => `${packageEditPath(packageId)}/upgrade`;

/** GET /backuppackages/{id}/storage. */
export const packageStoragePath = (packageId: number) => `/backuppackages/${idSegment(packageId, 'packageId')}/storage`;

/** The package path of delete and status change: /boltadmin/backuppackages/{id} or the reseller's. */
function packageActionBase(audience: AdminAudience, customerId: number, packageId: number): string {
  return audience === 'provider'
    ? `/boltadmin/backuppackages/${idSegment(packageId, 'packageId')}`
    : `${customerUrl('reseller', customerId)}/backuppackages/${idSegment(packageId, 'packageId')}`;
}

/**
 * PUT .../backuppackages/{id}?delete=true (000 §7): /admin/mycustomers/{customerId}/... for a reseller,
 * /boltadmin/backuppackages/{id} for the provider (the customer id is then not part of the path).
 */
export const packageDeletePath = (audience: AdminAudience, customerId: number, packageId: number) =>
  withQuery(packageActionBase(audience, customerId, packageId), { delete: true });

/** PUT .../backuppackages/{id}?status={newStatus} (000 §7) on the same two bases. */
export const packageStatusChangePath = (
  audience: AdminAudience,
  customerId: number,
  packageId: number,
  status: PackageStatus,
) => `${packageActionBase(audience, customerId, packageId)}?status=${member(PACKAGE_STATUSES, status, 'status')}`;

// --- Calls of 001 §7: machines, account, storage, migrations, restic, users, live channel ---------

/** GET /boltadmin/storageaccountspaginated (5 per page, 001 §9). */
export const storageAccountsPagedPath = (paging: Paging = { page: 0, size: 5 }) =>
  withPaging('/boltadmin/storageaccountspaginated', paging);

/** GET /boltadmin/storageaccounts/setDefaultStorageAccount?storageAccountId={id}. */
export const setDefaultStorageAccountPath = (storageAccountId: number) =>
  `/boltadmin/storageaccounts/setDefaultStorageAccount?storageAccountId=${idSegment(storageAccountId, 'storageAccountId')}`;

/** GET /boltadmin/storageaccounts/{id}/bucketswithpolicyinfo. */
export const bucketsWithPolicyInfoPath = (storageAccountId: number) =>
  `${storageAccountUrl(storageAccountId)}/bucketswithpolicyinfo`;

/** GET /boltadmin/storageaccounts/{id}/users. */
export const storageAccountUsersPath = (storageAccountId: number) => `${storageAccountUrl(storageAccountId)}/users`;

/** GET /boltadmin/storageaccounts/{id}/accesskeys. */
export const storageAccountAccessKeysPath = (storageAccountId: number) =>
  `${storageAccountUrl(storageAccountId)}/accesskeys`;

/** PUT /boltadmin/storageaccounts/{id}/deleteuser (body username). */
export const storageUserDeletePath = (storageAccountId: number) => `${storageAccountUrl(storageAccountId)}/deleteuser`;

/** PUT /boltadmin/storageaccounts/{id}/deletebucketpolicyprincipal (body bucketName, principalName). */
export const bucketPolicyPrincipalDeletePath = (storageAccountId: number) =>
  `${storageAccountUrl(storageAccountId)}/deletebucketpolicyprincipal`;

/** POST /boltadmin/storageaccounts/{id}/migrations (body destinationStorageAccountId). */
export const storageAccountMigrationPath = (storageAccountId: number) =>
  `${storageAccountUrl(storageAccountId)}/migrations`;

/** POST /boltadmin/customers/{customerId}/storagelocations (body storageAccountId). */
export const storageLocationsPath = (customerId: number) => `${customerUrl('provider', customerId)}/storagelocations`;

/** DELETE /boltadmin/customers/{customerId}/storagelocations/{id}. */
export const storageLocationPath = (customerId: number, storageLocationId: number) =>
  storageLocationUrl(customerId, storageLocationId);

/** PUT /boltadmin/customers/{customerId}/storagelocations/{id}/makedefault. */
export const storageLocationMakeDefaultPath = (customerId: number, storageLocationId: number) =>
  `${storageLocationUrl(customerId, storageLocationId)}/makedefault`;

/** POST (body destinationStorageLocationId) and GET of /boltadmin/customers/{c}/backuppackages/{p}/migrations. */
export const packageMigrationsPath = (ref: PackageRef) => `${packageUrl('provider', ref)}/migrations`;

/** PUT .../migrations/{migrationId}/cancel. */
export const migrationCancelPath = (ref: PackageRef, migrationId: number) => `${migrationUrl(ref, migrationId)}/cancel`;

/** PUT .../migrations/{migrationId}/rollback. */
export const migrationRollbackPath = (ref: PackageRef, migrationId: number) =>
  `${migrationUrl(ref, migrationId)}/rollback`;

/** PUT .../migrations/{migrationId}/commandsequences (body requestId, type). */
export const migrationCommandSequencesPath = (ref: PackageRef, migrationId: number) =>
  `${migrationUrl(ref, migrationId)}/commandsequences`;

/** PUT .../commandsequences/stop and /delete (body commandId). */
export const migrationCommandSequenceStopPath = (ref: PackageRef, migrationId: number) =>
  `${migrationCommandSequencesPath(ref, migrationId)}/stop`;
export const migrationCommandSequenceDeletePath = (ref: PackageRef, migrationId: number) =>
  `${migrationCommandSequencesPath(ref, migrationId)}/delete`;

/** Send prefixes of the live channel (001 §7). */
export const WS_SEND_PREFIXES = {
  customer: '/ws/inbound',
  provider: '/ws/inbound/boltadmin',
} as const;

/** /ws/queue/backupmachines/{id} (customer side) or /ws/queue/boltadmin/backupmachines/{id}. */
export const machineQueue = (side: 'customer' | 'provider', machineId: number) =>
  `/ws/queue/${side === 'provider' ? 'boltadmin/' : ''}backupmachines/${idSegment(machineId, 'machineId')}`;

/**
 * Ours (DESIGN §5 leaves the dashboard's live updates open): a topic per side on which the server says
 * which machines' dashboard rows changed (a run started or finished, a task or presence changed).
 */
export const DASHBOARD_TOPICS = {
  customer: '/ws/topic/dashboard',
  provider: '/ws/topic/boltadmin/dashboard',
} as const;

/** /ws/queue/boltadmin/migrations/{id}. */
export const migrationQueue = (migrationId: number) =>
  `/ws/queue/boltadmin/migrations/${idSegment(migrationId, 'migrationId')}`;

// --- Calls of 002 §7: users of a customer, billing, customers, task actions, downloads, tasks -------

/**
 * The billing system page to open (002 §7.2): invoices for billing, tickets for support; a=1 for a
 * customer super admin, 0 otherwise.
 */
export function billingTarget(target: 'billing' | 'support', superAdmin: boolean): string {
  const a = superAdmin ? 1 : 0;
  return target === 'billing' ? `clientarea.php?action=invoices&a=${a}` : `supporttickets.php?a=${a}`;
}

/** GET /billing/info?goToUrl={encoded} (002 §7.2). */
export const billingInfoPath = (goToUrl: string) => withQuery('/billing/info', { goToUrl });

/** PUT /boltadmin/customers/{id}?whmcsServerId={id}&paymentMethod={method}. */
export const customerBillingServerChangePath = (
  customerId: number,
  whmcsServerId: number,
  paymentMethod: PaymentMethod,
) =>
  `${customerUrl('provider', customerId)}?whmcsServerId=${idSegment(whmcsServerId, 'whmcsServerId')}&paymentMethod=${member(PAYMENT_METHODS, paymentMethod, 'paymentMethod')}`;

/** Task commands of the live channel (002 §7.8); 'udpatetaskstatus' is spelled as in the product. */
export const MACHINE_CHANNEL_COMMANDS = [
  'newtask',
  'edittask',
  'starttask',
  'udpatetaskstatus',
  'deletetask',
  'localtreeitems',
] as const;
export type MachineChannelCommand = (typeof MACHINE_CHANNEL_COMMANDS)[number];

/** /backupmachines/{backupMachineId}/{command}, sent under the channel's send prefix (002 §7.8). */
export const machineChannelDestination = (machineId: number, command: MachineChannelCommand) =>
  `${machineUrl('customer', { machineId })}/${member(MACHINE_CHANNEL_COMMANDS, command, 'command')}`;

/** 002 §8.3, §9: a browser waits this long for the reply to a channel command or tree request. */
export const CHANNEL_REPLY_TIMEOUT_MS = 20_000;

/**
 * A reseller's own portal address from its customUrl (000 §1, §5): a host name means https on that host, a URL
 * its origin (ours). Answers null for a value that is neither, so nothing unchecked becomes a link.
 */
export function resellerPortalOrigin(customUrl: string | null | undefined): string | null {
  const value = customUrl?.trim();
  if (!value) return null;
  if (isHostname(value)) return `https://${value.toLowerCase()}`;
  if (!isWebUrl(value)) return null;
  return new URL(value).origin;
}

/** The host name a reseller's customers reach the portal on (what a request's Host header is matched with). */
export function resellerPortalHost(customUrl: string | null | undefined): string | null {
  const origin = resellerPortalOrigin(customUrl);
  return origin === null ? null : new URL(origin).hostname;
}

/**
 * The host name of a request's Host header, as resellerPortalHost gives it: lower case, the port and a
 * trailing dot dropped. Null for anything that is not a host name (an IP address literal in brackets, junk),
 * so only a real host name is ever looked up.
 */
export function requestHostName(hostHeader: string | null | undefined): string | null {
  const value = hostHeader?.trim().toLowerCase();
  if (!value || value.startsWith('[')) return null;
  const host = value.replace(/:\d{1,5}$/, '').replace(/\.$/, '');
  return isHostname(host) ? host : null;
}
