import { describe, expect, it } from 'vitest';
import type { Actor } from './permissions.js';
import {
  adminAreaEntries,
  isAdminAreaPath,
  matchPage,
  mayOpenPage,
  PAGES,
  type PageKey,
  PUBLIC_PAGES,
  pagePatternToRegExp,
  sidebarEntries,
} from './routes.js';
import { makeActor } from './testing/actors.js';
import { SIDEBARS } from './testing/sidebars.js';

// A customer of a reseller unless the test says otherwise.
const actor = (overrides: Partial<Actor>): Actor => makeActor({ boltCustomer: false, ...overrides });
const labels = (a: Actor | null) => sidebarEntries(a).map((e) => e.label);

describe('sidebar entries (002 §2.1)', () => {
  it('shows nothing when signed out', () => {
    expect(labels(null)).toEqual([]);
  });

  it.each<[string, Partial<Actor>, string[]]>([
    [
      'provider admin: dashboard, reseller admin, admin area',
      { role: 'ROLE_BOLT_ADMIN_USER', customerId: null, resellerEnabled: true },
      SIDEBARS.providerAdmin,
    ],
    [
      'super admin of a direct reseller customer: every customer admin entry, billing and support',
      { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: true, boltCustomer: true },
      SIDEBARS.directResellerSuperAdmin,
    ],
    [
      "super admin of a reseller's customer: no reseller admin, no billing or support",
      { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' },
      SIDEBARS.customerSuperAdmin,
    ],
    [
      "a reseller's admin: its own package templates and requests, without the reseller settings",
      { role: 'ROLE_CUSTOMER_ADMIN_USER', resellerEnabled: true },
      ['Dashboard', 'Backup Packages', 'Account Settings', 'Package Templates', 'Package Requests', 'Sign out'],
    ],
  ])('%s', (_, overrides, expected) => {
    expect(labels(actor(overrides))).toEqual(expected);
  });

  it('admin: packages and account settings, support only for direct customers', () => {
    expect(labels(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER' }))).toEqual(SIDEBARS.customerAdmin);
    expect(labels(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', boltCustomer: true }))).toContain('Support');
    expect(labels(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', boltCustomer: true }))).not.toContain('Billing');
  });

  it('plain user: backup machines', () => {
    expect(labels(actor({}))).toEqual(['Dashboard', 'Backup Machines', 'Sign out']);
    expect(labels(actor({ boltCustomer: true }))).toEqual(['Dashboard', 'Backup Machines', 'Support', 'Sign out']);
  });
});

describe('admin area entries (002 §2.2)', () => {
  it('are the provider admin links in order, for provider admins only', () => {
    const entries = adminAreaEntries(actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }));
    expect(entries.map((e) => e.href)).toEqual([
      '/',
      '/boltadmin/customers',
      '/boltadmin/resellers',
      '/boltadmin/storageaccounts',
      '/boltadmin/backuppackagerequests',
      '/boltadmin/backuppackagetemplates',
      '/boltadmin/backuptasks/statusoverview',
      '/boltadmin/infrastructure',
      '/boltadmin/audit',
      '/boltadmin/verificationreport',
      '/logout',
    ]);
    expect(entries[0]?.label).toBe('Leave Admin Area');
    expect(entries.at(-1)?.label).toBe('Sign out');
    expect(adminAreaEntries(actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }))).toEqual([]);
  });
});

describe('page matching', () => {
  it('matches known pages, with or without a trailing slash', () => {
    expect(matchPage('/')).toBe('dashboard');
    expect(matchPage('/profile')).toBe('profile');
    expect(matchPage('/profile/')).toBe('profile');
    expect(matchPage('/profiles')).toBeNull();
  });

  it('turns {param} patterns into one-segment matchers', () => {
    const re = pagePatternToRegExp('/backupmachines/{machineId}/backuptasks/{taskId}');
    expect(re.test('/backupmachines/12/backuptasks/7')).toBe(true);
    expect(re.test('/backupmachines/12/backuptasks')).toBe(false);
    expect(re.test('/backupmachines/12/x/backuptasks/7')).toBe(false);
  });

  it('knows the admin area paths', () => {
    expect(isAdminAreaPath('/boltadmin')).toBe(true);
    expect(isAdminAreaPath('/boltadmin/customers')).toBe(true);
    expect(isAdminAreaPath('/boltadministrator')).toBe(false);
  });
});

describe('who may open a page (issue #6)', () => {
  const openable = (a: Actor | null) => (Object.keys(PAGES) as PageKey[]).filter((page) => mayOpenPage(a, page)).sort();
  const everyone = [
    'login',
    'logout',
    'forgotPassword',
    'resetPassword',
    'signup',
    'manual',
    'apiReference',
    'loginMfa',
  ];
  const ownMachinePages = ['ownMachines', 'customerMachine', 'customerTask'];
  // Every member of a customer goes to billing through the redirect page (002 §7.2; the server says who has billing).
  const memberPages = [...ownMachinePages, 'billingRedirect'];
  // What anyone signed in opens: the public pages, the dashboard, the profile and the two-factor enrolment.
  const signedIn = [...everyone, 'dashboard', 'profile', 'mfaEnrol'];
  // A customer admin's own account, its users and its packages.
  const accountPages = ['account', 'accountUser', 'customerPackages', 'customerPackage'];

  it('signed out: only the public pages, which are exactly PUBLIC_PAGES', () => {
    expect(openable(null)).toEqual([...everyone].sort());
    expect([...PUBLIC_PAGES].sort()).toEqual([...everyone].sort());
  });

  it('customer user: dashboard, profile and the own machine pages', () => {
    expect(openable(actor({}))).toEqual([...signedIn, ...memberPages].sort());
  });

  it("customer admin: the account and its users; a reseller's admin also its customers", () => {
    const admin = actor({ role: 'ROLE_CUSTOMER_ADMIN_USER' });
    expect(openable(admin)).toEqual([...signedIn, ...memberPages, ...accountPages].sort());
    expect(openable({ ...admin, resellerEnabled: true })).toEqual(
      [
        ...signedIn,
        'resellerCustomers',
        'resellerCustomer',
        'resellerCustomerUser',
        'resellerPackageTemplates',
        'resellerPackageRequests',
        'resellerMachine',
        'resellerTask',
        ...memberPages,
        ...accountPages,
        'resellerPackage',
      ].sort(),
    );
  });

  it('customer super admin: the admin pages and, alone, the notification settings (002 §2.1)', () => {
    const superAdmin = actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' });
    expect(openable(superAdmin)).toEqual(
      [
        ...signedIn,
        ...memberPages,
        ...accountPages,
        'notificationSettings',
        'accountAudit',
        'verificationReport',
      ].sort(),
    );
  });

  it('provider admin: the admin area pages, no customer account', () => {
    const provider = actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, resellerEnabled: true });
    expect(openable(provider)).toEqual(
      [
        ...signedIn,
        'providerCustomers',
        'providerResellers',
        'providerCustomer',
        'providerCustomerUser',
        'providerMachine',
        'providerTask',
        'providerTaskOverview',
        'demoMails',
        'providerPackageTemplates',
        'providerPackageRequests',
        'providerPackage',
        'providerMigration',
        'providerInfrastructure',
        'providerStorageAccounts',
        'providerStorageAccount',
        'providerStorageLocation',
        'providerResellerSettings',
        'providerAudit',
        'providerVerificationReport',
      ].sort(),
    );
  });

  it("reseller settings (issue 17): the reseller's super admin only; the provider through a customer's page", () => {
    const superAdmin = actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: true });
    expect(openable(superAdmin)).toContain('resellerSettings');
    expect(openable({ ...superAdmin, resellerEnabled: false })).not.toContain('resellerSettings');
    expect(openable({ ...superAdmin, role: 'ROLE_CUSTOMER_ADMIN_USER' })).not.toContain('resellerSettings');
    const provider = actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, resellerEnabled: true });
    expect(openable(provider)).not.toContain('resellerSettings');
    // The provider's sidebar entry leads to the resellers, whose customer pages open their settings.
    expect(sidebarEntries(provider).find((e) => e.label === 'Reseller Admin')?.href).toBe(PAGES.providerResellers);
    expect(sidebarEntries(superAdmin).find((e) => e.label === 'Reseller Admin')?.href).toBe('/admin/reselleradmin');
  });
});
