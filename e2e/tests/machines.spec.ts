import { expect, test } from '@playwright/test';
import { type DashboardCustomerRow, type DashboardMachineRow, MESSAGES, type Paged } from '@portal/domain';
import { expectAccessible, jsonResult, signIn, signOut } from './helpers';

/** The machine pages (001 §2, §4–§8; issue #14) in a real browser against the demo data. */

const TEXT = MESSAGES.backupMachine;
const DASHBOARD = MESSAGES.dashboard;

test('reseller admin: from the dashboard to a machine, edit, status, message log, storage, suspend and delete', async ({
  page,
}) => {
  // One long journey on a CPU shared with other work: it waits for states, the whole may take minutes.
  test.setTimeout(180_000);
  await signIn(page, 'reseller-admin@demo.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);

  // A child customer other than Contoso (whose machines the other journeys count), and its active machines.
  const customers = await jsonResult<Paged<DashboardCustomerRow>>(page, '/dashboard/customers?size=50');
  let customer: DashboardCustomerRow | undefined;
  let machines: DashboardMachineRow[] = [];
  for (const candidate of customers.elements.filter((c) => c.name !== 'Contoso Ltd')) {
    const page_ = await jsonResult<Paged<DashboardMachineRow>>(
      page,
      `/dashboard/customers/${candidate.id}/machines?size=50&status=ACTIVE`,
    );
    if (page_.elements.length >= 2) {
      customer = candidate;
      machines = page_.elements;
      break;
    }
  }
  if (!customer) throw new Error('no demo customer with two active machines');
  const [target, other] = machines as [DashboardMachineRow, DashboardMachineRow];

  // The dashboard's Manage link leads to the machine page.
  const customersTable = page.getByRole('tabpanel').getByRole('table', { name: DASHBOARD.myCustomersTitle });
  await customersTable.getByRole('button', { name: `Select ${customer.name}`, exact: true }).click();
  await page
    .getByRole('tabpanel')
    .getByRole('link', { name: `Manage ${target.name}`, exact: true })
    .click();
  await expect(page).toHaveURL(/\/admin\/mycustomers\/\d+\/backuppackages\/\d+\/backupmachines\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: target.name })).toBeVisible();
  await expectAccessible(page);
  const details = page.getByTestId('machine-details');
  await expect(details.getByTestId('usage-label')).toHaveText(/^Used: .+ of .+, available: .+$/);

  // Edit: the name is required; then a new description is saved.
  await page.getByRole('button', { name: TEXT.editButton, exact: true }).click();
  const edit = page.getByRole('dialog', { name: TEXT.editDialogTitle });
  await expect(edit).toBeVisible();
  await expectAccessible(page);
  await expect(edit.getByLabel('Assigned user')).toBeDisabled();
  await edit.getByLabel('Name').fill('');
  await edit.getByRole('button', { name: TEXT.editSubmit }).click();
  await expect(edit.getByText('Name is required')).toBeVisible();
  const name = `${target.name}-j`.slice(0, 50);
  await edit.getByLabel('Name').fill(name);
  await edit.getByLabel('Description').fill('Edited by the journey');
  await edit.getByRole('button', { name: TEXT.editSubmit }).click();
  await expect(page.getByText(TEXT.edited)).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expectAccessible(page);
  await expect(details).toContainText('Edited by the journey');

  // Change status with the typed name: a wrong name is refused, the exact one suspends.
  await page.getByRole('button', { name: TEXT.changeStatusButton, exact: true }).click();
  const status = page.getByRole('dialog', { name: TEXT.changeStatusTitle });
  await expect(status).toBeVisible();
  await expectAccessible(page);
  await expect(status.getByLabel(TEXT.newStatusLabel)).toHaveValue('SUSPENDED');
  await status.getByTestId('confirm-name-input').fill('not the name');
  await status.getByRole('button', { name: TEXT.changeStatusSubmit }).click();
  await expect(status.getByText(MESSAGES.confirmByName.machineStatusChange)).toBeVisible();
  await status.getByTestId('confirm-name-input').fill(name);
  await status.getByRole('button', { name: TEXT.changeStatusSubmit }).click();
  await expect(page.getByText(TEXT.statusUpdated)).toBeVisible();
  await expect(status).toBeHidden();
  await expect(details.getByText('Suspended', { exact: true })).toBeVisible();

  // The message log: ERROR first; the filter adds INFO (the agent's connection messages).
  await page.getByRole('button', { name: TEXT.messageLogButton, exact: true }).click();
  const log = page.getByRole('dialog', { name: TEXT.messageLogTitle });
  await expect(log).toBeVisible();
  await expectAccessible(page);
  await expect(log.getByTestId('message-log-caption')).toHaveText(/^Displaying \d+ to \d+ of \d+ items$/);
  await log.getByRole('button', { name: TEXT.filter, exact: true }).click();
  await log.getByLabel('INFO').check();
  await expect(log.getByRole('table', { name: TEXT.messageLogTitle })).toContainText('Backup agent');
  // Emptying the selection falls back to ERROR.
  await log.getByLabel('INFO').uncheck();
  // A click (not uncheck(), which insists on the change) on the last one: it stays checked.
  await log.getByLabel('ERROR').click();
  await expect(log.getByLabel('ERROR')).toBeChecked();
  await expect(log.getByRole('table', { name: TEXT.messageLogTitle })).not.toContainText('Backup agent');
  await log.getByRole('button', { name: TEXT.close, exact: true }).last().click();
  await expect(log).toBeHidden();

  // Delete, offered now that it is suspended: typed name, 'is being deleted', back to the customer.
  await page.getByRole('button', { name: TEXT.deleteButton, exact: true }).click();
  const remove = page.getByRole('dialog', { name: TEXT.deleteTitle });
  await expect(remove).toBeVisible();
  await expectAccessible(page);
  await remove.getByTestId('confirm-name-input').fill(name);
  await remove.getByRole('button', { name: TEXT.deleteSubmit }).click();
  await expect(page.getByText(TEXT.beingDeleted)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/admin/mycustomers/${customer.id}$`));
  await expect
    .poll(async () =>
      (await page.request.get(`/backupmachines/${target.id}`, { headers: { Accept: 'application/json' } })).status(),
    )
    .toBe(404);

  // Another tenant's machine: a Contoso user gets the not-found page at its address.
  await signOut(page);
  await signIn(page, 'user@demo.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
  await page.goto(`/backupmachines/${other.id}`);
  await expect(page.getByText(MESSAGES.notFound)).toBeVisible();
  // Their own machines are listed at /backupmachines.
  await page.goto('/backupmachines');
  await expect(page.getByRole('heading', { level: 1, name: TEXT.ownTitle })).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByRole('table', { name: TEXT.ownTitle })).toContainText('CONTOSO-LT-014');
});
