import { expect, test } from '@playwright/test';
import { confirmDeletePackageTemplate, MESSAGES, PACKAGE_TEMPLATE_LABELS, TIMINGS } from '@portal/domain';
import { signIn } from './helpers';

/** Package templates (issue 15, 000 §2, §5, §8): the provider adds, renames and deletes one through the dialogs. */

const TEXT = MESSAGES.packageTemplate;
const L = PACKAGE_TEMPLATE_LABELS;

test('the provider adds a template, renames it and deletes it', async ({ page }) => {
  const name = `Journey template ${Date.now().toString(36)}`;
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/customers');
  await page.getByRole('link', { name: 'Package Templates' }).click();
  await expect(page).toHaveURL(/\/boltadmin\/backuppackagetemplates$/);
  await expect(page.getByRole('heading', { level: 1, name: TEXT.pageTitle })).toBeVisible();

  await page.getByRole('button', { name: TEXT.addButton }).click();
  let dialog = page.getByRole('dialog', { name: TEXT.addTitle });
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
  await dialog.getByRole('button', { name: TEXT.addSubmit }).click();
  await expect(page.getByText(TEXT.created)).toBeVisible();
  await expect(dialog).toBeHidden();

  // The list refreshes 2 s later (000 §9); the new template is on one of its pages of 5, sorted by name.
  const table = page.getByRole('table', { name: TEXT.tableLabel });
  const row = table.getByRole('row').filter({ hasText: name });
  await page.waitForTimeout(TIMINGS.templateListRefreshMs + 500);
  const paging = page.getByTestId('paging-text');
  for (let turns = 0; turns < 20 && !(await row.isVisible()); turns++) {
    const before = (await paging.textContent()) ?? '';
    await page.getByRole('button', { name: 'Next page', exact: true }).click();
    await expect(paging).not.toHaveText(before);
  }
  await expect(row).toContainText('2 TB');
  await expect(row).toContainText('Unlimited');

  const renamed = `${name} renamed`;
  await row.getByRole('button', { name: `${TEXT.edit} ${name}` }).click();
  dialog = page.getByRole('dialog', { name: TEXT.editTitle });
  await dialog.getByLabel(L.name, { exact: true }).fill(renamed);
  await dialog.getByRole('button', { name: TEXT.editSubmit }).click();
  await expect(page.getByText(TEXT.updated)).toBeVisible();
  const renamedRow = table.getByRole('row').filter({ hasText: renamed });
  await expect(renamedRow).toBeVisible();

  await renamedRow.getByRole('button', { name: `${TEXT.delete} ${renamed}` }).click();
  dialog = page.getByRole('dialog', { name: TEXT.deleteTitle });
  await expect(dialog).toContainText(confirmDeletePackageTemplate(renamed));
  await dialog.getByRole('button', { name: TEXT.deleteSubmit }).click();
  await expect(page.getByText(TEXT.deleted)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: renamed })).toHaveCount(0);
});
