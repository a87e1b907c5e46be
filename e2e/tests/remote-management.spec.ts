import { expect, test } from '@playwright/test';
import {
  FALLBACK_IMAGES,
  type MachineRow,
  MESSAGES,
  machineUrl,
  PAGES,
  type Paged,
  ROUTES,
  TASK_FORM_TEXTS,
} from '@portal/domain';
import { expectAccessible, jsonResult, signIn } from './helpers';

/**
 * The remote-management button (002 §4.2, §6; issue 29): a customer admin switches it off on a machine's page, the
 * add-task button is disabled with its reason in view before any form, and switching it back on gives the next
 * reason (the demo's machines have no agent connected: offline). A customer of the main brand's account page shows
 * the rounded main logo (001 §2).
 */

const R = MESSAGES.remoteManagement;
const L = MESSAGES.liveChannel;

test('a customer admin switches remote management off and on; the add-task button says why it is disabled', async ({
  page,
}) => {
  await signIn(page, 'customer-admin@demo.test');
  await expect(page).not.toHaveURL(/\/login/);
  const machines = await jsonResult<Paged<MachineRow>>(page, `${ROUTES.machines.own.build()}?page=0&size=10`);
  const machine = machines.elements[0];
  if (!machine) throw new Error('the demo customer admin has no machine');
  await page.goto(machineUrl('customer', { machineId: machine.id }));
  await expect(page.getByRole('heading', { level: 1, name: machine.name })).toBeVisible();
  await expectAccessible(page);

  const switchButton = page.getByTestId('remote-management-switch');
  const addTask = page.getByRole('button', { name: TASK_FORM_TEXTS.addButton });
  const reason = page.getByTestId('add-task-reason');
  // Start from on (a demo machine may have it off).
  if ((await switchButton.textContent())?.includes(R.turnOn)) {
    await switchButton.click();
    await expect(switchButton).toHaveText(R.turnOff);
  }

  await switchButton.click();
  await expect(page.getByText(R.turnedOff)).toBeVisible();
  await expect(page.getByTestId('remote-management')).toContainText(R.off);
  await expect(switchButton).toHaveText(R.turnOn);
  await expect(addTask).toBeDisabled();
  await expect(reason).toHaveText(L.remoteManagementDisabled);
  // The reason is on the button too, and no form opens.
  await page.getByTestId('tooltip-button').filter({ has: addTask }).hover();
  await expect(page.getByRole('tooltip')).toHaveText(L.remoteManagementDisabled);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await switchButton.click();
  await expect(page.getByText(R.turnedOn)).toBeVisible();
  await expect(page.getByTestId('remote-management')).toContainText(R.on);
  // On again, the machine's next reason shows: it has no agent connected.
  await expect(reason).toHaveText(L.machineOffline);
  await expect(addTask).toBeDisabled();
});

test("a direct customer's account page shows the rounded main logo (001 §2)", async ({ page }) => {
  await signIn(page, 'direct-admin@demo.test');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(PAGES.account);
  await expect(page.getByTestId('account-logo')).toHaveAttribute('src', FALLBACK_IMAGES.roundMain);
  // The header keeps the full main logo.
  await expect(page.getByTestId('header').getByRole('img').first()).toHaveAttribute('src', FALLBACK_IMAGES.main);
});
