import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import {
  AUDIT_TEXTS,
  auditKindName,
  CSRF_HEADER_NAME,
  type CustomerRow,
  type Paged,
  ROUTES,
  withQuery,
} from '@portal/domain';
import { csvRows, expectAccessible, jsonResult, signIn } from './helpers';

/**
 * The audit trail (issue 18): a provider admin's change to a customer is on /boltadmin/audit, found by kind and
 * person and exported as CSV; the customer's super admin sees it, and its own sign-in, on its account's trail;
 * the customer's reseller sees that sign-in on its own account's trail, narrowed to the customer.
 */

const PROVIDER = 'provider-admin@demo.test';
const SUPER_ADMIN = 'super-admin@demo.test';
const KIND = 'customers.plugins';
const L = AUDIT_TEXTS.labels;

/** Saves the customer's cPanel plugin setting unchanged: a recorded change that leaves the demo as it was. */
async function saveCustomerPlugins(page: Page): Promise<{ id: number; name: string }> {
  const list = await jsonResult<Paged<CustomerRow>>(
    page,
    withQuery(ROUTES.customers.lists.customers.path, { search: SUPER_ADMIN, page: 0, size: 10 }),
  );
  const customer = list.elements[0];
  if (!customer) throw new Error(`no customer of ${SUPER_ADMIN}`);
  const csrf = (await page.locator('meta[name="_csrf"]').getAttribute('content')) ?? '';
  const answer = await page.request.put(ROUTES.customers.plugins.build({ customerId: customer.id }), {
    headers: { [CSRF_HEADER_NAME]: csrf, accept: 'application/json' },
    data: { cpanelPluginEnabled: customer.cpanelPluginEnabled },
  });
  expect(answer.status()).toBe(200);
  return { id: customer.id, name: customer.displayName };
}

test('a provider admin finds its change on the audit trail and exports it; the customer super admin sees it too', async ({
  page,
  browser,
}) => {
  await signIn(page, PROVIDER);
  await page.goto('/boltadmin/customers');
  const customer = await saveCustomerPlugins(page);
  const customerId = customer.id;
  // How the trail names the customer and the kind: by name and id, by the kind's label (never a route key).
  const tenantText = `${customer.name} (id ${customerId})`;
  const subjectText = `Customer: ${tenantText}`;
  const kindLabel = auditKindName(KIND);
  expect(kindLabel).toBe('Customer plugin settings changed');

  await page.getByRole('navigation', { name: 'Admin area menu' }).getByRole('link', { name: 'Audit Trail' }).click();
  await expect(page).toHaveURL(/\/boltadmin\/audit$/);
  await expect(page.getByRole('heading', { level: 1, name: AUDIT_TEXTS.providerTitle })).toBeVisible();
  await expectAccessible(page);

  const filter = page.getByTestId('audit-filter');
  // The kinds come grouped by area, each under its heading.
  const kinds = filter.getByLabel(L.kind);
  await expect(kinds.locator('optgroup[label="Customers and resellers"] > option', { hasText: kindLabel })).toHaveCount(
    1,
  );
  await expect(kinds.locator('optgroup[label="Billing"] > option', { hasText: 'Billing server changed' })).toHaveCount(
    1,
  );
  await kinds.selectOption({ label: kindLabel });
  await filter.getByLabel(L.email).fill(PROVIDER);
  await filter.getByRole('button', { name: AUDIT_TEXTS.apply }).click();
  const table = page.getByTestId('audit-table');
  const rows = table.locator('tbody tr');
  // Every row shown is of the kind and person filtered (retried: the previous page stays up while the next loads).
  await expect(rows.filter({ hasNotText: kindLabel })).toHaveCount(0);
  await expect(rows.filter({ hasNotText: PROVIDER })).toHaveCount(0);
  await expect(rows.first()).toContainText(kindLabel);
  await expect(rows.first()).toContainText(PROVIDER);
  await expect(rows.first().getByRole('cell', { name: subjectText, exact: true })).toBeVisible();
  await expect(rows.first().getByRole('cell', { name: tenantText, exact: true })).toBeVisible();
  await expect(rows.first()).not.toContainText(KIND);
  await expect(rows.first()).toContainText('Succeeded (200)');
  // The filter is in the address: a reload (or a shared link) shows the same filtered trail; Back the whole trail.
  await expect(page).toHaveURL(/\/boltadmin\/audit\?.*kind=/);
  await page.reload();
  await expect(filter.getByLabel(L.email)).toHaveValue(PROVIDER);
  await expect(filter.getByLabel(L.kind)).toHaveValue(KIND);
  await expect(rows.first()).toContainText(kindLabel);
  await expect(rows.filter({ hasNotText: PROVIDER })).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/boltadmin\/audit$/);
  await expect(filter.getByLabel(L.email)).toHaveValue('');
  await page.goForward();
  await expect(filter.getByLabel(L.email)).toHaveValue(PROVIDER);
  await expect(rows.filter({ hasNotText: PROVIDER })).toHaveCount(0);

  const downloading = page.waitForEvent('download');
  await page.getByTestId('audit-export').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = csvRows(readFileSync((await download.path()) ?? '', 'utf8'));
  const header = csv[0] ?? [];
  expect(header.slice(0, 4)).toEqual(['Id', 'Time', 'Event', 'Outcome']);
  const records = csv.slice(1);
  expect(records.length).toBeGreaterThan(0);
  const column = (name: string) => header.indexOf(name);
  for (const record of records) {
    expect(record[column('Event')]).toBe(kindLabel);
    expect(record[column('E-mail')]).toBe(PROVIDER);
  }
  expect(records[0]?.[column('Tenant')]).toBe(tenantText);
  expect(records[0]?.[column('Outcome')]).toBe('Succeeded');
  expect(records[0]?.[column('Subject')]).toBe(subjectText);

  // The customer's super admin: its account's trail, the provider's change to it and its own sign-in.
  const context = await browser.newContext();
  const customerPage = await context.newPage();
  await signIn(customerPage, SUPER_ADMIN);
  await customerPage
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Account Settings' })
    .click();
  await customerPage.getByTestId('account-audit-link').click();
  await expect(customerPage).toHaveURL(/\/admin\/account\/audit$/);
  await expect(customerPage.getByRole('heading', { level: 1, name: AUDIT_TEXTS.accountTitle })).toBeVisible();
  await expectAccessible(customerPage);
  const own = customerPage.getByTestId('audit-table').locator('tbody tr');
  await expect(own.filter({ hasText: 'Signed in' }).filter({ hasText: SUPER_ADMIN }).first()).toBeVisible();
  const accountFilter = customerPage.getByTestId('audit-filter');
  await expect(accountFilter.getByLabel(L.customerId)).toHaveCount(0);
  // Its kinds: what its trail can hold, grouped; none of the provider's own (its billing servers, say).
  const accountKinds = accountFilter.getByLabel(L.kind);
  await expect(accountKinds.locator('optgroup[label="Users"] > option', { hasText: 'User added' })).toHaveCount(1);
  await expect(accountKinds.getByRole('option', { name: 'Billing server changed', exact: true })).toHaveCount(0);
  await expect(accountKinds.getByRole('option', { name: 'Storage account added', exact: true })).toHaveCount(0);
  await accountKinds.selectOption({ label: kindLabel });
  await accountFilter.getByRole('button', { name: AUDIT_TEXTS.apply }).click();
  await expect(own.first()).toContainText(PROVIDER);
  await expect(own.first().getByRole('cell', { name: subjectText, exact: true })).toBeVisible();
  await context.close();

  // Northwind, the reseller of Contoso: its account's trail holds its customers' records too, told apart by tenant.
  const resellerContext = await browser.newContext();
  const resellerPage = await resellerContext.newPage();
  await signIn(resellerPage, 'reseller-admin@demo.test');
  await resellerPage.goto('/admin/account/audit');
  await expect(resellerPage.getByText(AUDIT_TEXTS.resellerSubtitle)).toBeVisible();
  const resellerFilter = resellerPage.getByTestId('audit-filter');
  await resellerFilter.getByLabel(L.customerId).fill(String(customerId));
  await resellerFilter.getByLabel(L.email).fill(SUPER_ADMIN);
  await resellerFilter.getByRole('button', { name: AUDIT_TEXTS.apply }).click();
  const resellerRows = resellerPage.getByTestId('audit-table').locator('tbody tr');
  // Retried until the filtered page replaces the unfiltered one (the reseller's own sign-in is on that too).
  await expect(resellerRows.filter({ hasNotText: SUPER_ADMIN })).toHaveCount(0);
  await expect(resellerRows.filter({ hasText: 'Signed in' }).first()).toBeVisible();
  await expect(
    resellerPage.getByTestId('audit-table').getByRole('columnheader', { name: AUDIT_TEXTS.columns.tenant }),
  ).toBeVisible();
  await resellerContext.close();
});
