import type { AccessLevel, Actor } from './permissions.js';
import {
  isCustomerAdmin,
  isCustomerSuperAdmin,
  isCustomerUser,
  isProviderAdmin,
  isResellerAdmin,
  mayAccess,
} from './permissions.js';

/**
 * Pages the web app serves. The server answers a browser navigation to any other address with the
 * not-found page and status 404; the web router maps each key to its screen.
 */
export const PAGES = {
  dashboard: '/',
  login: '/login',
  // Two-factor sign-in (issue 18): the second step of sign-in, and the enrolment an account must do first.
  loginMfa: '/login/mfa',
  mfaEnrol: '/login/mfa/enrol',
  logout: '/logout',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  signup: '/signup',
  profile: '/profile',
  demoMails: '/demo/mails',
  // Customer administration (002 §2.5, §6): the provider's in the admin area, a reseller's own customers.
  providerCustomers: '/boltadmin/customers',
  providerResellers: '/boltadmin/resellers',
  providerCustomer: '/boltadmin/customers/{customerId}',
  resellerCustomers: '/admin/mycustomers',
  resellerCustomer: '/admin/mycustomers/{customerId}',
  // The customer's account and users (001 §2, 002 §2.4), and the read-only user pages of those who manage it.
  account: '/admin/account',
  accountUser: '/admin/account/users/{userId}',
  // Who hears about failed and missed runs (002 §2.1, issue 17): the customer super admin's own.
  notificationSettings: '/admin/notificationsettings',
  providerCustomerUser: '/boltadmin/customers/{customerId}/users/{userId}',
  resellerCustomerUser: '/admin/mycustomers/{customerId}/users/{userId}',
  // Machines and their tasks (001 §2, 002 §2.3, §2.6): a customer's own paths and each admin audience's nested ones.
  ownMachines: '/backupmachines',
  customerMachine: '/backupmachines/{machineId}',
  resellerMachine: '/admin/mycustomers/{customerId}/backuppackages/{packageId}/backupmachines/{machineId}',
  providerMachine: '/boltadmin/customers/{customerId}/backuppackages/{packageId}/backupmachines/{machineId}',
  customerTask: '/backupmachines/{machineId}/backuptasks/{taskId}',
  resellerTask:
    '/admin/mycustomers/{customerId}/backuppackages/{packageId}/backupmachines/{machineId}/backuptasks/{taskId}',
  providerTask:
    '/boltadmin/customers/{customerId}/backuppackages/{packageId}/backupmachines/{machineId}/backuptasks/{taskId}',
  // The provider's task dashboards (002 §2.6) and the whole provider's task status pies (002 §2.2).
  providerTaskOverview: '/boltadmin/backuptasks/statusoverview',
  // The desktop-app user manual (000 §1): how to install, link and use the agent.
  manual: '/manual',
  // The API reference (issue 18): the operations of the OpenAPI document.
  apiReference: '/api/reference',
  // Package templates and package requests (000 §2): the provider's in the admin area, a reseller's own.
  providerPackageTemplates: '/boltadmin/backuppackagetemplates',
  resellerPackageTemplates: '/admin/mypackagetemplates',
  providerPackageRequests: '/boltadmin/backuppackagerequests',
  resellerPackageRequests: '/admin/backuppackagerequests',
  // Backup packages (000 §2; issue 15): the customer admins' table and each audience's package page.
  customerPackages: '/admin/backuppackages',
  customerPackage: '/admin/backuppackages/{packageId}',
  resellerPackage: '/admin/mycustomers/{customerId}/backuppackages/{packageId}',
  providerPackage: '/boltadmin/customers/{customerId}/backuppackages/{packageId}',
  // A package migration's page (001 §2; issue 16).
  providerMigration: '/boltadmin/customers/{customerId}/backuppackages/{packageId}/migrations/{migrationId}',
  // Billing (issue 15): the page that sends the browser to the billing system (002 §7.2), and the
  // provider's billing host servers (001 §2).
  billingRedirect: '/billing/redirect',
  providerInfrastructure: '/boltadmin/infrastructure',
  // Storage accounts (001 §2; issue 16): the provider's list and one account's page.
  providerStorageAccounts: '/boltadmin/storageaccounts',
  providerStorageAccount: '/boltadmin/storageaccounts/{storageAccountId}',
  // A customer's storage location (001 §2, the Manage button of the customer page's table).
  providerStorageLocation: '/boltadmin/customers/{customerId}/storagelocations/{storageLocationId}',
  // Reseller settings (000 §2; issue 17): the reseller's own and the provider's view of a customer's.
  resellerSettings: '/admin/reselleradmin',
  providerResellerSettings: '/boltadmin/customers/{customerId}/resellersettings',
  // The audit trail (issue 18): the provider's of every tenant, a customer super admin's of its own.
  providerAudit: '/boltadmin/audit',
  accountAudit: '/admin/account/audit',
  // The verification report (issue 32): a customer super admin's own (a reseller's with its roll-up), reached from
  // the account page beside the audit trail; the provider's roll-up in the admin area.
  verificationReport: '/admin/account/verificationreport',
  providerVerificationReport: '/boltadmin/verificationreport',
} as const;
export type PageKey = keyof typeof PAGES;

/**
 * The web build's map of pages to the script chunks their screen loads (apps/web/route-chunks.ts), a file beside its
 * index.html: the server names them as module preloads in the page it renders, so a page's code is asked for with
 * the entry script instead of after it (issue 31, phones).
 */
export const ROUTE_CHUNKS_FILE = 'route-chunks.json';
export type RouteChunks = Partial<Record<PageKey, readonly string[]>>;

/**
 * The reads a page makes first, as paths below its own ('' the page's own path): the server names them in the page
 * it renders (a JSON list in the element EARLY_READS_ELEMENT_ID) for a signed-in user, a small classic script of the
 * web build (apps/web/early-reads.ts) starts them while the page's code is still on its way, and the page takes the
 * answers when it asks for those paths (issue 31, phones: on a slow network the task page asked for its task only once
 * the entry script had arrived and run, and for its storage only after the render with its task). The task page's
 * are the route table's `tasks.*.detail` and `tasks.*.storage` (a web test checks they are the same).
 */
export const EARLY_READS: Partial<Record<PageKey, readonly string[]>> = {
  customerTask: ['', '/storage'],
  resellerTask: ['', '/storage'],
  providerTask: ['', '/storage'],
};
export const EARLY_READS_ELEMENT_ID = 'early-reads';

/**
 * Who may open each page: the audience of the calls it makes. The server answers anyone else's navigation
 * with the not-found page and status 404, and the web router has no route for them.
 */
export const PAGE_ACCESS: Readonly<Record<PageKey, AccessLevel>> = {
  dashboard: 'signedIn',
  login: 'public',
  // The server lets only a half-signed-in session open it (and sends every other page of such a session here).
  loginMfa: 'public',
  // Every signed-in user may enrol here; one whose role requires it is sent here before anything else.
  mfaEnrol: 'signedIn',
  logout: 'public',
  forgotPassword: 'public',
  resetPassword: 'public',
  signup: 'public',
  profile: 'signedIn',
  // Every mail the demo sent, password reset links included: a way into any account, so the provider's only.
  demoMails: 'providerAdmin',
  providerCustomers: 'providerAdmin',
  providerResellers: 'providerAdmin',
  providerCustomer: 'providerAdmin',
  providerCustomerUser: 'providerAdmin',
  resellerCustomers: 'resellerAdmin',
  resellerCustomer: 'resellerAdmin',
  resellerCustomerUser: 'resellerAdmin',
  account: 'customerAdmin',
  accountUser: 'customerAdmin',
  notificationSettings: 'customerSuperAdmin',
  ownMachines: 'customerMember',
  customerMachine: 'customerMember',
  resellerMachine: 'resellerAdmin',
  providerMachine: 'providerAdmin',
  customerTask: 'customerMember',
  resellerTask: 'resellerAdmin',
  providerTask: 'providerAdmin',
  providerTaskOverview: 'providerAdmin',
  manual: 'public',
  // Like the document it lists: routes and fields, no data.
  apiReference: 'public',
  providerPackageTemplates: 'providerAdmin',
  resellerPackageTemplates: 'resellerAdmin',
  providerPackageRequests: 'providerAdmin',
  resellerPackageRequests: 'resellerAdmin',
  customerPackages: 'customerAdmin',
  customerPackage: 'customerAdmin',
  resellerPackage: 'resellerAdmin',
  providerPackage: 'providerAdmin',
  providerMigration: 'providerAdmin',
  billingRedirect: 'customerMember',
  providerInfrastructure: 'providerAdmin',
  providerStorageAccounts: 'providerAdmin',
  providerStorageAccount: 'providerAdmin',
  providerStorageLocation: 'providerAdmin',
  resellerSettings: 'resellerSuperAdmin',
  providerResellerSettings: 'providerAdmin',
  providerAudit: 'providerAdmin',
  accountAudit: 'customerSuperAdmin',
  verificationReport: 'customerSuperAdmin',
  providerVerificationReport: 'providerAdmin',
};

/** Pages a signed-out visitor may open; every other page sends them to /login. */
export const PUBLIC_PAGES: readonly PageKey[] = (Object.keys(PAGE_ACCESS) as PageKey[]).filter(
  (page) => PAGE_ACCESS[page] === 'public',
);

/** Whether a signed-in caller (or a visitor: null) may open the page. */
export const mayOpenPage = (actor: Actor | null, page: PageKey) => mayAccess(actor, PAGE_ACCESS[page]);

/** Turns a page pattern such as /a/{id}/b into a matcher. */
export function pagePatternToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((part) => (part.startsWith('{') && part.endsWith('}') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

const PAGE_MATCHERS = Object.entries(PAGES).map(([key, pattern]) => ({
  key: key as PageKey,
  re: pagePatternToRegExp(pattern),
}));

export function matchPage(pathname: string): PageKey | null {
  return PAGE_MATCHERS.find((m) => m.re.test(pathname))?.key ?? null;
}

export interface NavEntry {
  label: string;
  href: string;
}

/** The main sidebar of 002 §2.1, in its order, filtered by who is signed in. */
export function sidebarEntries(actor: Actor | null): NavEntry[] {
  if (!actor) return [];
  const entries: Array<NavEntry & { visible: boolean }> = [
    { label: 'Dashboard', href: '/', visible: true },
    { label: 'Backup Packages', href: '/admin/backuppackages', visible: isCustomerAdmin(actor) },
    { label: 'Account Settings', href: '/admin/account', visible: isCustomerAdmin(actor) },
    { label: 'Backup Machines', href: '/backupmachines', visible: isCustomerUser(actor) },
    { label: 'Notification Settings', href: PAGES.notificationSettings, visible: isCustomerSuperAdmin(actor) },
    {
      label: 'Reseller Admin',
      // The provider has no reseller settings of its own: it reaches each reseller's from the resellers list.
      href: isProviderAdmin(actor) ? PAGES.providerResellers : PAGES.resellerSettings,
      visible: (isCustomerSuperAdmin(actor) || isProviderAdmin(actor)) && actor.resellerEnabled,
    },
    { label: 'Package Templates', href: PAGES.resellerPackageTemplates, visible: isResellerAdmin(actor) },
    { label: 'Package Requests', href: PAGES.resellerPackageRequests, visible: isResellerAdmin(actor) },
    {
      label: 'Billing',
      href: billingRedirectHref('billing'),
      visible: isCustomerSuperAdmin(actor) && actor.boltCustomer,
    },
    { label: 'Support', href: billingRedirectHref('support'), visible: !isProviderAdmin(actor) && actor.boltCustomer },
    { label: 'Admin Area', href: '/boltadmin/customers', visible: isProviderAdmin(actor) },
    { label: 'Sign out', href: PAGES.logout, visible: true },
  ];
  return entries.filter((e) => e.visible).map(({ label, href }) => ({ label, href }));
}

/** The admin area sidebar of 002 §2.2 (provider admins only). */
export function adminAreaEntries(actor: Actor | null): NavEntry[] {
  if (!actor || !isProviderAdmin(actor)) return [];
  return [
    { label: 'Leave Admin Area', href: '/' },
    { label: 'Customers', href: '/boltadmin/customers' },
    { label: 'Resellers', href: '/boltadmin/resellers' },
    { label: 'Storage Accounts', href: '/boltadmin/storageaccounts' },
    { label: 'Package Requests', href: '/boltadmin/backuppackagerequests' },
    { label: 'Package Templates', href: '/boltadmin/backuppackagetemplates' },
    { label: 'Task Status Overview', href: '/boltadmin/backuptasks/statusoverview' },
    { label: 'Infrastructure', href: '/boltadmin/infrastructure' },
    { label: 'Audit Trail', href: PAGES.providerAudit },
    { label: 'Verification Report', href: PAGES.providerVerificationReport },
    { label: 'Sign out', href: PAGES.logout },
  ];
}

/** Where /billing/redirect?target= goes: billing and support (002 §7.2), mass payment ('Invoices due', 002 §2.2; 'Pay now', 000 §2). */
export const BILLING_REDIRECT_TARGETS = ['billing', 'support', 'masspay'] as const;
export type BillingRedirectTarget = (typeof BILLING_REDIRECT_TARGETS)[number];

/** Billing, support and mass payment open the billing system through the server's redirect call (002 §7.2). */
export function billingRedirectHref(target: BillingRedirectTarget): string {
  return `/billing/redirect?target=${target}`;
}

export const isAdminAreaPath = (pathname: string) => pathname === '/boltadmin' || pathname.startsWith('/boltadmin/');
