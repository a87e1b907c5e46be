import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import {
  type DashboardMachineRow,
  type Envelope,
  MESSAGES,
  machineQueue,
  newTaskForm,
  type Paged,
  ROUTES,
  runStatusBadge,
  WS_SEND_PREFIXES,
} from '@portal/domain';
import { DEMO_PASSWORD } from '../playwright.config';
import { signIn } from './helpers';

/**
 * The task page (issue 14): a real agent, linked with the CLI, backs up a sample folder. The customer
 * opens the task from the dashboard's tasks tab, runs it now, watches it finish and its snapshot appear,
 * pauses and unpauses it and deletes it with its typed name; another tenant's task address is not found.
 */

const AGENT = join(import.meta.dirname, '../../apps/agent/dist/agent.mjs');
const EMAIL = 'customer-admin@demo.test';
const MACHINE_NAME = 'AA-TASKS-AGENT';
const TASK_NAME = 'Task page samples';
const TEXT = MESSAGES.task;

let dir: string;
let agent: ChildProcess | undefined;

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-tasks-e2e-'));
});

test.afterAll(() => {
  if (agent?.pid !== undefined) agent.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Creates the task as the task editor does (002 §7.8 newtask); the editor itself is another journey's. */
async function newTask(page: Page, machineId: number, body: object) {
  const requestId = 'tasks-e2e-new';
  const reply = await page.evaluate(
    ({ endpoint, queue, destination, payload }) =>
      new Promise<string>((resolve, reject) => {
        const NUL = '\u0000';
        const socket = new WebSocket(`ws://${location.host}${endpoint}`, ['v12.stomp']);
        const timer = setTimeout(() => reject(new Error('no reply in 20 s')), 20_000);
        socket.onopen = () => socket.send(`CONNECT\naccept-version:1.2\nhost:${location.host}\n\n${NUL}`);
        socket.binaryType = 'arraybuffer';
        socket.onmessage = (event) => {
          const frame = typeof event.data === 'string' ? event.data : new TextDecoder().decode(event.data);
          const body = frame.slice(frame.indexOf('\n\n') + 2, frame.lastIndexOf(NUL));
          if (frame.startsWith('CONNECTED')) {
            socket.send(`SUBSCRIBE\nid:0\ndestination:${queue}\nreceipt:subscribed\n\n${NUL}`);
          } else if (frame.startsWith('RECEIPT')) {
            socket.send(`SEND\ndestination:${destination}\ncontent-type:application/json\n\n${payload}${NUL}`);
          } else if (frame.startsWith('MESSAGE')) {
            clearTimeout(timer);
            socket.close();
            resolve((JSON.parse(body) as { responsePayloadJson: string }).responsePayloadJson);
          }
        };
      }),
    {
      endpoint: ROUTES.live.customer.build(),
      queue: machineQueue('customer', machineId),
      destination: `${WS_SEND_PREFIXES.customer}/backupmachines/${machineId}/newtask`,
      payload: JSON.stringify({ ...newTaskForm(requestId), ...body }),
    },
  );
  return JSON.parse(reply) as { success: boolean; messages: { message: string }[] };
}

test("a customer runs, watches, pauses and deletes a task on its page; another tenant's task is not found", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const baseURL = test.info().project.use.baseURL as string;

  const config = join(dir, 'config.json');
  const link = (extra: string[]) =>
    spawnSync(
      process.execPath,
      [
        AGENT,
        'link',
        '--server',
        baseURL,
        '--email',
        EMAIL,
        '--password-stdin',
        '--name',
        MACHINE_NAME,
        '--config',
        config,
        ...extra,
      ],
      { input: `${DEMO_PASSWORD}\n`, encoding: 'utf8' },
    );
  const asked = link([]);
  const packageId = /(\d+) \(Head office\)/.exec(asked.stderr)?.[1];
  expect(packageId, asked.stderr).toBeDefined();
  const linked = link(['--package', packageId as string]);
  expect(linked.status, linked.stderr).toBe(0);
  const { machineId } = JSON.parse(readFileSync(config, 'utf8')) as { machineId: number };
  agent = spawn(process.execPath, [AGENT, 'run', '--config', config], { stdio: 'ignore' });

  const samples = join(dir, 'samples');
  mkdirSync(samples, { recursive: true });
  for (let i = 0; i < 40; i++) writeFileSync(join(samples, `file-${i}.txt`), `sample ${i}\n`.repeat(2000));

  await signIn(page, EMAIL);
  await expect(page).toHaveURL(/\/$/);
  await expect
    .poll(
      async () => {
        const answer = (await (
          await page.request.get(`${ROUTES.dashboard.ownMachines.build()}?size=100`)
        ).json()) as Envelope<Paged<DashboardMachineRow>>;
        return answer.result?.elements.find((m) => m.id === machineId)?.online;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const created = await newTask(page, machineId, {
    name: TASK_NAME,
    backupScheduleDefinition: '0 2 * * *',
    backupItems: [{ path: samples, name: 'samples', type: 'DIRECTORY', missing: false }],
  });
  expect(created.success, JSON.stringify(created.messages)).toBe(true);

  // From the dashboard's tasks tab to the task page.
  await page.reload();
  const machines = page.getByRole('tabpanel').getByRole('table', { name: 'Contoso Ltd machines', exact: true });
  await machines.getByRole('button', { name: `Select ${MACHINE_NAME}` }).click();
  const tasks = page.getByRole('table', { name: `${MACHINE_NAME} tasks`, exact: true });
  await tasks.getByRole('link', { name: `Manage ${TASK_NAME}` }).click();
  await expect(page.getByRole('heading', { name: TASK_NAME })).toBeVisible({ timeout: 15_000 });
  const runs = page.getByTestId('runs-table');
  await expect(runs).toContainText(TEXT.noItems);

  // Run now: the run appears, moves and finishes without a reload; its snapshot appears.
  await page.evaluate(() => {
    (window as unknown as { taskMark: string }).taskMark = 'same page';
  });
  await page.getByRole('button', { name: 'Run now' }).click();
  const runDialog = page.getByTestId('run-task-dialog');
  await expect(runDialog).toContainText(TEXT.runDialogTitle);
  await runDialog.getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByText(TEXT.beingStarted)).toBeVisible();
  const firstRun = runs.locator('tbody tr').first();
  await expect(firstRun.getByRole('progressbar')).toBeVisible({ timeout: 30_000 });
  await expect(firstRun).toContainText(runStatusBadge('FINISHED_SUCCESS').text, { timeout: 60_000 });
  await expect(firstRun.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('snapshots-table').locator('tbody tr').getByTestId('usage-bar')).toHaveCount(1, {
    timeout: 15_000,
  });
  expect(await page.evaluate(() => (window as unknown as { taskMark?: string }).taskMark)).toBe('same page');

  // Pause, then unpause (the page refreshes 8 s after each, 002 §9).
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.getByTestId('pause-task-dialog').getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByText(TEXT.paused, { exact: true })).toBeVisible();
  await expect(page.getByTestId('task-summary')).toContainText('PAUSED', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Unpause', exact: true }).click();
  await page.getByTestId('pause-task-dialog').getByRole('button', { name: 'Unpause', exact: true }).click();
  await expect(page.getByText(TEXT.unpaused, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible({ timeout: 20_000 });

  // Delete with the typed task name: a wrong name is refused, the right one deletes, then the machine's page.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const deleteDialog = page.getByTestId('delete-task-dialog');
  await deleteDialog.getByRole('textbox').fill('wrong name');
  await deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(deleteDialog).toContainText(MESSAGES.confirmByName.taskDeletion);
  await deleteDialog.getByRole('textbox').fill(TASK_NAME);
  await deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText(TEXT.beingDeleted)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/backupmachines/${machineId}$`), { timeout: 20_000 });

  // Another tenant's machine: its task address shows the not-found page.
  const own = (await (await page.request.get(`${ROUTES.dashboard.ownMachines.build()}?size=100`)).json()) as Envelope<
    Paged<DashboardMachineRow>
  >;
  const ownIds = new Set(own.result?.elements.map((m) => m.id));
  let foreign = 1;
  while (ownIds.has(foreign)) foreign += 1;
  await page.goto(`/backupmachines/${foreign}/backuptasks/1`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible({ timeout: 15_000 });
});
