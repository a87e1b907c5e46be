import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { formatBytes, MACHINE_FORM_LABELS, MESSAGES, machineUrl, REALTIME_COMMAND_TEXTS } from '@portal/domain';
import { addSamplesTask, expectOnline, ownMachine, startTask } from './agent';
import { expectAccessible, signIn, signOut } from './helpers';
import { test } from './machine';

/**
 * Restic diagnostics (001 §2, §4; issue 14): a provider admin runs restic on a customer's real linked
 * agent from the machine page, watches the output stream in, stops a long command and deletes a finished
 * one. Then the machine page's other dialogs that reach the agent (001 §4, §5, §7): refresh storage space,
 * request upload of log files, view log files.
 */

// The second journey uses the machine's backup and the page the first one found.
test.describe.configure({ mode: 'serial' });

const PROVIDER = 'provider-admin@demo.test';
const TEXT = MESSAGES.resticCommand;
const LABELS = MESSAGES.resticDiagnostics;

/** The provider admin's address of the machine. */
let machinePage: string;

test('a provider admin runs restic on a real agent: output streams in, a long command is stopped, a finished one deleted', async ({
  page,
  samples,
  sharedMachine,
}) => {
  test.setTimeout(180_000);
  const { machineId, owner, name: machineName } = sharedMachine;

  // The owner's machine, its agent running.
  await signIn(page, owner);
  await expect(page).toHaveURL(/\/$/);
  const machineRow = () => ownMachine(page, machineId);
  await expectOnline(page, machineId);

  // One backup, so the repository exists with a snapshot (random data: it does not compress, so reading it
  // back at 1 KiB/s takes long enough to stop).
  for (let i = 0; i < 8; i++) writeFileSync(join(samples, `file-${i}.bin`), randomBytes(64 * 1024));
  const taskId = await addSamplesTask(page, machineId, {
    requestId: 'diag-e2e-new',
    name: 'Diagnostics samples',
    samples,
  });
  await startTask(page, machineId, 'diag-e2e-start', taskId);
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
  machinePage = machineUrl('provider', {
    customerId: machine.customerId,
    packageId: machine.backupPackageId,
    machineId,
  });
  await page.goto(machinePage);
  await expect(page.getByRole('heading', { name: machineName, level: 1 })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: LABELS.openButton }).click();
  const dialog = page.getByTestId('restic-diagnostics-dialog');
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  // The dialog is titled with the machine's name (001 §2).
  await expect(page.getByRole('dialog', { name: machineName })).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByText(TEXT.noCommands)).toBeVisible();
  const submitButton = dialog.getByRole('button', { name: LABELS.submitButton });
  const shown = dialog.getByRole('tabpanel');

  const submit = async (baseCommand: string, flags = '') => {
    await submitButton.click();
    const form = page.getByTestId('submit-restic-command-dialog');
    await expect(form).toBeVisible();
    await expectAccessible(page);
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

  // The issue 29 command (-vr is -v -r: another repository, then an sftp.command): refused on its field, not sent.
  await submitButton.click();
  const refusedForm = page.getByTestId('submit-restic-command-dialog');
  await expect(refusedForm).toBeVisible();
  await expectAccessible(page);
  await refusedForm.getByLabel('base command').fill('snapshots');
  await refusedForm.getByLabel('Flags').fill('-vr sftp:x@127.0.0.1:/x -vo sftp.command=/bin/sh');
  await refusedForm.getByRole('button', { name: 'Submit' }).click();
  await expect(refusedForm.getByText(REALTIME_COMMAND_TEXTS.flagNotAllowed('-r', 'snapshots', '-vr'))).toBeVisible();
  await refusedForm.getByRole('button', { name: 'Cancel' }).click();
  await expect(refusedForm).toBeHidden();
  await expect(dialog.getByRole('tab')).toHaveText(['snapshots']);

  // A long one: Submit waits while it runs; Stop ends it as cancelled.
  await submit('check', '--read-data --limit-download 1');
  await expect(dialog.getByRole('tab', { name: /check/, selected: true })).toBeVisible();
  await expect(shown.getByTestId('status-badge')).toHaveAttribute('data-status', 'IN_PROGRESS');
  await expect(submitButton).toBeDisabled();
  await shown.getByRole('button', { name: TEXT.stopButton }).click();
  const stop = page.getByTestId('stop-command-dialog');
  await expect(stop).toBeVisible();
  await expectAccessible(page);
  await stop.getByRole('button', { name: TEXT.stopButton }).click();
  await expect(page.getByText(TEXT.cancellationSubmitted)).toBeVisible();
  await expect(shown.getByTestId('status-badge')).toHaveAttribute('data-status', 'FAILED', { timeout: 30_000 });
  await expect(shown.getByTestId('exit-code')).toHaveText(MESSAGES.exitCodes.CANCELLATION_REQUESTED);
  await expect(submitButton).toBeEnabled();

  // Delete the finished snapshots command from the icon heading its tab's panel.
  await dialog.getByRole('tab', { name: 'snapshots' }).click();
  await dialog.getByRole('button', { name: `${LABELS.deleteIcon} snapshots` }).click();
  await expect(page.getByTestId('delete-command-dialog')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('delete-command-dialog').getByRole('button', { name: LABELS.deleteButton }).click();
  await expect(page.getByText(TEXT.deleted)).toBeVisible();
  await expect(dialog.getByRole('tab')).toHaveText(['check']);
  await expect(shown.getByText('restic check --read-data --limit-download 1', { exact: true })).toBeVisible();
});

test("the machine page's agent dialogs: storage space measured again, the agent's log file uploaded and read", async ({
  page,
  sharedMachine,
}) => {
  test.setTimeout(120_000);
  const MACHINE = MESSAGES.backupMachine;
  const { name: machineName, stateDir } = sharedMachine;
  await signIn(page, PROVIDER);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(machinePage);
  await expect(page.getByRole('heading', { name: machineName, level: 1 })).toBeVisible();
  await expectAccessible(page);

  // Nothing measured since linking; Refresh asks the agent, whose figure (restic stats) the page then shows.
  const usage = page.getByTestId('machine-details').getByTestId('usage-label');
  const nothingUsed = `Used: ${formatBytes(0)} of`;
  await expect(usage).toContainText(nothingUsed);
  await page.getByRole('button', { name: MACHINE.refreshStorageButton, exact: true }).click();
  const refresh = page.getByRole('dialog', { name: MACHINE.refreshStorageTitle });
  await expect(refresh).toBeVisible();
  await expectAccessible(page);
  await expect(refresh).toContainText(MACHINE.refreshStorageConfirm);
  await refresh.getByRole('button', { name: MACHINE.refreshStorageSubmit, exact: true }).click();
  await expect(page.getByText(MACHINE.storageRefreshing)).toBeVisible();
  await expect(refresh).toBeHidden();
  // The portal answers at once; the agent's measurement arrives when restic is done.
  await expect(async () => {
    await page.reload();
    await expect(usage).toHaveText(/^Used: /, { timeout: 5_000 });
    await expect(usage).not.toContainText(nothingUsed, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  // No log files yet; the agent uploads its own on request.
  const logFiles = page.getByRole('dialog', { name: MACHINE.logFilesTitle });
  await page.getByRole('button', { name: MACHINE.logFilesButton, exact: true }).click();
  await expect(logFiles).toBeVisible();
  await expectAccessible(page);
  await expect(logFiles).toContainText(MACHINE.noLogFiles);
  await logFiles.getByRole('button', { name: MACHINE.close, exact: true }).last().click();
  await expect(logFiles).toBeHidden();
  await page.getByRole('button', { name: MACHINE.logUploadButton, exact: true }).click();
  const upload = page.getByRole('dialog', { name: MACHINE.logUploadTitle });
  await expect(upload).toBeVisible();
  await expectAccessible(page);
  await expect(upload.getByLabel(MACHINE_FORM_LABELS.uploadupdaterfiles)).not.toBeChecked();
  await upload.getByRole('button', { name: MACHINE.logUploadSubmit, exact: true }).click();
  await expect(page.getByText(MACHINE.logUploadSubmitted)).toBeVisible();
  await expect(upload).toBeHidden();

  // The uploaded file is listed (once the agent has sent it) and downloads as the agent wrote it; the agent has
  // logged more since, so it is the start of the file on the machine.
  const logFile = logFiles.getByRole('link', { name: 'agent.log', exact: true });
  await expect(async () => {
    await page.reload();
    await page.getByRole('button', { name: MACHINE.logFilesButton, exact: true }).click();
    await expect(logFile).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const received = page.waitForEvent('download');
  await logFile.click();
  const downloaded = readFileSync(await (await received).path(), 'utf8');
  expect(downloaded).toContain('uploading the log files');
  expect(readFileSync(join(stateDir, 'logs', 'agent.log'), 'utf8').startsWith(downloaded)).toBe(true);
});
