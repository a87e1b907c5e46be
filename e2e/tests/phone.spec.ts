import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { MESSAGES, MFA_TEXTS, runStatusBadge, SHELL_TEXTS, taskUrl } from '@portal/domain';
import { totpAt } from '../../apps/server/src/features/mfa/totp';
import { addSamplesTask, expectOnline } from './agent';
import { signIn, signUpVisitor } from './helpers';
import { test } from './machine';
import { recordSecret } from './secrets';
import { zipFiles } from './zip';

/**
 * Phones (issue 31 item 5): the core tasks at 390 px wide, a common phone's width. On every page nothing is wider
 * than the screen (the page does not scroll sideways; wide tables scroll inside their own box), the sidebar folds
 * behind the header's menu button, and each dialog opened fits the screen.
 */

const WIDTH = 390;
test.use({ viewport: { width: WIDTH, height: 844 } });

const TEXT = MESSAGES.task;
const RESTORE = MESSAGES.restore;

/** The page does not scroll sideways: checked once what the page shows has arrived. */
async function expectFitsScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), page.url()).toBeLessThanOrEqual(WIDTH);
}

/** The open dialog's box lies within the screen's width. */
async function expectDialogFits(page: Page) {
  const box = await page.locator('.modal.show .modal-dialog').boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= WIDTH, JSON.stringify(box)).toBe(true);
}

test('on a phone a customer opens the dashboard and the menu, runs a task now and downloads its backup', async ({
  page,
  samples,
  sharedMachine,
}) => {
  test.setTimeout(120_000);
  const { machineId, owner } = sharedMachine;
  const report = join(samples, 'report.txt');
  writeFileSync(report, 'phone report\n'.repeat(200));

  await signIn(page, owner);
  await expect(page.getByRole('table', { name: 'Contoso Ltd machines', exact: true })).toBeVisible();
  await expectFitsScreen(page);

  // The sidebar is folded away behind the menu button: opened, it takes focus; Escape closes it; a link leaves it.
  const menuButton = page.getByTestId('header').getByRole('button', { name: SHELL_TEXTS.menuButton });
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeHidden();
  await menuButton.click();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  await menuButton.click();
  await menu.getByRole('link', { name: 'Account Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: MESSAGES.account.title })).toBeVisible();
  await expect(menu).toBeHidden();
  await expect(page.getByRole('table', { name: MESSAGES.user.tableLabel }).locator('tbody tr').first()).toBeVisible();
  await expectFitsScreen(page);

  await expectOnline(page, machineId);
  const taskId = await addSamplesTask(page, machineId, { requestId: 'phone-e2e-new', name: 'Phone samples', samples });
  await page.goto(taskUrl('customer', { machineId, taskId }));
  await expect(page.getByRole('heading', { name: 'Phone samples' })).toBeVisible({ timeout: 15_000 });
  const runs = page.getByTestId('runs-table');
  await expect(runs).toContainText(TEXT.noItems);
  await expectFitsScreen(page);

  await page.getByRole('button', { name: 'Run now' }).click();
  const runDialog = page.getByTestId('run-task-dialog');
  await expectDialogFits(page);
  await runDialog.getByRole('button', { name: 'Run now' }).click();
  const run = runs.locator('tbody tr').first();
  await expect(run).toContainText(runStatusBadge('FINISHED_SUCCESS').text, { timeout: 60_000 });
  await expectFitsScreen(page);

  // The run's table scrolls inside its box to its Download button.
  await run.getByRole('button', { name: RESTORE.downloadButton, exact: true }).click();
  const download = page.getByTestId('download-dialog');
  await expect(page.getByRole('dialog', { name: RESTORE.downloadTitle })).toBeVisible();
  await expectDialogFits(page);
  await expectFitsScreen(page);
  await download.getByLabel(RESTORE.downloadAll).check();
  const received = page.waitForEvent('download', { timeout: 30_000 });
  await download.getByRole('button', { name: RESTORE.downloadButton, exact: true }).click();
  await expect(page.getByText(TEXT.downloadStarting)).toBeVisible();
  const zip = zipFiles(readFileSync(await (await received).path()));
  expect(zip.get(report.replace(/^\//, ''))?.equals(readFileSync(report))).toBe(true);
});

test('on a phone a customer turns on two-factor sign-in and signs in with a code', async ({ page }) => {
  const visitor = await signUpVisitor(page, 'Phone', {
    firstName: 'Pia',
    surname: 'Phone',
    password: 'journey password',
  });
  await expectFitsScreen(page);
  await signIn(page, visitor.email, visitor.password);
  await page.goto('/profile');
  await page.getByRole('button', { name: MFA_TEXTS.start }).click();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  await expectFitsScreen(page);
  const secret = (await page.getByTestId('mfa-secret').textContent())?.trim() ?? '';
  recordSecret(secret);
  await page.getByLabel(MFA_TEXTS.codeLabel).fill(totpAt(secret, new Date()));
  await page.getByRole('button', { name: MFA_TEXTS.confirm }).click();
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  for (const code of await page.getByTestId('recovery-codes').locator('li').allTextContents())
    recordSecret(code.trim());
  await expectFitsScreen(page);
  await page.getByRole('button', { name: MFA_TEXTS.done }).click();

  // Signing out is in the header on a phone too.
  await page.waitForLoadState('networkidle');
  await page.getByTestId('header').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login\?logout$/);
  await expectFitsScreen(page);
  await signIn(page, visitor.email, visitor.password);
  await expect(page).toHaveURL(/\/login\/mfa$/);
  await expectFitsScreen(page);
  // The next time step's code: the one that confirmed the enrolment is spent.
  await page.getByLabel(MFA_TEXTS.codeLabel).fill(totpAt(secret, new Date(Date.now() + 30_000)));
  await page.getByRole('button', { name: MFA_TEXTS.verify }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectFitsScreen(page);
});
