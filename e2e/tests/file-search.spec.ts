import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { FILE_SEARCH_TEXTS, MESSAGES } from '@portal/domain';
import { backUpNow, openSamplesTask } from './agent';
import { test } from './machine';
import { zipFiles } from './zip';

/**
 * Find a file in any snapshot (issue 31 item 2): a real agent backs a folder up twice, the file changing between
 * the runs; the customer searches the task's snapshots by a name pattern, sees the file of each snapshot stream in,
 * opens its history and downloads the older version from it.
 */

const T = FILE_SEARCH_TEXTS;

test('a customer finds a file in two snapshots, opens its history and downloads the older version', async ({
  page,
  samples,
  sharedMachine,
}) => {
  test.setTimeout(120_000);
  mkdirSync(join(samples, 'reports'));
  const report = join(samples, 'reports', 'Quarterly-Report.txt');
  writeFileSync(report, 'first version\n');
  writeFileSync(join(samples, 'unrelated.txt'), 'not a match\n');

  const taskId = await openSamplesTask(page, sharedMachine, {
    requestId: 'file-search-e2e',
    name: 'Search samples',
    samples,
  });
  await backUpNow(page, sharedMachine, taskId, { requestId: 'file-search-run-1', count: 1 });
  writeFileSync(report, 'second version, longer\n');
  await backUpNow(page, sharedMachine, taskId, { requestId: 'file-search-run-2', count: 2 });

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
