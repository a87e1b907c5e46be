import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  type CustomerPackageRow,
  type CustomerRow,
  type DashboardTaskRow,
  type MachineRow,
  MESSAGES,
  type PackageDetail,
  type Paged,
  packageStatusBadge,
  packageStatusChangeWarning,
} from '@portal/domain';
import { E2E_DATA_DIR } from '../playwright.config';
import { expectAccessible, jsonResult, signIn, signOut } from './helpers';

/** Backup packages (000 §2, §4, §5; issue 15) in a real browser against the demo data. */

const TEXT = MESSAGES.packagePages;

test('provider admin: suspend a package (its tasks NOT_RUNNABLE), then delete it and its machines’ data', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'provider-admin@demo.test');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page);

  // A direct customer's active package whose machines have tasks (the reseller's customers are other journeys').
  const customers = await jsonResult<Paged<CustomerRow>>(page, '/boltadmin/customerspaginated?size=50');
  let found: { customer: CustomerRow; pkg: CustomerPackageRow; machine: MachineRow } | null = null;
  for (const customer of customers.elements.filter((c) => c.parentResellerCustomerId === null)) {
    const packages = await jsonResult<Paged<CustomerPackageRow>>(
      page,
      `/boltadmin/customers/${customer.id}/backuppackages?size=50`,
    );
    for (const pkg of packages.elements.filter((p) => p.status === 'ACTIVE' && p.numberOfBackupMachines > 0)) {
      const machines = await jsonResult<Paged<MachineRow>>(page, `/backuppackages/${pkg.id}/backupmachines?size=50`);
      const machine = machines.elements.find((m) => m.numberOfBackupTasks > 0);
      if (machine) {
        found = { customer, pkg, machine };
        break;
      }
    }
    if (found) break;
  }
  if (!found) throw new Error('no demo package with a machine that has tasks');
  const { customer, pkg, machine } = found;
  const detail = await jsonResult<PackageDetail>(page, `/boltadmin/customers/${customer.id}/backuppackages/${pkg.id}`);

  // The machine's repository on the embedded storage, as restic leaves it.
  const location = detail.storageLocation;
  const repository = join(
    E2E_DATA_DIR,
    'storage',
    ...(location ? [location.bucketName, ...location.subfolder.split('/').filter(Boolean)] : ['default']),
    String(machine.id),
  );
  await mkdir(join(repository, 'data', 'ab'), { recursive: true });
  await writeFile(join(repository, 'config'), 'config');
  await writeFile(join(repository, 'data', 'ab', 'ab'.padEnd(64, '0')), 'backed up bytes');

  // From the customer's page to the package page by its Manage link.
  await page.goto(`/boltadmin/customers/${customer.id}`);
  await page
    .getByTestId('customer-packages-table')
    .getByRole('link', { name: `Manage ${pkg.name}`, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/boltadmin/customers/${customer.id}/backuppackages/${pkg.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: pkg.name })).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByRole('table', { name: TEXT.machinesTitle }).getByText(machine.name)).toBeVisible();

  // Change status: SUSPENDED preselected with its warning; a wrong name is refused, the exact one suspends.
  await page.getByRole('button', { name: TEXT.changeStatus, exact: true }).click();
  const status = page.getByRole('dialog', { name: TEXT.changeStatusTitle });
  await expect(status).toBeVisible();
  await expectAccessible(page);
  await expect(status.getByLabel(TEXT.details.status)).toHaveValue('SUSPENDED');
  await expect(status.getByTestId('status-change-warning')).toHaveText(packageStatusChangeWarning('SUSPENDED') ?? '');
  await status.getByTestId('confirm-name-input').fill('not the name');
  await status.getByRole('button', { name: TEXT.changeStatus }).click();
  await expect(status.getByText(MESSAGES.confirmByName.packageStatusChange)).toBeVisible();
  await status.getByTestId('confirm-name-input').fill(pkg.name);
  await status.getByRole('button', { name: TEXT.changeStatus }).click();
  await expect(page.getByText(MESSAGES.backupPackage.statusUpdated)).toBeVisible();
  await expect(page.getByTestId('package-details')).toContainText(packageStatusBadge('SUSPENDED').text);

  // The dashboard's read model follows: every task of the machine is NOT_RUNNABLE.
  const tasks = await jsonResult<Paged<DashboardTaskRow>>(
    page,
    `/dashboard/backupmachines/${machine.id}/tasks?size=50`,
  );
  expect(tasks.elements.length).toBeGreaterThan(0);
  for (const task of tasks.elements) expect(task.displayStatus, task.name).toBe('NOT_RUNNABLE');

  // Delete, offered now that it is suspended: typed name, 'is being deleted', back to the customer.
  await page.getByRole('button', { name: TEXT.delete, exact: true }).click();
  const remove = page.getByRole('dialog', { name: TEXT.deleteTitle });
  await expect(remove).toBeVisible();
  await expectAccessible(page);
  await remove.getByTestId('confirm-name-input').fill(`${pkg.name}x`);
  await remove.getByRole('button', { name: TEXT.delete }).click();
  await expect(remove.getByText(MESSAGES.confirmByName.packageDeletion)).toBeVisible();
  await remove.getByTestId('confirm-name-input').fill(pkg.name);
  await remove.getByRole('button', { name: TEXT.delete }).click();
  await expect(page.getByText(MESSAGES.backupPackage.beingDeleted)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/boltadmin/customers/${customer.id}$`));
  const packagesTable = page.getByTestId('customer-packages-table');
  await expect(packagesTable.getByRole('row').nth(1)).toBeVisible();
  await expect(packagesTable.locator(`a[href="${pkg.backupPackageUrl}"]`)).toHaveCount(0);

  // The job removes the machine's repository folder, then the rows.
  await expect.poll(() => existsSync(repository), { timeout: 30_000 }).toBe(false);
  await expect
    .poll(async () => (await page.request.get(`/backuppackages/${pkg.id}/storage`)).status(), { timeout: 30_000 })
    .toBe(404);
  await signOut(page);
});
