import { expect, type Locator, type Page, test } from '@playwright/test';
import { confirmDeletePackageTemplate, MESSAGES, PACKAGE_TEMPLATE_LABELS, TIMINGS } from '@portal/domain';
import { expectAccessible, signIn, signOut, turnPagesTo } from './helpers';

/** Package templates (issue 15, 000 §2, §5, §8): the provider adds, renames and deletes one through the dialogs. */

const TEXT = MESSAGES.packageTemplate;
const L = PACKAGE_TEMPLATE_LABELS;
/** The demo provider's template for resellers only. */
const FOR_RESELLERS = 'Reseller 20 TB';

/** Turns the templates table's pages (5 each, by name) until the row of `name` shows. */
async function rowOnItsPage(page: Page, name: string): Promise<Locator> {
  const row = page.getByRole('table', { name: TEXT.tableLabel }).getByRole('row').filter({ hasText: name });
  await expect(page.getByTestId('paging-text')).toBeVisible();
  await turnPagesTo(page, row);
  return row;
}

/**
 * Submits the Add dialog, its fields filled, and waits for the list's refresh 2 s later (000 §9):
 * its paging text then counts one template more.
 */
async function addTemplate(page: Page, dialog: Locator) {
  const paging = page.getByTestId('paging-text');
  const before = (await paging.textContent()) ?? '';
  await dialog.getByRole('button', { name: TEXT.addSubmit }).click();
  await expect(page.getByText(TEXT.created)).toBeVisible();
  await expect(paging).not.toHaveText(before, { timeout: TIMINGS.templateListRefreshMs + 10_000 });
}

test('the provider adds a template, renames it and deletes it', async ({ page }) => {
  const name = `Journey template ${Date.now().toString(36)}`;
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/customers');
  await page.getByRole('link', { name: 'Package Templates' }).click();
  await expect(page).toHaveURL(/\/boltadmin\/backuppackagetemplates$/);
  await expect(page.getByRole('heading', { level: 1, name: TEXT.pageTitle })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: TEXT.addButton }).click();
  let dialog = page.getByRole('dialog', { name: TEXT.addTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByLabel(L.storageQuota, { exact: true })).toHaveValue('10');
  await expect(dialog.getByLabel(L.storageQuotaUnit)).toHaveValue('GB');
  await expect(dialog.getByLabel(L.noOfMachinesLimit, { exact: true })).toHaveValue('10');
  // An empty name is refused on its field.
  await dialog.getByRole('button', { name: TEXT.addSubmit }).click();
  await expect(dialog.locator('.invalid-feedback').first()).toBeVisible();
  await dialog.getByLabel(L.name, { exact: true }).fill(name);
  await dialog.getByLabel(L.storageQuota, { exact: true }).fill('2');
  await dialog.getByLabel(L.storageQuotaUnit).selectOption('TB');
  await dialog.getByLabel(TEXT.limitMachinesLabel).uncheck();
  await addTemplate(page, dialog);
  await expect(dialog).toBeHidden();

  // The new template is on one of the list's pages of 5, sorted by name.
  const table = page.getByRole('table', { name: TEXT.tableLabel });
  const row = await rowOnItsPage(page, name);
  await expect(row).toContainText('2 TB');
  await expect(row).toContainText('Unlimited');

  const renamed = `${name} renamed`;
  await row.getByRole('button', { name: `${TEXT.edit} ${name}` }).click();
  dialog = page.getByRole('dialog', { name: TEXT.editTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(L.name, { exact: true }).fill(renamed);
  await dialog.getByRole('button', { name: TEXT.editSubmit }).click();
  await expect(page.getByText(TEXT.updated)).toBeVisible();
  const renamedRow = table.getByRole('row').filter({ hasText: renamed });
  await expect(renamedRow).toBeVisible();

  await renamedRow.getByRole('button', { name: `${TEXT.delete} ${renamed}` }).click();
  dialog = page.getByRole('dialog', { name: TEXT.deleteTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog).toContainText(confirmDeletePackageTemplate(renamed));
  await dialog.getByRole('button', { name: TEXT.deleteSubmit }).click();
  await expect(page.getByText(TEXT.deleted)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: renamed })).toHaveCount(0);
});

test("the provider marks a template 'For resellers only'; a direct customer's price list leaves it out", async ({
  page,
}) => {
  const name = `Journey wholesale ${Date.now().toString(36)}`;
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/backuppackagetemplates');
  // The demo's reseller template says who it is for.
  await expect(await rowOnItsPage(page, FOR_RESELLERS)).toContainText(TEXT.audience.resellersOnly);

  await page.getByRole('button', { name: TEXT.addButton }).click();
  let dialog = page.getByRole('dialog', { name: TEXT.addTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(L.name, { exact: true }).fill(name);
  await dialog.getByLabel(L.resellersOnly).check();
  await addTemplate(page, dialog);
  await page.reload();
  const row = await rowOnItsPage(page, name);
  await expect(row).toContainText(TEXT.audience.resellersOnly);

  // Edit opens with the switch as saved; unticking offers the template to every customer.
  await row.getByRole('button', { name: `${TEXT.edit} ${name}` }).click();
  dialog = page.getByRole('dialog', { name: TEXT.editTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByLabel(L.resellersOnly)).toBeChecked();
  await dialog.getByLabel(L.resellersOnly).uncheck();
  await dialog.getByRole('button', { name: TEXT.editSubmit }).click();
  await expect(page.getByText(TEXT.updated)).toBeVisible();
  await expect(row).toContainText(TEXT.audience.everyone);
  await row.getByRole('button', { name: `${TEXT.delete} ${name}` }).click();
  await expect(page.getByRole('dialog', { name: TEXT.deleteTitle })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('dialog', { name: TEXT.deleteTitle }).getByRole('button', { name: TEXT.deleteSubmit }).click();
  await expect(page.getByText(TEXT.deleted)).toBeVisible();
  await signOut(page);

  // The direct customer's Backup Packages page: neither the templates on offer nor the purchase dialog list it.
  await signIn(page, 'direct-admin@demo.test');
  await page.goto('/admin/backuppackages');
  const onOffer = page.getByTestId('package-templates-on-offer');
  await expect(onOffer.getByRole('row').filter({ hasText: 'Starter 50 GB' })).toBeVisible();
  await expect(onOffer.getByRole('row').filter({ hasText: FOR_RESELLERS })).toHaveCount(0);
  await page.getByRole('button', { name: MESSAGES.purchase.purchaseButton, exact: true }).click();
  const select = page
    .getByRole('dialog', { name: MESSAGES.purchase.purchaseTitle })
    .getByLabel(MESSAGES.purchase.templateLabel);
  await expect(select.locator('option', { hasText: 'Starter 50 GB' })).toHaveCount(1);
  await expect(select.locator('option', { hasText: FOR_RESELLERS })).toHaveCount(0);
});
