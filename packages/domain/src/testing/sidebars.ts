/** Test-only: the sidebar of 002 §2.1 as each kind of signed-in person sees it, written out as the spec lists it. */
export const SIDEBARS = {
  providerAdmin: ['Dashboard', 'Reseller Admin', 'Admin Area', 'Sign out'],
  /**
   * The super admin of a direct customer with reseller rights: every customer admin entry, ours of issue 15 (its own
   * package templates and its customers' package requests), billing and support.
   */
  directResellerSuperAdmin: [
    'Dashboard',
    'Backup Packages',
    'Account Settings',
    'Notification Settings',
    'Reseller Admin',
    'Package Templates',
    'Package Requests',
    'Billing',
    'Support',
    'Sign out',
  ],
  /** The super admin of a reseller's customer: no reseller admin, no billing or support. */
  customerSuperAdmin: ['Dashboard', 'Backup Packages', 'Account Settings', 'Notification Settings', 'Sign out'],
  /** An admin of a reseller's customer. */
  customerAdmin: ['Dashboard', 'Backup Packages', 'Account Settings', 'Sign out'],
};
