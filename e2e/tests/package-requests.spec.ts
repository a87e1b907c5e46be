import { expect, test } from '@playwright/test';
import { CUSTOMER_STATUS_TEXTS, MESSAGES, PACKAGE_LABELS, PACKAGE_STATUS_TEXTS } from '@portal/domain';
import { expectAccessible, pendingRequestRow, signIn, signOut, signUpVisitor } from './helpers';

/**
 * Package requests (issue 15, 000 §2, §4, §7): a new customer signs up, the provider approves its request
 * with a storage account, and the customer is active with an APPROVED first package.
 */

const TEXT = MESSAGES.packageRequest;
const CUSTOMER = MESSAGES.customer;

test('the provider approves a sign-up with a storage account and the customer becomes active', async ({ page }) => {
  const visitor = await signUpVisitor(page, 'Approval Journey', {
    firstName: 'Alex',
    surname: 'Approved',
    password: 'approval password 1',
  });

  await signIn(page, 'provider-admin@demo.test');
  const row = await pendingRequestRow(page, visitor.companyName);
  const table = page.getByRole('table', { name: TEXT.tableLabel });
  await expect(row).toContainText('New signup');
  await expect(row).toContainText(visitor.email);

  await row.getByRole('button', { name: `${TEXT.approve} ${visitor.companyName}` }).click();
  const dialog = page.getByRole('dialog', { name: TEXT.approveTitle });
  const items = dialog.getByLabel(PACKAGE_LABELS.storageItemId);
  await expect(items.locator('option', { hasText: 'Embedded storage (Unlimited)' })).toHaveCount(1);
  await items.selectOption({ label: 'Embedded storage (Unlimited)' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: TEXT.approve }).click();
  await expect(page.getByText(TEXT.approved)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: visitor.companyName })).toHaveCount(0);

  // The provider's customers page shows it ACTIVE, no longer a new signup.
  await page.goto('/boltadmin/customers');
  await page
    .getByRole('searchbox', { name: `${CUSTOMER.searchLabel} ${CUSTOMER.customersTitle}` })
    .fill(visitor.companyName);
  const customers = page.getByRole('table', { name: CUSTOMER.customersTitle });
  await expect(customers.getByRole('row')).toHaveCount(2);
  const customer = customers.getByRole('row').filter({ hasText: visitor.companyName });
  await expect(customer).toContainText(CUSTOMER_STATUS_TEXTS.ACTIVE);
  await expect(customer.getByTestId('customer-type-badges')).not.toContainText('NEW SIGNUP');
  await signOut(page);

  // Its super admin sees the first package, APPROVED, on their own user page.
  await signIn(page, visitor.email, visitor.password);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Account Settings' }).click();
  const users = page.getByRole('table', { name: MESSAGES.user.tableLabel });
  await users
    .getByRole('row')
    .filter({ hasText: visitor.email })
    .getByRole('link', { name: new RegExp(`${visitor.firstName} ${visitor.surname}`) })
    .click();
  const packages = page.getByRole('table', { name: MESSAGES.user.packagesTitle });
  await expect(packages.getByRole('row').nth(1)).toContainText(PACKAGE_STATUS_TEXTS.APPROVED);

  // The approval turned the sign-up's requested package into the approved one: one package, no stuck 'Requested'.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Backup Packages' }).click();
  const own = page.getByTestId('packages-table');
  await expect(own.getByRole('row')).toHaveCount(2);
  await expect(own.getByRole('row').nth(1)).toContainText(PACKAGE_STATUS_TEXTS.APPROVED);
  await expect(own).not.toContainText(PACKAGE_STATUS_TEXTS.REQUESTED);
});
