import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import {
  MESSAGES,
  RESTORE_CONFLICT_TEXTS,
  RESTORE_END_TEXTS,
  RESTORE_FORM_LABELS,
  type RestoreConflictChoice,
  type RestoreSummary,
  restoreSummaryText,
  runStatusBadge,
} from '@portal/domain';
import { openSamplesTask } from './agent';
import { expectAccessible } from './helpers';
import { test } from './machine';

/**
 * Restore to the machine (issue 14): a real agent backs up a folder; the customer opens the run's Restore dialog,
 * picks a folder of the snapshot and an empty folder in the machine's live folder tree, and sees the Restore action
 * finish; the restored files are byte for byte the backed-up ones, and what was not picked is not restored. Then
 * (issue 31) everything is restored again over files changed on the machine with each choice for existing files:
 * skip, keep both and overwrite, each ending with a toast and a row that give its summary.
 */

const TASK_NAME = 'Restore samples';
const TEXT = MESSAGES.restore;

test('a customer restores a backed-up folder to a new folder on the machine, then over it with each choice for existing files', async ({
  page,
  machineDir: dir,
  samples,
  sharedMachine,
}) => {
  test.setTimeout(180_000);
  const docs = join(samples, 'docs');
  mkdirSync(join(docs, 'deep'), { recursive: true });
  writeFileSync(join(docs, 'report.bin'), randomBytes(2 * 1024 * 1024));
  writeFileSync(join(docs, 'deep', 'notes.txt'), 'restore me\n'.repeat(500));
  writeFileSync(join(samples, 'left-alone.txt'), 'not chosen\n');

  await openSamplesTask(page, sharedMachine, { requestId: 'restore-e2e-new', name: TASK_NAME, samples });
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
  await expect(dialog.getByLabel(RESTORE_CONFLICT_TEXTS.KEEP_BOTH)).toBeChecked();
  await dialog.getByLabel(RESTORE_CONFLICT_TEXTS.OVERWRITE).check();
  await expect(dialog).toContainText(TEXT.restoreOverwriteWarning);
  await dialog.getByLabel(RESTORE_CONFLICT_TEXTS.KEEP_BOTH).check();
  await dialog.getByLabel(TEXT.restoreTargetFolder).check();
  // The target is picked in the machine's live folder tree: the journey's folder, then a new folder typed below it.
  const folders = dialog.getByTestId('tree-picker');
  const [journeyFolder, ...above] = dir.split('/').filter(Boolean).reverse();
  for (const folder of above.reverse()) {
    await folders.getByRole('button', { name: `Open ${folder}`, exact: true }).click();
  }
  // One folder: radio buttons.
  await folders.getByRole('radio', { name: journeyFolder ?? '', exact: true }).check();
  const targetField = dialog.getByLabel(RESTORE_FORM_LABELS.targetFolder);
  await expect(targetField).toHaveValue(dir);
  const target = join(dir, 'restored');
  await targetField.fill(target);
  await dialog.getByRole('button', { name: TEXT.restoreSubmit }).click();
  await expect(page.getByText(TEXT.restoreStarted)).toBeVisible();
  const report = readFileSync(join(docs, 'report.bin'));
  const notes = readFileSync(join(docs, 'deep', 'notes.txt'));
  const bothBytes = report.length + notes.length;
  await expectRestoreEnd({ filesRestored: 2, bytesRestored: bothBytes, filesRenamed: 0, filesSkipped: 0, errors: 0 });

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

  /** Restores everything of the backup run below the target again, with the choice for existing files. */
  async function restoreAll(existingFiles: RestoreConflictChoice, summary: RestoreSummary) {
    await page.getByRole('combobox', { name: 'Action type' }).selectOption('BACKUP_RUN');
    await runs.locator('tbody tr').first().getByRole('button', { name: TEXT.restoreButton }).click();
    await dialog.getByLabel(TEXT.restoreAll).check();
    await dialog.getByLabel(RESTORE_FORM_LABELS.targetFolder).fill(target);
    await dialog.getByLabel(RESTORE_CONFLICT_TEXTS[existingFiles]).check();
    await dialog.getByRole('button', { name: TEXT.restoreSubmit }).click();
    await expectRestoreEnd(summary);
  }

  /** The toast and the restore's row say it finished, with its summary. */
  async function expectRestoreEnd(summary: RestoreSummary) {
    await expect(page.getByText(RESTORE_END_TEXTS.finished(summary))).toBeVisible({ timeout: 60_000 });
    await expect(runs.locator('tbody tr').first().getByTestId('restore-summary')).toHaveText(
      restoreSummaryText(summary),
    );
  }

  // The machine's copy changes: report.bin edited, notes.txt gone.
  const machineReport = join(restored, 'report.bin');
  writeFileSync(machineReport, 'changed on the machine\n');
  rmSync(join(restored, 'deep', 'notes.txt'));
  const leftAlone = readFileSync(join(samples, 'left-alone.txt'));

  // Skip: the changed file stays, the missing ones come back.
  await restoreAll('SKIP', {
    filesRestored: 2,
    bytesRestored: notes.length + leftAlone.length,
    filesRenamed: 0,
    filesSkipped: 1,
    errors: 0,
  });
  expect(readFileSync(machineReport, 'utf8')).toBe('changed on the machine\n');
  expect(readFileSync(join(restored, 'deep', 'notes.txt')).equals(notes)).toBe(true);
  expect(readFileSync(join(target, samples, 'left-alone.txt')).equals(leftAlone)).toBe(true);

  // Keep both: every file is there, so each restored one gets a new name beside it.
  const all = { filesRestored: 3, bytesRestored: bothBytes + leftAlone.length, filesSkipped: 0, errors: 0 };
  await restoreAll('KEEP_BOTH', { ...all, filesRenamed: 3 });
  expect(readFileSync(machineReport, 'utf8')).toBe('changed on the machine\n');
  const kept = readdirSync(restored).filter((name) => name !== 'report.bin' && name.startsWith('report'));
  expect(kept).toEqual([expect.stringMatching(/^report \(restored \d{4}-\d\d-\d\d \d{4}\)\.bin$/)]);
  expect(readFileSync(join(restored, kept[0] ?? '')).equals(report)).toBe(true);

  // Overwrite: the machine's changed file is the backed-up one again.
  await restoreAll('OVERWRITE', { ...all, filesRenamed: 0 });
  expect(readFileSync(machineReport).equals(report)).toBe(true);
  expect(readdirSync(restored).filter((name) => name.startsWith('.portal-restore-'))).toEqual([]);
});
