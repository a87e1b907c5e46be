import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type DashboardTaskRow, MESSAGES, newTaskForm, type Paged, ROUTES } from '@portal/domain';
import { apiResult, expectOnline, linkAgent, ownMachine, runAgent, taskCommand } from './agent';
import { signIn, signOut } from './helpers';

/**
 * Restic diagnostics (001 §2, §4; issue 14): a provider admin runs restic on a customer's real linked
 * agent from the machine page, watches the output stream in, stops a long command and deletes a finished
 * one.
 */

const OWNER = 'customer-admin@demo.test';
const PROVIDER = 'provider-admin@demo.test';
/** Sorted last by name, so the journeys that look at the first page of machines do not see it. */
const MACHINE_NAME = 'ZZ-DIAGNOSTICS-AGENT';
const TEXT = MESSAGES.resticCommand;
const LABELS = MESSAGES.resticDiagnostics;

let dir: string;
let agent: ChildProcess | undefined;

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-diagnostics-e2e-'));
});

test.afterAll(() => {
  if (agent?.pid !== undefined) agent.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('a provider admin runs restic on a real agent: output streams in, a long command is stopped, a finished one deleted', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const baseURL = test.info().project.use.baseURL as string;

  // The owner links the machine and starts its agent.
  const config = join(dir, 'config.json');
  const { machineId } = linkAgent({ baseURL, email: OWNER, name: MACHINE_NAME, config });
  agent = runAgent(config);
  await signIn(page, OWNER);
  await expect(page).toHaveURL(/\/$/);
  const machineRow = () => ownMachine(page, machineId);
  await expectOnline(page, machineId);

  // One backup, so the repository exists with a snapshot (random data: it does not compress, so reading it
  // back at 1 KiB/s takes long enough to stop).
  const samples = join(dir, 'samples');
  mkdirSync(samples, { recursive: true });
  for (let i = 0; i < 8; i++) writeFileSync(join(samples, `file-${i}.bin`), randomBytes(64 * 1024));
  const created = await taskCommand(page, machineId, 'newtask', 'diag-e2e-new', {
    ...newTaskForm('diag-e2e-new'),
    name: 'Diagnostics samples',
    backupScheduleDefinition: '0 2 * * *',
    backupItems: [{ path: samples, name: 'samples', type: 'DIRECTORY', missing: false }],
  });
  expect(created.success, JSON.stringify(created.messages)).toBe(true);
  const tasks = await apiResult<Paged<DashboardTaskRow>>(page, ROUTES.dashboard.machineTasks.build({ machineId }));
  const taskId = tasks.elements[0]?.id;
  expect(taskId).toBeDefined();
  const started = await taskCommand(page, machineId, 'starttask', 'diag-e2e-start', {
    requestId: 'diag-e2e-start',
    backupTaskId: taskId,
  });
  expect(started.success, JSON.stringify(started.messages)).toBe(true);
  await expect
    .poll(
      async () => {
        const row = await machineRow();
        return row && !row.tasksInProgress ? row.taskStatus : undefined;
      },
      { timeout: 60_000, intervals: [250] },
    )
    .toBe('SUCCESSFUL_TASKS');
  const machine = await machineRow();
  if (!machine) throw new Error('machine gone');
  await signOut(page);

  // The provider admin opens the machine's page and its diagnostics.
  await signIn(page, PROVIDER);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(
    `/boltadmin/customers/${machine.customerId}/backuppackages/${machine.backupPackageId}/backupmachines/${machineId}`,
  );
  await expect(page.getByRole('heading', { name: MACHINE_NAME, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: LABELS.openButton }).click();
  const dialog = page.getByTestId('restic-diagnostics-dialog');
  // The dialog is titled with the machine's name (001 §2).
  await expect(page.getByRole('dialog', { name: MACHINE_NAME })).toBeVisible();
  await expect(dialog.getByText(TEXT.noCommands)).toBeVisible();
  const submitButton = dialog.getByRole('button', { name: LABELS.submitButton });
  const shown = dialog.getByRole('tabpanel');

  const submit = async (baseCommand: string, flags = '') => {
    await submitButton.click();
    const form = page.getByTestId('submit-restic-command-dialog');
    await form.getByLabel('base command').fill(baseCommand);
    if (flags) await form.getByLabel('Flags').fill(flags);
    await form.getByRole('button', { name: 'Submit' }).click();
    // The first submission's toast may still show (2 s): the newest is this one's.
    await expect(page.getByText(TEXT.submitted).last()).toBeVisible();
    await expect(form).toBeHidden();
  };

  // snapshots: its tab is selected, its output arrives line by line, then it finishes.
  await submit('snapshots');
  await expect(dialog.getByRole('tab', { name: 'snapshots', selected: true })).toBeVisible();
  await expect(shown.getByText('restic snapshots', { exact: true })).toBeVisible();
  await expect(shown.getByTestId('command-output')).toHaveValue(new RegExp(samples.replaceAll('/', '\\/')), {
    timeout: 30_000,
  });
  await expect(shown.getByTestId('status-badge')).toHaveAttribute('data-status', 'FINISHED_SUCCESS', {
    timeout: 30_000,
  });
  await expect(shown.getByTestId('exit-code')).toHaveText(MESSAGES.exitCodes.SUCCESS);

  // A long one: Submit waits while it runs; Stop ends it as cancelled.
  await submit('check', '--read-data --limit-download 1');
  await expect(dialog.getByRole('tab', { name: /check/, selected: true })).toBeVisible();
  await expect(shown.getByTestId('status-badge')).toHaveAttribute('data-status', 'IN_PROGRESS');
  await expect(submitButton).toBeDisabled();
  await shown.getByRole('button', { name: TEXT.stopButton }).click();
  const stop = page.getByTestId('stop-command-dialog');
  await stop.getByRole('button', { name: TEXT.stopButton }).click();
  await expect(page.getByText(TEXT.cancellationSubmitted)).toBeVisible();
  await expect(shown.getByTestId('status-badge')).toHaveAttribute('data-status', 'FAILED', { timeout: 30_000 });
  await expect(shown.getByTestId('exit-code')).toHaveText(MESSAGES.exitCodes.CANCELLATION_REQUESTED);
  await expect(submitButton).toBeEnabled();

  // Delete the finished snapshots command from its tab's icon.
  await dialog.getByRole('button', { name: `${LABELS.deleteIcon} snapshots` }).click();
  await page.getByTestId('delete-command-dialog').getByRole('button', { name: LABELS.deleteButton }).click();
  await expect(page.getByText(TEXT.deleted)).toBeVisible();
  await expect(dialog.getByRole('tab')).toHaveText(['check']);
  await expect(shown.getByText('restic check --read-data --limit-download 1', { exact: true })).toBeVisible();
});
