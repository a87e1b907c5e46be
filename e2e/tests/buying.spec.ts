import { expect, type Page, test } from '@playwright/test';
import {
  CHANGE_REQUESTED_BADGE,
  formatMegabytes,
  MESSAGES,
  megabytesToBytes,
  PACKAGE_REQUEST_STATUS_TEXTS,
  PACKAGE_REQUEST_TYPE_TEXTS,
  type PackageRequestType,
  type PackageRow,
  type Paged,
  packageMachinesText,
  packageStatusBadge,
  type TemplatesOnOffer,
} from '@portal/domain';
import { DEMO_WHMCS_PORT } from '../playwright.config';
import { expectAccessible, jsonResult, signIn, signOut } from './helpers';

/**
 * Buying backup (issue 15, 000 §4-§7) in a real browser: a direct customer's super admin buys a package and
 * pays its invoice in the demo's WHMCS-compatible server, and asks for an upgrade that the provider approves.
 */

const TEXT = MESSAGES.packagePages;
const BUY = MESSAGES.purchase;
const DIRECT_ADMIN = 'direct-admin@demo.test';
const DIRECT_CUSTOMER = 'Adatum Corporation';
/** The packages page checks the billing system for paid invoices at most every 5 s per customer. */
const PAID_CHECK_BOUND_MS = 30_000;

async function openPackages(page: Page) {
  await page.goto('/admin/backuppackages');
  await expect(page.getByRole('heading', { level: 1, name: TEXT.title })).toBeVisible();
  await expectAccessible(page);
  return page.getByTestId('packages-table');
}

/** Chooses a template in the open purchase or upgrade dialog and submits it. */
async function chooseTemplate(page: Page, title: string, submit: string, template: string) {
  const dialog = page.getByRole('dialog', { name: title });
  const select = dialog.getByLabel(BUY.templateLabel);
  await expect(select.locator('option', { hasText: template })).toHaveCount(1);
  await select.selectOption({ label: template });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: submit }).click();
}

/** The browser is on the billing system's page of an unpaid invoice for `description`. */
async function expectUnpaidInvoice(page: Page, description: string) {
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${DEMO_WHMCS_PORT}/viewinvoice\\.php\\?id=\\d+$`));
  const invoiceId = new URL(page.url()).searchParams.get('id') ?? '';
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Invoice #${invoiceId}`);
  await expectAccessible(page);
  await expect(page.getByText('Status: Unpaid')).toBeVisible();
  await expect(page.getByText(description, { exact: true })).toBeVisible();
}

/** The customer's own request of `type` for `template`, in the table under its packages. */
const myRequest = (page: Page, type: PackageRequestType, template: string) =>
  page
    .getByRole('table', { name: MESSAGES.packageRequest.myTableLabel })
    .getByRole('row')
    .filter({ hasText: PACKAGE_REQUEST_TYPE_TEXTS[type] })
    .filter({ hasText: template });

test('a direct customer buys a package, pays its invoice, and initializes the approved package', async ({ page }) => {
  const name = `Journey bought ${Date.now().toString(36)}`;
  await signIn(page, DIRECT_ADMIN);
  await expect(page.getByTestId('user-full-name')).toBeVisible();
  const owned = await jsonResult<Paged<PackageRow>>(page, '/admin/backuppackages?size=50');
  const offer = await jsonResult<TemplatesOnOffer>(page, '/admin/packagetemplates');
  // A template none of the customer's packages is named after, so the new row is the one of that name.
  const template = offer.elements.find((t) => !owned.elements.some((p) => p.name === t.name));
  if (!template) throw new Error('every template on offer names a package of the customer');

  const table = await openPackages(page);
  await page.getByRole('button', { name: BUY.purchaseButton, exact: true }).click();
  await chooseTemplate(page, BUY.purchaseTitle, BUY.purchaseSubmit, template.name);

  // Signed in to the billing system by single sign-on, on the new order's invoice.
  await expectUnpaidInvoice(page, `${template.name} (monthly)`);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByText('Status: Paid')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay' })).toHaveCount(0);

  // Back in the portal the paid invoice approves the request, once the page has asked the billing system.
  await openPackages(page);
  const bought = table.getByRole('row').filter({ hasText: template.name });
  await expect(async () => {
    await page.reload();
    await expect(bought).toContainText(packageStatusBadge('APPROVED').text, { timeout: 2_000 });
  }).toPass({ timeout: PAID_CHECK_BOUND_MS });
  await expect(myRequest(page, 'ADDITIONAL_PACKAGE', template.name)).toContainText(
    PACKAGE_REQUEST_STATUS_TEXTS.APPROVED,
  );

  await bought.getByRole('button', { name: `${TEXT.initialize} ${template.name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: TEXT.initializeTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue(template.name);
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('button', { name: TEXT.initialize }).click();
  await expect(page.getByText(TEXT.initialized)).toBeVisible();
  await expect(dialog).toBeHidden();
  const active = table.getByRole('row').filter({ hasText: name });
  await expect(active).toContainText(packageStatusBadge('ACTIVE').text);
  await expect(active.getByRole('button', { name: `${TEXT.initialize} ${name}` })).toHaveCount(0);
  await expect(active.getByTestId('usage-label')).toContainText(`of ${formatMegabytes(template.storageQuota)}`);
});

test('a change request of an active package, approved by the provider, gives the package its new quota', async ({
  page,
}) => {
  await signIn(page, DIRECT_ADMIN);
  await expect(page.getByTestId('user-full-name')).toBeVisible();
  const owned = await jsonResult<Paged<PackageRow>>(page, '/admin/backuppackages?size=50');
  const pkg = owned.elements.find((p) => p.manageable && p.status === 'ACTIVE' && !p.upOrDownGradeRequested);
  if (!pkg) throw new Error(`${DIRECT_CUSTOMER} has no active package to upgrade`);
  const offer = await jsonResult<TemplatesOnOffer>(page, '/admin/packagetemplates');
  // The smallest template above the package's quota: the package stays within it, whatever it holds.
  const target = offer.elements
    .filter((t) => t.id !== pkg.templateId && megabytesToBytes(t.storageQuota) > pkg.packageQuotaSizeInBytes)
    .sort((a, b) => a.storageQuota - b.storageQuota)[0];
  if (!target) throw new Error(`no template above ${pkg.name}'s quota`);
  const newQuota = `of ${formatMegabytes(target.storageQuota)}`;

  const table = await openPackages(page);
  const row = table.getByRole('row').filter({ hasText: pkg.name });
  await expect(row.getByTestId('usage-label')).not.toContainText(newQuota);
  await row.getByRole('button', { name: `${BUY.upgradeButton} ${pkg.name}`, exact: true }).click();
  await chooseTemplate(page, BUY.upgradeTitle, BUY.upgradeSubmit, target.name);
  if (pkg.paymentUrl !== null) {
    // A billed service: the change's invoice opens in the billing system; it is left unpaid.
    await expectUnpaidInvoice(page, `Upgrade to ${target.name}`);
    await openPackages(page);
  } else {
    await expect(page.getByText(MESSAGES.backupPackage.upDowngradeRequested)).toBeVisible();
  }
  await expect(row).toContainText(CHANGE_REQUESTED_BADGE.text);
  await expect(row.getByRole('button', { name: `${BUY.upgradeButton} ${pkg.name}` })).toHaveCount(0);
  await signOut(page);

  // The provider approves it: pending requests come oldest first, so the new one is on the last page.
  const R = MESSAGES.packageRequest;
  await signIn(page, 'provider-admin@demo.test');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Admin Area' }).click();
  await page.getByRole('link', { name: R.pageTitle, exact: true }).click();
  await expect(page).toHaveURL(/\/boltadmin\/backuppackagerequests$/);
  const requests = page.getByRole('table', { name: R.tableLabel });
  const request = requests
    .getByRole('row')
    .filter({ hasText: PACKAGE_REQUEST_TYPE_TEXTS.CHANGE_PACKAGE })
    .filter({ hasText: DIRECT_CUSTOMER })
    .filter({ hasText: pkg.name })
    .filter({ hasText: target.name });
  // 'Last page' is a button until the last page shows (and only once the table has loaded its pages).
  const last = page.getByRole('button', { name: 'Last page', exact: true });
  await expect(async () => {
    if (await last.isVisible()) await last.click();
    await expect(request).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await request.getByRole('button', { name: `${R.approve} ${DIRECT_CUSTOMER}` }).click();
  const approve = page.getByRole('dialog', { name: R.approveTitle });
  await expect(approve).toBeVisible();
  await expectAccessible(page);
  await expect(approve).toContainText(`${DIRECT_CUSTOMER}: ${target.name}`);
  await approve.getByRole('button', { name: R.approve }).click();
  await expect(page.getByText(R.approved)).toBeVisible();
  await expect(approve).toBeHidden();
  await expect(request).toHaveCount(0);
  await signOut(page);

  // The customer's row: no change pending any more, and the new template's quota in its usage bar.
  await signIn(page, DIRECT_ADMIN);
  await expect(page.getByTestId('user-full-name')).toBeVisible();
  await openPackages(page);
  await expect(row).not.toContainText(CHANGE_REQUESTED_BADGE.text);
  await expect(row).toContainText(packageStatusBadge('ACTIVE').text);
  await expect(row.getByTestId('usage-label')).toContainText(newQuota);
  await expect(myRequest(page, 'CHANGE_PACKAGE', target.name)).toContainText(PACKAGE_REQUEST_STATUS_TEXTS.APPROVED);
  await expect(row).toContainText(
    packageMachinesText({
      numberOfBackupMachines: pkg.numberOfBackupMachines,
      noOfMachinesLimit: target.noOfMachinesLimit,
    }),
  );
  // The package is now of the new template: a further change offers the old one and not the new.
  await row.getByRole('button', { name: `${BUY.upgradeButton} ${pkg.name}`, exact: true }).click();
  const again = page.getByRole('dialog', { name: BUY.upgradeTitle });
  const choices = again.getByLabel(BUY.templateLabel).locator('option');
  const previous = offer.elements.find((t) => t.id === pkg.templateId);
  if (previous) await expect(choices.filter({ hasText: previous.name })).toHaveCount(1);
  await expect(choices.filter({ hasText: target.name })).toHaveCount(0);
  await expect(again).toBeVisible();
  await expectAccessible(page);
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();
});
