import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { FILE_SEARCH_TEXTS, MESSAGES, runStatusBadge, taskUrl } from '@portal/domain';
import { addSamplesTask, expectOnline, startTask } from './agent';
import { signIn } from './helpers';
import { test } from './machine';
import { zipFiles } from './zip';

/**
 * Find a file in any snapshot (issue 31 item 2): a real agent backs a folder up twice, the file changing between
 * the runs; the customer searches the task's snapshots by a name pattern, sees the file of each snapshot stream in,
 * opens its history and downloads the older version from it.
 */

const T = FILE_SEARCH_TEXTS;
const FINISHED = runStatusBadge('FINISHED_SUCCESS').text;

test('a customer finds a file in two snapshots, opens its history and downloads the older version', async ({
  page,
  machineDir: dir,
  sharedMachine,
}) => {
  test.setTimeout(120_000);
  const { machineId } = sharedMachine;
  const samples = join(dir, 'samples');
  mkdirSync(join(samples, 'reports'), { recursive: true });
  const report = join(samples, 'reports', 'Quarterly-Report.txt');
  writeFileSync(report, 'first version\n');
  writeFileSync(join(samples, 'unrelated.txt'), 'not a match\n');

  await signIn(page, sharedMachine.owner);
  await expectOnline(page, machineId);
  const taskId = await addSamplesTask(page, machineId, {
    requestId: 'file-search-e2e',
    name: 'Search samples',
    samples,
  });
  await page.goto(taskUrl('customer', { machineId, taskId }));
  const runs = page.getByTestId('runs-table').locator('tbody tr');
  for (const [count, content] of [
    [1, null],
    [2, 'second version, longer\n'],
  ] as const) {
    if (content) writeFileSync(report, content);
    await startTask(page, machineId, `file-search-run-${count}`, taskId);
    await expect(runs).toHaveCount(count, { timeout: 30_000 });
    await expect(runs.first()).toContainText(FINISHED, { timeout: 60_000 });
  }

  // The search: case ignored, both snapshots' copies stream in, newest first, with their sizes.
  const search = page.getByTestId('file-search');
  await search.getByLabel(T.searchLabel).fill('*report*.txt');
  await expect(search.getByTestId('file-search-submit')).toBeEnabled();
  await search.getByTestId('file-search-submit').click();
  const results = search.getByTestId('file-search-results').locator('tbody tr');
  await expect(results).toHaveCount(2, { timeout: 30_000 });
  await expect(search.getByTestId('file-search-status')).toContainText(T.found(2));
  await expect(results.first()).toContainText(report);
  await expect(results.first()).toContainText('23 B');
  await expect(results.nth(1)).toContainText('14 B');

  // Its history: every snapshot holding the path; the older one's download has the file chosen.
  await results.first().getByRole('button', { name: T.historyButton }).click();
  const history = page.getByTestId('file-history');
  await expect(history).toContainText(T.historyTitle(report));
  const versions = history.getByTestId('file-history-table').locator('tbody tr');
  await expect(versions).toHaveCount(2, { timeout: 30_000 });
  await versions.nth(1).getByRole('button', { name: MESSAGES.restore.downloadButton, exact: true }).click();
  const dialog = page.getByTestId('download-dialog');
  const received = page.waitForEvent('download', { timeout: 30_000 });
  await dialog.getByRole('button', { name: MESSAGES.restore.downloadButton, exact: true }).click();
  await expect(page.getByText(MESSAGES.task.downloadStarting)).toBeVisible();
  const zip = zipFiles(readFileSync(await (await received).path()));
  expect([...zip.keys()]).toEqual([report.replace(/^\//, '')]);
  expect(zip.get(report.replace(/^\//, ''))?.toString()).toBe('first version\n');
});
