import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { MESSAGES } from '@portal/domain';
import { expectAccessible, signIn, signUpVisitor } from './helpers';

/**
 * Issue 14: a new customer's getting-started strip leads from its install step to the manual. A customer
 * admin gets the agent from the portal alone: 'Link a machine' shows one line; run in a shell on this machine
 * (into a temp prefix, as no root is needed), it downloads the agent, links it and starts it, and the
 * dashboard shows the new machine online. The installer is then run with --uninstall, which stops the agent.
 */

const run = promisify(execFile);
const EMAIL = 'customer-admin@demo.test';
const TEXT = MESSAGES.machineLink;

test('a new customer: the install step of the getting-started strip leads to the manual', async ({ page }) => {
  const visitor = await signUpVisitor(page, 'Install Journey', {
    firstName: 'Ira',
    surname: 'Installer',
    password: 'install-password',
  });
  await signIn(page, visitor.email, visitor.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
  const strip = page.getByRole('region', { name: MESSAGES.dashboard.gettingStarted.title });
  const step = strip.getByRole('listitem').filter({ hasText: MESSAGES.dashboard.gettingStarted.LINK_MACHINE });
  await step.getByRole('link', { name: MESSAGES.agentInstall.manualLink }).click();
  await expect(page.getByRole('heading', { level: 1, name: MESSAGES.manual.title })).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByTestId('os-badge')).toContainText('Linux');
  await expect(page.getByRole('navigation', { name: MESSAGES.manual.contents })).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 3, name: `2.1 ${MESSAGES.manual.chapters.installLinux}` }),
  ).toBeVisible();
});

test('customer admin: installs the agent with the one line of Link a machine; the machine comes online', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const prefix = mkdtempSync(join(tmpdir(), 'portal-e2e-install-'));
  const name = `e2e-install-${Date.now().toString(36)}`;
  const env = { ...process.env, PORTAL_AGENT_PREFIX: prefix, PORTAL_AGENT_NAME: name, HOME: prefix };
  let installed = false;
  try {
    await signIn(page, EMAIL);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: TEXT.linkButton, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: TEXT.dialogTitle });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    await expect(dialog.getByTestId('linking-code')).toBeVisible();
    // The admin may use two packages; Head office has room for another machine.
    const packages = dialog.getByRole('combobox', { name: TEXT.packageLabel });
    if ((await packages.count()) > 0) await packages.selectOption({ label: 'Head office' });
    const line = ((await dialog.getByTestId('install-command').textContent()) ?? '').trim();
    expect(line).toMatch(/^curl -fsSL '.+\/public\/downloads\/agent\/install\.sh\?code=[A-Z0-9-]+.*' \| sh$/);

    // On the machine: exactly the line shown, in a shell.
    installed = true;
    const { stdout } = await run('sh', ['-c', line], { env });
    expect(stdout).toContain(`installed portal-agent`);
    // This computer may have been linked to Head office by another journey: then it is linked again.
    const machineId = /Linked(?: again)?: this machine is machine (\d+)/.exec(stdout)?.[1];
    expect(machineId, stdout).toBeDefined();
    expect(stdout).toContain('the agent is connected to the portal');

    await dialog.getByRole('button', { name: TEXT.close, exact: true }).last().click();
    await expect(dialog).toBeHidden();
    const machines = page.getByRole('tabpanel').getByRole('table', { name: 'Contoso Ltd machines', exact: true });
    const row = machines.locator('tbody tr').filter({ has: page.locator(`a[href="/backupmachines/${machineId}"]`) });
    await expect(row.getByRole('img', { name: MESSAGES.dashboard.online })).toBeVisible({ timeout: 15_000 });
  } finally {
    if (installed) {
      const base = test.info().project.use.baseURL as string;
      await run('sh', ['-c', `curl -fsSL '${base}/public/downloads/agent/install.sh' | sh -s -- --uninstall`], { env });
    }
    rmSync(prefix, { recursive: true, force: true });
  }
});
