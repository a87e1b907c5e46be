import { expect, test } from '@playwright/test';
import {
  BILLING_SERVER_LABELS,
  billingConnectionSucceeded,
  billingRedirectHref,
  INVOICES_DUE_LABEL,
  MESSAGES,
  secretForNewAddress,
} from '@portal/domain';
import { DEMO_WHMCS_PORT } from '../playwright.config';
import { expectAccessible, signIn } from './helpers';

const TEXT = MESSAGES.billing;
const L = BILLING_SERVER_LABELS;

test('the provider adds a billing server for the running WHMCS, tests its connection and edits it', async ({
  page,
}) => {
  const description = `Journey billing ${Date.now()}`;
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/infrastructure');
  const table = page.getByRole('table', { name: TEXT.serversTitle });
  await expect(table.getByRole('row').filter({ hasText: 'WHMCS billing (demo simulator)' })).toBeVisible();

  await page.getByTestId('add-billing-server').click();
  const dialog = page.getByRole('dialog', { name: TEXT.addServer });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(L.description).fill(description);
  await dialog.getByLabel(L.region).fill('eu');
  await dialog.getByLabel(L.whmcsHost).fill('127.0.0.1');
  await dialog.getByLabel(L.whmcsPort).fill(String(DEMO_WHMCS_PORT));
  await dialog.getByLabel(L.whmcsIdentifier).fill('demo-portal-api');
  await dialog.getByLabel(L.whmcsSecret, { exact: true }).fill('demo-whmcs-secret');
  await dialog.getByRole('button', { name: TEXT.testConnection }).click();
  await expect(page.getByText(billingConnectionSucceeded('8.13.1'))).toBeVisible();
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText(TEXT.serverAdded)).toBeVisible();

  const row = table.getByRole('row').filter({ hasText: description });
  await expect(row).toContainText(TEXT.configured);
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: TEXT.editServer });
  // The stored secret is never shown; left empty it is kept.
  await expect(edit).toBeVisible();
  await expectAccessible(page);
  await expect(edit.getByLabel(L.whmcsSecret, { exact: true })).toHaveValue('');
  // Pointed at another host, the stored secret stays home: the secret field asks for it (issue 29).
  await edit.getByLabel(L.whmcsHost).fill('localhost');
  await edit.getByRole('button', { name: TEXT.testConnection }).click();
  const secretField = edit.getByLabel(L.whmcsSecret, { exact: true });
  await expect(secretField).toHaveClass(/is-invalid/);
  await expect(edit.getByText(secretForNewAddress(L.whmcsSecret))).toBeVisible();
  await edit.getByLabel(L.whmcsHost).fill('127.0.0.1');
  await edit.getByLabel(L.description).fill(`${description} edited`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(TEXT.serverUpdated)).toBeVisible();
  const edited = table.getByRole('row').filter({ hasText: `${description} edited` });
  await edited.getByRole('button', { name: TEXT.testConnection }).click();
  await expect(page.getByText(billingConnectionSucceeded('8.13.1')).first()).toBeVisible();
});

test("a direct customer's super admin pays the invoices due with Pay now and comes back signed in", async ({
  page,
}) => {
  await signIn(page, 'direct-admin@demo.test');
  const badge = page.getByTestId('invoices-due');
  await expect(badge).toContainText(INVOICES_DUE_LABEL);
  await expect(badge).toContainText('1');
  await expect(badge).toHaveAttribute('href', billingRedirectHref('masspay'));

  // 'Pay now' on the Backup Packages page (000 §2, §7) goes to the billing system's mass payment page.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Backup Packages' }).click();
  // Each table under its heading; the templates on offer by plain name and price, nothing 'Not available'.
  for (const heading of [
    MESSAGES.packagePages.myPackagesTitle,
    MESSAGES.packageRequest.myTableLabel,
    MESSAGES.purchase.templatesTitle,
  ]) {
    await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
  }
  const onOffer = page.getByTestId('package-templates-on-offer');
  await expect(onOffer.getByRole('row').nth(1)).toContainText('USD');
  await expect(onOffer).not.toContainText('default:');
  await expect(onOffer).not.toContainText('Not available');
  await page.getByRole('link', { name: TEXT.payNow }).click();

  // Signed in to the billing system by single sign-on, on its mass-pay page.
  await expect(page).toHaveURL(new RegExp(`127\\.0\\.0\\.1:${DEMO_WHMCS_PORT}/clientarea\\.php\\?action=masspay`));
  await expect(page.getByRole('heading', { name: 'Mass payment' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay all' }).click();
  await expect(page.getByText('All invoices are paid.')).toBeVisible();

  // The way back lands in the portal with the session kept (PUBLIC_URL is the host the browser signed in on).
  await page.getByRole('link', { name: 'Back to the portal' }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByTestId('user-full-name')).toBeVisible();
  await expect(page.getByTestId('invoices-due')).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Backup Packages' }).click();
  await expect(page.getByTestId('packages-table')).toBeVisible();
  await expect(page.getByRole('link', { name: TEXT.payNow })).toHaveCount(0);
});
