import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import {
  type AggregateTaskStatus,
  aggregateStatusBadge,
  DASHBOARD_PIES,
  type DashboardMachineCounts,
  type DashboardMachineRow,
  MESSAGES,
  pieSliceOf,
  ROUTES,
} from '@portal/domain';
import { addSamplesTask, linkAgent, ownMachine, startTask } from './agent';
import { jsonResult, signIn } from './helpers';
import { test } from './machine';

/**
 * The live dashboard (issue #5): a real agent, linked with the CLI as a user would, runs a real restic
 * backup; the open dashboard shows the machine online and, when the run finishes, its row and pies
 * change within 2 seconds without a page reload. The machine is its own, not the shared one: the journey
 * watches a machine that has never been online nor finished a task.
 */

const EMAIL = 'customer-admin@demo.test';
/** Sorted first by name, so it is on the machines table's first page. */
const MACHINE_NAME = 'AA-LIVE-AGENT';
const TEXT = MESSAGES.dashboard;

test('a real agent: the machine comes online, and a finished run changes its row and the pies without a reload', async ({
  page,
  context,
  machineDir,
  samples,
  startAgent,
}) => {
  test.setTimeout(120_000);
  const baseURL = test.info().project.use.baseURL as string;

  // The machine's owner links it with the agent's CLI, then starts the agent.
  const config = join(machineDir, 'config.json');
  const { machineId } = linkAgent({ baseURL, email: EMAIL, name: MACHINE_NAME, config });

  await signIn(page, EMAIL);
  await expect(page).toHaveURL(/\/$/);
  const machines = page.getByRole('tabpanel').getByRole('table', { name: 'Contoso Ltd machines', exact: true });
  const row = machines.locator('tbody tr').filter({ hasText: MACHINE_NAME });
  await expect(row.getByRole('img', { name: TEXT.offline })).toBeVisible();
  // Anything below must happen without a navigation: this mark would be gone after one.
  await page.evaluate(() => {
    (window as unknown as { liveMark: string }).liveMark = 'same page';
  });

  startAgent(config);
  await expect(row.getByRole('img', { name: TEXT.online })).toBeVisible({ timeout: 10_000 });

  // A task on a sample folder, started now ("Run now"), from a second tab as the task editor would.
  for (let i = 0; i < 20; i++) writeFileSync(join(samples, `file-${i}.txt`), `sample ${i}\n`.repeat(500));
  const editor = await context.newPage();
  await editor.goto('/');
  const taskId = await addSamplesTask(editor, machineId, { requestId: 'live-e2e-new', name: 'Live samples', samples });
  const pending = aggregateStatusBadge('NO_COMPLETED_TASKS').text;
  await expect(row).toContainText(pending, { timeout: 2_000 });

  await startTask(editor, machineId, 'live-e2e-start', taskId);

  // The portal records the run's end (polled through the API); the open page must follow within 2 s.
  let finished: DashboardMachineRow | undefined;
  await expect
    .poll(
      async () => {
        const row = await ownMachine(page, machineId);
        finished = row && !row.tasksInProgress && row.taskStatus !== 'NO_COMPLETED_TASKS' ? row : undefined;
        return finished?.taskStatus;
      },
      { timeout: 60_000, intervals: [100] },
    )
    .toBeDefined();
  const status = finished?.taskStatus as AggregateTaskStatus;
  expect(status).toBe('SUCCESSFUL_TASKS');
  await expect(row).toContainText(aggregateStatusBadge(status).text, { timeout: 2_000 });
  await expect(row.getByTestId('tasks-in-progress')).toHaveCount(0, { timeout: 2_000 });

  const counts = await jsonResult<DashboardMachineCounts>(page, ROUTES.dashboard.ownMachineCounts.build());
  const slice = pieSliceOf(DASHBOARD_PIES.machineTaskStatus, status);
  if (!slice) throw new Error(`no slice for ${status}`);
  const expected = slice.statuses.reduce((sum, s) => sum + (counts.taskStatus[s] ?? 0), 0);
  const legend = page.getByRole('list', { name: `${DASHBOARD_PIES.machineTaskStatus.title} legend` });
  await expect(legend.getByRole('listitem').filter({ hasText: slice.label })).toHaveText(
    new RegExp(`^\\s*${slice.label}\\s*${expected}\\s*$`),
    { timeout: 2_000 },
  );
  expect(await page.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe('same page');
});
