import { expect, test } from '@playwright/test';
import { SIDEBARS } from '@portal/domain/testing/sidebars';
import { expectAccessible, sidebarLabels, signIn, signOut } from './helpers';

/** The sidebar of spec 002 §2.1 for each demo role, written out as the spec lists it. */
const ROLES = [
  {
    email: 'provider-admin@demo.test',
    title: 'Cloud Portal',
    sidebar: SIDEBARS.providerAdmin,
  },
  {
    email: 'reseller-admin@demo.test',
    // A reseller and its customers (Contoso) see the reseller's brand name as the page title (002 §1).
    title: 'Northwind Cloud Backup',
    sidebar: SIDEBARS.directResellerSuperAdmin,
    // Northwind is a direct customer of the provider: billing and support apply, and it owes two invoices.
    invoicesDue: 2,
  },
  {
    email: 'super-admin@demo.test',
    title: 'Northwind Cloud Backup',
    sidebar: SIDEBARS.customerSuperAdmin,
  },
  {
    email: 'customer-admin@demo.test',
    title: 'Northwind Cloud Backup',
    sidebar: SIDEBARS.customerAdmin,
  },
  {
    email: 'user@demo.test',
    title: 'Northwind Cloud Backup',
    sidebar: ['Dashboard', 'Backup Machines', 'Sign out'],
  },
];

for (const role of ROLES) {
  test(`${role.email} signs in, sees their sidebar and header, opens the profile and signs out`, async ({ page }) => {
    await signIn(page, role.email);
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle(`Dashboard · ${role.title}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expectAccessible(page);
    expect(await sidebarLabels(page)).toEqual(role.sidebar);

    const header = page.getByTestId('header');
    await expect(header.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    await expect(header.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    if ('invoicesDue' in role)
      await expect(header.getByTestId('invoices-due')).toHaveText(`Invoices due ${role.invoicesDue}`);
    else await expect(header.getByTestId('invoices-due')).toHaveCount(0);
    const fullName = ((await header.getByTestId('user-full-name').textContent()) ?? '').trim();
    expect(fullName.length).toBeGreaterThan(2);

    await header.getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    await expectAccessible(page);
    await expect(page.getByLabel('Email')).toHaveValue(role.email);
    const first = await page.getByLabel('First name').inputValue();
    const surname = await page.getByLabel('Surname').inputValue();
    expect(fullName).toBe(`${first} ${surname}`);
    // The activity list shows this very sign-in.
    await expect(page.getByRole('table', { name: 'Account activity' })).toContainText('Signed in');

    await signOut(page);
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
  });
}

test('a wrong password is refused with a message and no session', async ({ page }) => {
  await signIn(page, 'user@demo.test', 'not the password');
  await expect(page).toHaveURL(/\/login\?error$/);
  await expect(page.getByTestId('login-notice')).toHaveText('Invalid e-mail address or password.');
  // The e-mail stays for the next try; the password is cleared and has the focus.
  await expect(page.getByLabel('Email')).toHaveValue('user@demo.test');
  await expect(page.getByLabel('Password')).toHaveValue('');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
});

test('the provider admin reaches the admin area shell with its links, version and commit', async ({ page }) => {
  await signIn(page, 'provider-admin@demo.test');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Admin Area' }).click();
  await expect(page).toHaveURL(/\/boltadmin\/customers$/);
  await expect(page).toHaveTitle(/ · Cloud Portal > Admin Area$/);
  await expect(page.getByTestId('admin-area-title')).toHaveText('Cloud Portal > Admin Area');
  expect(await sidebarLabels(page, 'Admin area menu')).toEqual([
    'Leave Admin Area',
    'Customers',
    'Resellers',
    'Storage Accounts',
    'Package Requests',
    'Package Templates',
    'Task Status Overview',
    'Infrastructure',
    'Audit Trail',
    'Verification Report',
    'Sign out',
  ]);
  await expect(page.getByTestId('version')).toContainText(/Version \S+ \(\S+\)/);
  await page.getByRole('link', { name: 'Leave Admin Area' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
});

test('customers cannot open the admin area, and unknown addresses show the not-found page', async ({ page }) => {
  await signIn(page, 'super-admin@demo.test');
  const admin = await page.goto('/boltadmin/customers');
  expect(admin?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin area menu' })).toHaveCount(0);
  const missing = await page.goto('/no/such/page');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
});
