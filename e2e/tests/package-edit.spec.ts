import { expect, test } from '@playwright/test';
import { MESSAGES, type PackageRow, type Paged, packageEditForm } from '@portal/domain';
import { expectAccessible, jsonResult, signIn } from './helpers';

/**
 * A customer's own package (000 §5; issue 15): its super admin renames it and sets a per-machine limit. Apart from
 * the provider's package journeys (packages.spec.ts): the package is Contoso's, where the agents' journeys link.
 */

const TEXT = MESSAGES.packagePages;

test('customer admin: edit a package’s name and per-machine limit and see it in the table', async ({ page }) => {
  await signIn(page, 'super-admin@demo.test');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Backup Packages' }).click();
  await expect(page).toHaveURL(/\/admin\/backuppackages$/);
  const table = page.getByTestId('packages-table');
  const rows = await jsonResult<Paged<PackageRow>>(page, '/admin/backuppackages?size=5');
  const pkg = rows.elements.find((p) => p.manageable && (p.status === 'ACTIVE' || p.status === 'OVER_QUOTA'));
  if (!pkg) throw new Error('no editable demo package');

  await table.getByRole('button', { name: `${TEXT.edit} ${pkg.name}`, exact: true }).click();
  const edit = page.getByRole('dialog', { name: TEXT.editTitle });
  const limit = edit.getByLabel(TEXT.limitPerMachine);
  if (!(await limit.isChecked())) await limit.check();
  await expect(edit).toBeVisible();
  await expectAccessible(page);
  await edit.getByLabel(/Max backup size per machine/).fill('2048');
  const name = `${pkg.name} edited`.slice(0, 50);
  await edit.getByLabel('Name', { exact: true }).fill(name);
  await edit.getByRole('button', { name: TEXT.save }).click();
  await expect(page.getByText(MESSAGES.backupPackage.edited)).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(table.getByText(name, { exact: true })).toBeVisible();
  const edited = await jsonResult<Paged<PackageRow>>(page, '/admin/backuppackages?size=5');
  expect(edited.elements.find((p) => p.id === pkg.id)).toMatchObject({ name, maxBackupSizePerMachineInMbs: 2048 });

  // Back as it was, for the journeys after this one.
  await table.getByRole('button', { name: `${TEXT.edit} ${name}`, exact: true }).click();
  const original = packageEditForm(pkg);
  await edit.getByLabel('Name', { exact: true }).fill(pkg.name);
  if (original.limitBackupSizePerMachine) {
    await edit.getByLabel(/Max backup size per machine/).fill(String(original.maxBackupSizePerMachine));
  } else await limit.uncheck();
  await edit.getByRole('button', { name: TEXT.save }).click();
  await expect(edit).toBeHidden();
  await expect(table.getByText(pkg.name, { exact: true })).toBeVisible();
});
