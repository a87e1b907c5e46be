import { expect, type Page, test } from '@playwright/test';
import { CUSTOMER_STATUS_TEXTS, MESSAGES, madeReseller } from '@portal/domain';
import { expectAccessible, signIn, signUpVisitor } from './helpers';

const TEXT = MESSAGES.customer;

/** A customer signed up for this journey alone: the journeys change and delete it. */
async function freshCustomer(page: Page, purpose: string) {
  const customer = await signUpVisitor(page, purpose, {
    firstName: 'Dana',
    surname: 'Scully',
    password: 'journey password 1',
  });
  return { ...customer, fullName: `${customer.firstName} ${customer.surname}` };
}

test('a provider admin finds a customer by search, suspends it and deletes it', async ({ page }) => {
  const customer = await freshCustomer(page, 'Journey Delete');
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/customers');
  await expect(page.getByTestId('admin-area-title')).toBeVisible();

  const table = page.getByRole('table', { name: TEXT.customersTitle });
  await page.getByRole('searchbox', { name: `${TEXT.searchLabel} ${TEXT.customersTitle}` }).fill(customer.companyName);
  const row = table.getByRole('row').filter({ hasText: customer.companyName });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(row.getByTestId('customer-type-badges')).toContainText('NEW SIGNUP');
  await row.getByRole('link', { name: `${TEXT.manage} ${customer.companyName}` }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText(customer.companyName);
  await expectAccessible(page);
  // A new signup cannot be deleted before it is suspended.
  await expect(page.getByRole('button', { name: TEXT.deleteButton })).toHaveCount(0);

  await page.getByRole('button', { name: TEXT.changeStatusButton }).click();
  let dialog = page.getByRole('dialog', { name: TEXT.changeStatusTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByLabel(TEXT.newStatusLabel)).toHaveValue('SUSPENDED');
  await dialog.getByRole('textbox').fill('Dana');
  await dialog.getByRole('button', { name: TEXT.changeStatusSubmit }).click();
  await expect(dialog.getByText(MESSAGES.confirmByName.customerStatusChange)).toBeVisible();
  await dialog.getByRole('textbox').fill(customer.fullName);
  await dialog.getByRole('button', { name: TEXT.changeStatusSubmit }).click();
  await expect(page.getByText(TEXT.statusUpdated)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('customer-details')).toContainText(CUSTOMER_STATUS_TEXTS.SUSPENDED);

  await page.getByRole('button', { name: TEXT.deleteButton }).click();
  dialog = page.getByRole('dialog', { name: TEXT.deleteTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('textbox').fill(customer.fullName);
  await dialog.getByRole('button', { name: TEXT.deleteSubmit }).click();
  await expect(page.getByText(TEXT.beingDeleted)).toBeVisible();
  await expect(page).toHaveURL(/\/boltadmin\/customers$/);

  await page.getByRole('searchbox', { name: `${TEXT.searchLabel} ${TEXT.customersTitle}` }).fill(customer.companyName);
  await expect(table.getByTestId('table-empty')).toHaveText(TEXT.empty);
});

test('a provider admin makes a customer a reseller, which then shows among the resellers', async ({ page }) => {
  const customer = await freshCustomer(page, 'Journey Reseller');
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/resellers');

  await page.getByRole('button', { name: TEXT.newResellerButton }).click();
  const select = page.getByRole('dialog', { name: TEXT.selectResellerTitle });
  await expect(select).toBeVisible();
  await expectAccessible(page);
  await select.getByRole('searchbox').fill(customer.companyName);
  const candidates = select.getByRole('table', { name: TEXT.selectResellerTitle });
  await expect(candidates.getByRole('row')).toHaveCount(2);
  await candidates.getByRole('button', { name: `${TEXT.select} ${customer.companyName}` }).click();

  const confirm = page.getByRole('dialog', { name: TEXT.makeResellerTitle });
  await expect(confirm).toBeVisible();
  await expectAccessible(page);
  await expect(confirm).toContainText(customer.companyName);
  await confirm.getByRole('button', { name: TEXT.makeResellerSubmit }).click();
  await expect(page.getByText(madeReseller(customer.companyName))).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const resellers = page.getByRole('table', { name: TEXT.resellersTitle });
  await page.getByRole('searchbox', { name: `${TEXT.searchLabel} ${TEXT.resellersTitle}` }).fill(customer.companyName);
  const row = resellers.getByRole('row').filter({ hasText: customer.companyName });
  await expect(row.getByTestId('customer-type-badges')).toContainText('RESELLER');
  await expect(row.getByTestId('customer-type-badges')).toHaveText(/DIRECT.*RESELLER/);

  // It is no longer offered as a new reseller.
  await page.getByRole('button', { name: TEXT.newResellerButton }).click();
  await select.getByRole('searchbox').fill(customer.companyName);
  await expect(candidates.getByTestId('table-empty')).toHaveText(TEXT.noCustomersToMakeResellers);
});

test("a reseller admin reaches their customers from the dashboard and opens one's page", async ({ page }) => {
  await signIn(page, 'reseller-admin@demo.test');
  await page.getByRole('link', { name: TEXT.myCustomersLink }).click();
  await expect(page).toHaveURL(/\/admin\/mycustomers$/);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  const table = page.getByRole('table', { name: TEXT.myCustomersTitle });
  await page.getByRole('searchbox', { name: `${TEXT.searchLabel} ${TEXT.myCustomersTitle}` }).fill('contoso');
  await table.getByRole('link', { name: `${TEXT.manage} Contoso Ltd` }).click();

  await expect(page).toHaveURL(/\/admin\/mycustomers\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contoso Ltd');
  await expectAccessible(page);
  await expect(page.getByRole('button', { name: TEXT.changeStatusButton })).toBeVisible();
  await expect(page.getByRole('button', { name: TEXT.pluginSettingsButton })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Users' }).getByText('super-admin@demo.test')).toBeVisible();
  const packages = page.getByRole('table', { name: TEXT.packagesTitle });
  await expect(packages.getByRole('link', { name: /^Manage / }).first()).toBeVisible();
  await page.getByTestId('breadcrumbs').getByRole('link', { name: TEXT.myCustomersTitle }).click();
  await expect(page).toHaveURL(/\/admin\/mycustomers$/);
});
