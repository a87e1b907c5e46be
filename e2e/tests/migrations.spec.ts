import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  type CustomerPackageRow,
  type CustomerRow,
  type MachineRow,
  MESSAGES,
  MIGRATION_TEXTS,
  migrationStatusBadge,
  type PackageMigrationRow,
  type Paged,
} from '@portal/domain';
import { E2E_DATA_DIR } from '../playwright.config';
import { expectAccessible, jsonResult, signIn } from './helpers';

/**
 * Package migrations (001 §2, §4, §8; issue 16) in a real browser: the demo's finished migration of
 * Tailspin Toys, then a new one back to its older bucket run with the real rclone, watched live, finalised.
 */

const TEXT = MIGRATION_TEXTS;

test('provider admin: migrate a package to another location, sync live, final sync, finalise, IN USE moves', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'provider-admin@demo.test');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page);

  const customers = await jsonResult<Paged<CustomerRow>>(page, '/boltadmin/customerspaginated?size=50');
  const customer = customers.elements.find((c) => c.companyName === 'Tailspin Toys');
  if (!customer) throw new Error('no Tailspin Toys in the demo');
  const packages = await jsonResult<Paged<CustomerPackageRow>>(
    page,
    `/boltadmin/customers/${customer.id}/backuppackages?size=50`,
  );
  const base = `/boltadmin/customers/${customer.id}/backuppackages`;
  let pkg: CustomerPackageRow | undefined;
  for (const candidate of packages.elements) {
    const migrations = await jsonResult<Paged<PackageMigrationRow>>(page, `${base}/${candidate.id}/migrations`);
    if (migrations.totalElements > 0) pkg = candidate;
  }
  if (!pkg) throw new Error('no demo package with a migration');
  const machines = await jsonResult<Paged<MachineRow>>(page, `/backuppackages/${pkg.id}/backupmachines?size=50`);
  const machine = machines.elements[0];
  if (!machine) throw new Error('the migrated demo package has no machine');

  // The package page lists the demo's finished migration.
  await page.goto(`${base}/${pkg.id}`);
  await expect(page.getByRole('heading', { level: 1, name: pkg.name })).toBeVisible();
  await expectAccessible(page);
  const table = page.getByTestId('migrations-table');
  const finished = table.getByRole('row').nth(1);
  await expect(finished).toContainText(migrationStatusBadge('FINAL_SYNC_FINISHED_SUCCESS').text);
  await expect(finished).toContainText(TEXT.yes);
  // Its page: the package uses the destination, and both sequences of the demo are there, finished.
  await finished.getByRole('link', { name: /^Manage migration / }).click();
  const demoSummary = page.getByTestId('migration-summary');
  await expect(demoSummary.getByRole('row').filter({ hasText: TEXT.columns.destinationLocation })).toContainText(
    'IN USE',
  );
  await expect(demoSummary.getByRole('row').filter({ hasText: TEXT.columns.sourceLocation })).not.toContainText(
    'IN USE',
  );
  await expect(page.getByTestId('command-tab')).toHaveText(['Initial sync', 'Final sync']);
  await expect(page.getByRole('tabpanel').getByTestId('exit-code')).toHaveText('Success');
  for (const action of [TEXT.startSync, TEXT.finalSync, TEXT.rollback, TEXT.finalize]) {
    await expect(page.getByRole('button', { name: action, exact: true })).toBeDisabled();
  }
  await page.goBack();

  // A repository file at the package's current location, which the migration must carry.
  const destinations = await jsonResult<{
    elements: Array<{ storageLocation: { id: number; bucketName: string } }>;
  }>(page, `${base}/${pkg.id}/migrations/destinations`);
  const target = destinations.elements[0];
  if (!target) throw new Error('Tailspin Toys has no other storage location');
  const currentBucket = (await jsonResult<{ storageLocation: { bucketName: string } }>(page, `${base}/${pkg.id}`))
    .storageLocation.bucketName;
  const repository = (bucket: string) => join(E2E_DATA_DIR, 'storage', bucket, String(machine.id));
  const blob = join('data', 'cd', 'cd'.padEnd(64, '1'));
  await mkdir(join(repository(currentBucket), 'data', 'cd'), { recursive: true });
  await writeFile(join(repository(currentBucket), 'config'), 'config');
  await writeFile(join(repository(currentBucket), blob), 'migrated bytes');

  // Initialise: nothing chosen is refused with the form's message, then the other location.
  await page.getByRole('button', { name: MESSAGES.migration.migrateButton, exact: true }).click();
  const create = page.getByRole('dialog', { name: MESSAGES.migration.createDialogTitle });
  await expect(create).toBeVisible();
  await expectAccessible(page);
  await create.getByRole('button', { name: MESSAGES.migration.migrateButton }).click();
  await expect(create.getByText(MESSAGES.migration.chooseDestinationLocation)).toBeVisible();
  await create.getByLabel(TEXT.columns.destinationField).selectOption(String(target.storageLocation.id));
  await create.getByRole('button', { name: MESSAGES.migration.migrateButton }).click();
  await expect(page.getByText(MESSAGES.migration.initialized)).toBeVisible();
  // A RegExp matches case-sensitively (the header 'Date initialized' must not).
  const fresh = table.getByRole('row').filter({ hasText: new RegExp(migrationStatusBadge('INITIALIZED').text) });
  await expect(fresh).toHaveCount(1);
  await fresh.getByRole('link', { name: /^Manage migration / }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/${pkg.id}/migrations/\\d+$`));

  const summary = page.getByTestId('migration-summary');
  const sourceRow = summary.getByRole('row').filter({ hasText: TEXT.columns.sourceLocation });
  const destinationRow = summary.getByRole('row').filter({ hasText: TEXT.columns.destinationLocation });
  await expect(sourceRow).toContainText('IN USE');
  await expect(destinationRow).not.toContainText('IN USE');
  await expect(page.getByTestId('no-commands')).toBeVisible();

  // Start sync: the tab's output arrives over the migration's queue, and the status turns SYNC SUCCESS.
  await page.getByRole('button', { name: TEXT.startSync }).click();
  await expect(page.getByTestId('sequence-dialog')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('sequence-dialog').getByRole('button', { name: 'Initial sync' }).click();
  await expect(page.getByText(MESSAGES.resticCommand.submitted)).toBeVisible();
  await expect(page.getByTestId('command-output')).toHaveValue(/\$ rclone sync /);
  await expect(summary).toContainText(migrationStatusBadge('INITIAL_SYNC_FINISHED_SUCCESS').text);
  await expect(page.getByTestId('exit-code')).toHaveText('Success');
  expect(await readFile(join(repository(target.storageLocation.bucketName), blob), 'utf8')).toBe('migrated bytes');

  // Final sync with its check; finalising is offered only after it.
  await expect(page.getByRole('button', { name: TEXT.finalize })).toBeDisabled();
  await page.getByRole('button', { name: TEXT.finalSync }).click();
  await expect(page.getByTestId('sequence-dialog')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('sequence-dialog').getByRole('button', { name: 'Final sync' }).click();
  await expect(summary).toContainText(migrationStatusBadge('FINAL_SYNC_FINISHED_SUCCESS').text);
  await expect(page.getByRole('tabpanel').getByTestId('command-output')).toHaveValue(/0 differences found/);
  // The source is still whole before the finalisation.
  expect(existsSync(join(repository(currentBucket), blob))).toBe(true);

  await page.getByRole('button', { name: TEXT.finalize }).click();
  await expect(page.getByTestId('finalize-migration-dialog')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('finalize-migration-dialog').getByRole('button', { name: TEXT.finalize }).click();
  await expect(page.getByText(TEXT.finalized)).toBeVisible();
  await expect(destinationRow).toContainText('IN USE');
  await expect(sourceRow).not.toContainText('IN USE');
  await expect(summary).toContainText(`${TEXT.columns.finalized}${TEXT.yes}`);

  // The package now lives at the destination; the source copy is removed after the finalisation.
  const moved = await jsonResult<{ storageLocation: { bucketName: string } }>(page, `${base}/${pkg.id}`);
  expect(moved.storageLocation.bucketName).toBe(target.storageLocation.bucketName);
  await expect.poll(() => existsSync(repository(currentBucket)), { timeout: 30_000 }).toBe(false);
  expect(await readFile(join(repository(target.storageLocation.bucketName), blob), 'utf8')).toBe('migrated bytes');
});
