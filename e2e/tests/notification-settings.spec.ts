import { expect, test } from '@playwright/test';
import { NOTIFICATION_LABELS, NOTIFICATION_TEXTS } from '@portal/domain';
import { expectAccessible, sidebarLabels, signIn } from './helpers';

const TEXT = NOTIFICATION_TEXTS;
const L = NOTIFICATION_LABELS;

test('a customer super admin subscribes a user to failed runs of one machine, and the choice is kept', async ({
  page,
}) => {
  await signIn(page, 'super-admin@demo.test');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: TEXT.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: TEXT.title })).toBeVisible();
  await expectAccessible(page);

  const users = page.getByRole('table', { name: TEXT.usersSection });
  const row = users.getByRole('row').filter({ hasText: 'user@demo.test' });
  await row.getByRole('button', { name: /^Edit / }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByLabel(L.runFailed)).toBeVisible();
  await dialog.getByLabel(L.runFailed).check();
  await dialog.getByLabel(L.allMachines).uncheck();

  // Nothing chosen: the field says so and nothing is saved.
  await dialog.getByRole('button', { name: TEXT.save }).click();
  await expect(dialog.getByText(TEXT.chooseMachine)).toBeVisible();

  const chooser = dialog.getByRole('table', { name: TEXT.chosenMachines });
  const firstMachine = chooser.getByRole('row').nth(1);
  const machineName = (await firstMachine.getByRole('cell').nth(1).innerText()).trim();
  await dialog.getByLabel(TEXT.searchMachines).fill(machineName);
  await expect(chooser.getByRole('row').filter({ hasText: machineName }).first()).toBeVisible();
  await chooser.getByLabel(TEXT.chooseLabel(machineName)).first().check();
  await expect(dialog.getByTestId('chosen-machines')).toContainText(machineName);
  await dialog.getByRole('button', { name: TEXT.save }).click();
  await expect(page.getByText(TEXT.saved)).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.reload();
  const saved = page.getByRole('table', { name: TEXT.usersSection }).getByRole('row').filter({
    hasText: 'user@demo.test',
  });
  await expect(saved).toContainText(TEXT.chosenCount(1));
  await saved.getByRole('button', { name: /^Edit / }).click();
  await expect(page.getByRole('dialog').getByLabel(L.runFailed)).toBeChecked();
  await expect(page.getByRole('dialog').getByLabel(L.allMachines)).not.toBeChecked();
  await expect(page.getByRole('dialog').getByTestId('chosen-machines')).toContainText(machineName);
});

test('a customer admin does not see the Notification Settings menu entry', async ({ page }) => {
  await signIn(page, 'customer-admin@demo.test');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Account Settings' })).toBeVisible();
  expect(await sidebarLabels(page)).not.toContain(TEXT.title);
  await page.goto('/admin/notificationsettings');
  await expect(page.getByRole('heading', { level: 1, name: TEXT.title })).toHaveCount(0);
});
