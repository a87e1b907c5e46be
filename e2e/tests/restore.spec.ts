import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { MESSAGES, RESTORE_FORM_LABELS, runStatusBadge, taskUrl } from '@portal/domain';
import { addSamplesTask, expectOnline } from './agent';
import { expectAccessible, signIn } from './helpers';
import { test } from './machine';

/**
 * Restore to the machine (issue 14): a real agent backs up a folder; the customer opens the run's Restore dialog,
 * picks a folder of the snapshot and an empty folder in the machine's live folder tree, and sees the Restore action
 * finish; the restored files are byte for byte the backed-up ones, and what was not picked is not restored.
 */

const TASK_NAME = 'Restore samples';
const TEXT = MESSAGES.restore;

test('a customer restores a backed-up folder to a new folder on the machine and sees the restore finish', async ({
  page,
  machineDir: dir,
  sharedMachine,
}) => {
  test.setTimeout(180_000);
  const { machineId } = sharedMachine;

  const samples = join(dir, 'samples');
  const docs = join(samples, 'docs');
  mkdirSync(join(docs, 'deep'), { recursive: true });
  writeFileSync(join(docs, 'report.bin'), randomBytes(2 * 1024 * 1024));
  writeFileSync(join(docs, 'deep', 'notes.txt'), 'restore me\n'.repeat(500));
  writeFileSync(join(samples, 'left-alone.txt'), 'not chosen\n');

  await signIn(page, sharedMachine.owner);
  await expectOnline(page, machineId);
  const taskId = await addSamplesTask(page, machineId, { requestId: 'restore-e2e-new', name: TASK_NAME, samples });
  await page.goto(taskUrl('customer', { machineId, taskId }));
  await expect(page.getByRole('heading', { name: TASK_NAME })).toBeVisible({ timeout: 15_000 });

  // A backup to restore from.
  await page.getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByTestId('run-task-dialog')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('run-task-dialog').getByRole('button', { name: 'Run now' }).click();
  const runs = page.getByTestId('runs-table');
  await expect(runs.locator('tbody tr').first()).toContainText(runStatusBadge('FINISHED_SUCCESS').text, {
    timeout: 60_000,
  });

  // Restore: the docs folder of the snapshot, below a new folder of the machine.
  await runs.locator('tbody tr').first().getByRole('button', { name: TEXT.restoreButton }).click();
  const dialog = page.getByTestId('restore-dialog');
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog).toContainText(TEXT.restoreTitle);
  for (const folder of samples.split('/').filter(Boolean)) {
    await dialog.getByRole('button', { name: `Expand ${folder}`, exact: true }).click();
  }
  await dialog.getByLabel('docs', { exact: true }).check();
  await dialog.getByLabel(TEXT.restoreTargetOriginal).check();
  await expect(dialog).toContainText(TEXT.restoreOverwriteWarning);
  await dialog.getByLabel(TEXT.restoreTargetFolder).check();
  // The target is picked in the machine's live folder tree: the journey's folder, then a new folder typed below it.
  const folders = dialog.getByTestId('tree-picker');
  const [journeyFolder, ...above] = dir.split('/').filter(Boolean).reverse();
  for (const folder of above.reverse()) {
    await folders.getByRole('button', { name: `Open ${folder}`, exact: true }).click();
  }
  await folders.getByLabel(journeyFolder ?? '', { exact: true }).check();
  const targetField = dialog.getByLabel(RESTORE_FORM_LABELS.targetFolder);
  await expect(targetField).toHaveValue(dir);
  const target = join(dir, 'restored');
  await targetField.fill(target);
  await dialog.getByRole('button', { name: TEXT.restoreSubmit }).click();
  await expect(page.getByText(TEXT.restoreStarted)).toBeVisible();

  // The actions table now lists restores; this one finishes without a reload.
  await expect(page.getByRole('combobox', { name: 'Action type' })).toHaveValue('BACKUP_RESTORE');
  const restoreRow = runs.locator('tbody tr').first();
  await expect(restoreRow).toContainText(runStatusBadge('FINISHED_SUCCESS').text, { timeout: 60_000 });
  await expect(restoreRow.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

  const restored = join(target, docs);
  // Until the table has refetched, its first row may still be the backup run (also finished, at 100 %): the
  // restore is done when its files are on the machine.
  await expect.poll(() => existsSync(join(restored, 'report.bin')), { timeout: 60_000 }).toBe(true);
  expect(readdirSync(restored).sort()).toEqual(['deep', 'report.bin']);
  for (const file of ['report.bin', join('deep', 'notes.txt')]) {
    expect(readFileSync(join(restored, file)).equals(readFileSync(join(docs, file))), file).toBe(true);
  }
  expect(existsSync(join(target, samples, 'left-alone.txt'))).toBe(false);
});
