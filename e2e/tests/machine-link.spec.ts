import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { agentLinkCommand, MESSAGES } from '@portal/domain';
import { expectAccessible, signIn } from './helpers';

/**
 * Issue #5: the demo customer user makes a one-time linking code in the portal, the real agent CLI links a
 * machine with it, and the dashboard lists the new machine. The code does not work a second time.
 */

const TEXT = MESSAGES.machineLink;
const ROOT = join(import.meta.dirname, '../..');
const AGENT = join(ROOT, 'apps/agent/src/main.ts');

/** `portal-agent …` from source, as a person would run it on the machine. */
function agent(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', AGENT, ...args], {
      cwd: ROOT,
      env: { ...process.env, PORTAL_AGENT_CONFIG: '', PORTAL_EMAIL: '', PORTAL_LINKING_CODE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('customer user: makes a linking code, links a machine with the agent CLI, sees it on the dashboard', async ({
  page,
  baseURL,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-agent-'));
  try {
    await signIn(page, 'user@demo.test');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expectAccessible(page);
    const machines = page.getByRole('tabpanel').getByRole('table', { name: 'Contoso Ltd machines', exact: true });
    await expect(machines).toContainText('Alex-MacBook-Pro');

    await page.getByRole('button', { name: TEXT.linkButton, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: TEXT.dialogTitle });
    const shown = dialog.getByTestId('linking-code');
    await expect(shown).toHaveText(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    const code = (await shown.textContent()) ?? '';
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    await expect(dialog.getByTestId('linking-code-expiry')).toContainText(TEXT.expiresAt);
    // Alex may use both Contoso packages: the command names the one picked.
    const server = baseURL ?? '';
    const packageSelect = dialog.getByRole('combobox', { name: TEXT.packageLabel });
    await packageSelect.selectOption({ label: 'Head office' });
    const headOffice = Number(await packageSelect.inputValue());
    const command = dialog.getByTestId('link-command');
    await expect(command).toHaveText(agentLinkCommand(server, code, headOffice));

    // On the machine: exactly the command the dialog shows, with a name and a config of its own.
    const [program, ...shownArgs] = ((await command.textContent()) ?? '').trim().split(/\s+/);
    expect(program).toBe('portal-agent');
    const name = `e2e-code-${Date.now().toString(36)}`;
    const configPath = join(dir, 'config.json');
    const linked = await agent([...shownArgs, '--name', name, '--config', configPath]);
    expect(linked.code, linked.output).toBe(0);
    expect(linked.output).toMatch(/Linked: this machine is machine \d+/);
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as { machineId: number; token: string };
    expect(linked.output).not.toContain(config.token);

    // The code is spent: a second machine cannot use it.
    const again = await agent([...shownArgs, '--config', join(dir, 'again.json')]);
    expect(again.code).toBe(1);
    expect(again.output).toContain(TEXT.linkingCodeInvalid);

    await dialog.getByRole('button', { name: TEXT.close, exact: true }).last().click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(machines).toContainText(name);
    await expect(machines.getByRole('link', { name: `Manage ${name}` })).toHaveAttribute(
      'href',
      `/backupmachines/${config.machineId}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
