import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import {
  type AggregateTaskStatus,
  aggregateStatusBadge,
  DASHBOARD_PIES,
  type DashboardMachineCounts,
  type DashboardMachineRow,
  type DashboardTaskRow,
  type Envelope,
  MESSAGES,
  machineQueue,
  newTaskForm,
  type Paged,
  pieSliceOf,
  ROUTES,
  WS_SEND_PREFIXES,
} from '@portal/domain';
import { DEMO_PASSWORD } from '../playwright.config';
import { signIn } from './helpers';

/**
 * The live dashboard (issue #5): a real agent, linked with the CLI as a user would, runs a real restic
 * backup; the open dashboard shows the machine online and, when the run finishes, its row and pies
 * change within 2 seconds without a page reload.
 */

const AGENT = join(import.meta.dirname, '../../apps/agent/dist/agent.mjs');
const EMAIL = 'customer-admin@demo.test';
/** Sorted first by name, so it is on the machines table's first page. */
const MACHINE_NAME = 'AA-LIVE-AGENT';
const TEXT = MESSAGES.dashboard;

let dir: string;
let agent: ChildProcess | undefined;

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-live-e2e-'));
});

test.afterAll(() => {
  if (agent?.pid !== undefined) agent.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A task command the way the task editor sends it (002 §7.8): over the live channel, answered by requestId. */
async function taskCommand(page: Page, machineId: number, command: string, requestId: string, body: object) {
  const reply = await page.evaluate(
    ({ endpoint, queue, destination, payload, requestId }) =>
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
            const message = JSON.parse(body) as { requestId?: string; responsePayloadJson: string };
            if (message.requestId !== requestId) return;
            clearTimeout(timer);
            socket.close();
            resolve(message.responsePayloadJson);
          } else if (frame.startsWith('ERROR')) {
            clearTimeout(timer);
            reject(new Error(frame));
          }
        };
      }),
    {
      endpoint: ROUTES.live.customer.build(),
      queue: machineQueue('customer', machineId),
      destination: `${WS_SEND_PREFIXES.customer}/backupmachines/${machineId}/${command}`,
      payload: JSON.stringify(body),
      requestId,
    },
  );
  return JSON.parse(reply) as { success: boolean; messages: { message: string }[] };
}

async function apiResult<T>(page: Page, path: string): Promise<T> {
  const answer = (await (await page.request.get(path)).json()) as Envelope<T>;
  if (answer.result === undefined || answer.result === null) throw new Error(`no result from ${path}`);
  return answer.result;
}

test('a real agent: the machine comes online, and a finished run changes its row and the pies without a reload', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const baseURL = test.info().project.use.baseURL as string;

  // The machine's owner links it with the agent's CLI, then starts the agent.
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
  // The admin may use two packages: the agent says which, and the admin picks one, as on a real machine.
  const asked = link([]);
  expect(asked.status).not.toBe(0);
  const packageId = /(\d+) \(Head office\)/.exec(asked.stderr)?.[1];
  expect(packageId, asked.stderr).toBeDefined();
  const linked = link(['--package', packageId as string]);
  expect(linked.status, linked.stderr).toBe(0);
  const { machineId } = JSON.parse(readFileSync(config, 'utf8')) as { machineId: number };

  await signIn(page, EMAIL);
  await expect(page).toHaveURL(/\/$/);
  const machines = page.getByRole('tabpanel').getByRole('table', { name: 'Contoso Ltd machines', exact: true });
  const row = machines.locator('tbody tr').filter({ hasText: MACHINE_NAME });
  await expect(row.getByRole('img', { name: TEXT.offline })).toBeVisible();
  // Anything below must happen without a navigation: this mark would be gone after one.
  await page.evaluate(() => {
    (window as unknown as { liveMark: string }).liveMark = 'same page';
  });

  agent = spawn(process.execPath, [AGENT, 'run', '--config', config], { stdio: 'ignore' });
  await expect(row.getByRole('img', { name: TEXT.online })).toBeVisible({ timeout: 10_000 });

  // A task on a sample folder, started now ("Run now"), from a second tab as the task editor would.
  const samples = join(dir, 'samples');
  mkdirSync(samples, { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(samples, `file-${i}.txt`), `sample ${i}\n`.repeat(500));
  const editor = await context.newPage();
  await editor.goto('/');
  const created = await taskCommand(editor, machineId, 'newtask', 'live-e2e-new', {
    ...newTaskForm('live-e2e-new'),
    name: 'Live samples',
    backupScheduleDefinition: '0 2 * * *',
    backupItems: [{ path: samples, name: 'samples', type: 'DIRECTORY', missing: false }],
  });
  expect(created.success, JSON.stringify(created.messages)).toBe(true);
  const tasks = await apiResult<Paged<DashboardTaskRow>>(
    page,
    ROUTES.dashboard.machineTasks.build({ machineId: machineId }),
  );
  const taskId = tasks.elements[0]?.id;
  expect(taskId).toBeDefined();
  const pending = aggregateStatusBadge('NO_COMPLETED_TASKS').text;
  await expect(row).toContainText(pending, { timeout: 2_000 });

  const started = await taskCommand(editor, machineId, 'starttask', 'live-e2e-start', {
    requestId: 'live-e2e-start',
    backupTaskId: taskId,
  });
  expect(started.success, JSON.stringify(started.messages)).toBe(true);

  // The portal records the run's end (polled through the API); the open page must follow within 2 s.
  let finished: DashboardMachineRow | undefined;
  await expect
    .poll(
      async () => {
        const list = await apiResult<Paged<DashboardMachineRow>>(
          page,
          `${ROUTES.dashboard.ownMachines.build()}?size=100`,
        );
        finished = list.elements.find(
          (m) => m.id === machineId && !m.tasksInProgress && m.taskStatus !== 'NO_COMPLETED_TASKS',
        );
        return finished?.taskStatus;
      },
      { timeout: 60_000, intervals: [100] },
    )
    .toBeDefined();
  const status = finished?.taskStatus as AggregateTaskStatus;
  expect(status).toBe('SUCCESSFUL_TASKS');
  await expect(row).toContainText(aggregateStatusBadge(status).text, { timeout: 2_000 });
  await expect(row.getByTestId('tasks-in-progress')).toHaveCount(0, { timeout: 2_000 });

  const counts = await apiResult<DashboardMachineCounts>(page, ROUTES.dashboard.ownMachineCounts.build());
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
