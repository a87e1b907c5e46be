import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { GUARDRAIL_TEXTS, runStatusBadge, TASK_FORM_LABELS, TASK_FORM_TEXTS } from '@portal/domain';
import { openSamplesTask, saveTaskForm, startTask } from './agent';
import { expectAccessible } from './helpers';
import { test } from './machine';

const TEXT = GUARDRAIL_TEXTS;
/** Files the folder holds: enough for the share rule (at least 200 changed). */
const FILES = 220;

/** Writes every file of the folder with `version` in it (all changed since the last version). */
function writeFiles(folder: string, version: string) {
  for (let i = 0; i < FILES; i++) writeFileSync(join(folder, `doc-${i}.txt`), `${version}: document ${i}\n`);
}

/** Runs the task now and waits for its run on the task page: `count` runs, the newest finished well. */
async function runAndWait(page: Page, machineId: number, taskId: number, count: number) {
  await startTask(page, machineId, `guardrails-e2e-run-${count}`, taskId);
  const rows = page.getByTestId('runs-table').locator('tbody tr');
  await expect(async () => {
    await page.reload();
    await expect(rows).toHaveCount(count, { timeout: 2_000 });
    await expect(rows.first()).toContainText(runStatusBadge('FINISHED_SUCCESS').text, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  return rows.first();
}

/**
 * Guard rails (issue 32 items 7 and 8) on the shared machine's real agent: a task backs up a folder, then every file
 * of it is rewritten (as ransomware encrypting in place would); the run is marked unusual and holds retention. In the
 * task dialog a smaller snapshots-to-keep previews what the next retention would forget, and a snapshot is pinned out
 * of it; the customer's admin acknowledges the run and the hold goes.
 */
test('an unusual run holds retention; the dialog previews what retention would forget; a pin; the acknowledgement', async ({
  page,
  samples,
  sharedMachine,
}) => {
  test.setTimeout(150_000);
  const { machineId } = sharedMachine;
  writeFiles(samples, 'first');

  const taskId = await openSamplesTask(page, sharedMachine, { requestId: 'guardrails-e2e', name: 'Guarded', samples });
  const first = await runAndWait(page, machineId, taskId, 1);
  await expect(first).not.toContainText(TEXT.unusualBadge);

  // Every file rewritten: the next run changed all the files restic had seen.
  writeFiles(samples, 'encrypted');
  const unusual = await runAndWait(page, machineId, taskId, 2);
  await expect(unusual).toContainText(TEXT.unusualBadge);
  // The portal marks the run, then holds the task's retention: the hold shows once the page asks for the task after
  // that (a page loaded between the two shows the mark alone).
  const hold = page.getByTestId('change-hold');
  await expect(async () => {
    await page.reload();
    await expect(hold).toContainText(TEXT.holdTitle, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expectAccessible(page);

  // The dialog: one snapshot to keep instead of all; retention would forget the first run's, and says it is held.
  await page.getByRole('button', { name: TASK_FORM_TEXTS.editButton }).click();
  const dialog = page.getByTestId('task-form-dialog');
  await dialog.getByLabel(TASK_FORM_TEXTS.snapshotsUnlimited).uncheck();
  await dialog.getByLabel(TASK_FORM_LABELS.numberOfSnapshotsToKeep).fill('1');
  const preview = dialog.getByTestId('retention-preview');
  await expect(preview).toContainText(TEXT.previewHeld);
  await expect(preview.getByTestId('preview-snapshot')).toHaveCount(1);
  await preview.getByRole('button', { name: TEXT.pin }).click();
  await expect(page.getByText(TEXT.pinned)).toBeVisible();
  await expect(preview).toContainText(TEXT.previewNone);
  await expect(preview).toContainText(TEXT.previewCounts(2, 1));
  await saveTaskForm(page);

  // The customer's admin acknowledges the run: the hold goes and the run's mark says so.
  await hold.getByRole('button', { name: TEXT.acknowledge }).click();
  await expect(page.getByText(TEXT.acknowledged)).toBeVisible();
  await expect(hold).toHaveCount(0);
  await expect(page.getByTestId('runs-table').locator('tbody tr').first()).toContainText(TEXT.acknowledgedBadge);
});
