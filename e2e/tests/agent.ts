/**
 * Journeys with a real agent: linking it (with a user's password or a linking code) and running it, the task
 * dialog's tree of the machine's folders, task commands as the task editor sends them, API reads.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import {
  type DashboardMachineRow,
  type DashboardTaskRow,
  MESSAGES,
  machineQueue,
  newTaskForm,
  type Paged,
  ROUTES,
  runStatusBadge,
  TASK_FORM_TEXTS,
  taskUrl,
  WS_SEND_PREFIXES,
} from '@portal/domain';
import { DEMO_PASSWORD } from '../playwright.config';
import { jsonResult, signIn } from './helpers';

/** The built agent, run as `node agent.mjs link|run ...`. */
export const AGENT = join(import.meta.dirname, '../../apps/agent/dist/agent.mjs');

/** What `agent link` stored: the machine's id and the agent's state directory (its log files are in `logs/`). */
export interface LinkedMachine {
  machineId: number;
  stateDir: string;
}

function linkedMachine(config: string): LinkedMachine {
  return JSON.parse(readFileSync(config, 'utf8')) as LinkedMachine;
}

/**
 * Links a machine with the agent's CLI as its owner would: the admin may use two packages, so the agent
 * says which, and the admin picks 'Head office', as on a real machine. Answers what it stored.
 */
export function linkAgent(options: { baseURL: string; email: string; name: string; config: string }): LinkedMachine {
  const link = (extra: string[]) =>
    spawnSync(
      process.execPath,
      [
        AGENT,
        'link',
        '--server',
        options.baseURL,
        '--email',
        options.email,
        '--password-stdin',
        '--name',
        options.name,
        '--config',
        options.config,
        ...extra,
      ],
      { input: `${DEMO_PASSWORD}\n`, encoding: 'utf8' },
    );
  const asked = link([]);
  expect(asked.status).not.toBe(0);
  const packageId = /(\d+) \(Head office\)/.exec(asked.stderr)?.[1];
  expect(packageId, asked.stderr).toBeDefined();
  const linked = link(['--package', packageId as string]);
  expect(linked.status, linked.stderr).toBe(0);
  return linkedMachine(options.config);
}

/**
 * Links a machine as 'Link a machine' on the dashboard tells its signed-in user to: the dialog makes a linking
 * code for the package named `packageName` (a user with one package has no choice), and exactly the `portal-agent link ...` line it shows is run with the
 * built agent (plus the machine's name and a config of its own). Answers what it stored.
 */
export async function linkAgentWithCode(
  page: Page,
  options: { name: string; config: string; packageName?: string },
): Promise<LinkedMachine> {
  const TEXT = MESSAGES.machineLink;
  await page.getByRole('button', { name: TEXT.linkButton, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: TEXT.dialogTitle });
  await expect(dialog.getByTestId('linking-code')).toBeVisible();
  const command = dialog.getByTestId('link-command');
  if (options.packageName) {
    const packages = dialog.getByRole('combobox', { name: TEXT.packageLabel });
    await packages.selectOption({ label: options.packageName });
    await expect(command).toHaveText(new RegExp(`--package ${await packages.inputValue()}$`));
  } else {
    await expect(command).toHaveText(/--code [A-Z0-9-]+$/);
  }
  const [program, subcommand, ...args] = ((await command.textContent()) ?? '').trim().split(/\s+/);
  expect([program, subcommand]).toEqual(['portal-agent', 'link']);
  const linked = spawnSync(
    process.execPath,
    [AGENT, 'link', ...args, '--name', options.name, '--config', options.config],
    { encoding: 'utf8' },
  );
  expect(linked.status, linked.stderr).toBe(0);
  await dialog.getByRole('button', { name: TEXT.close, exact: true }).last().click();
  await expect(dialog).toBeHidden();
  return linkedMachine(options.config);
}

/** `portal-agent run` with a linked config: the machine comes online. The journey kills it when done. */
export function runAgent(config: string): ChildProcess {
  return spawn(process.execPath, [AGENT, 'run', '--config', config], { stdio: 'ignore' });
}

/** The machine's row in the signed-in customer's dashboard (its online state and task statuses), if listed. */
export async function ownMachine(page: Page, machineId: number): Promise<DashboardMachineRow | undefined> {
  const list = await jsonResult<Paged<DashboardMachineRow>>(page, `${ROUTES.dashboard.ownMachines.build()}?size=100`);
  return list.elements.find((m) => m.id === machineId);
}

/** Waits until the signed-in customer's dashboard reports the machine online (its agent connected). */
export async function expectOnline(page: Page, machineId: number): Promise<void> {
  await expect.poll(async () => (await ownMachine(page, machineId))?.online, { timeout: 20_000 }).toBe(true);
}

/** In the task dialog's tree of the machine's folders, opens each folder of `path` from the root, as a user would. */
export async function openTreePath(tree: Locator, path: string): Promise<void> {
  for (const name of path.split('/').filter(Boolean)) {
    await tree.getByRole('button', { name: `Open ${name}`, exact: true }).click();
  }
}

/** Saves the task dialog: the agent has stored the task when 'saved' shows, and the dialog closes. */
export async function saveTaskForm(page: Page): Promise<void> {
  const dialog = page.getByTestId('task-form-dialog');
  await dialog.getByRole('button', { name: TASK_FORM_TEXTS.save }).click();
  await expect(page.getByText(MESSAGES.task.saved)).toBeVisible({ timeout: 25_000 });
  await expect(dialog).toBeHidden();
}

/** A task command the way the task editor sends it (002 §7.8): over the live channel, answered by requestId. */
export async function taskCommand(page: Page, machineId: number, command: string, requestId: string, body: object) {
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

/**
 * Adds a task backing up the folder `samples` every day at 02:00, over the live channel as the task editor does,
 * and answers its id from the machine's task list.
 */
export async function addSamplesTask(
  page: Page,
  machineId: number,
  task: { requestId: string; name: string; samples: string },
): Promise<number> {
  const created = await taskCommand(page, machineId, 'newtask', task.requestId, {
    ...newTaskForm(task.requestId),
    name: task.name,
    backupScheduleDefinition: '0 2 * * *',
    backupItems: [{ path: task.samples, name: 'samples', type: 'DIRECTORY', missing: false }],
  });
  expect(created.success, JSON.stringify(created.messages)).toBe(true);
  const tasks = await jsonResult<Paged<DashboardTaskRow>>(page, ROUTES.dashboard.machineTasks.build({ machineId }));
  const taskId = tasks.elements.find((t) => t.name === task.name)?.id;
  expect(taskId).toBeDefined();
  return taskId as number;
}

/** Starts a run of the task now ("Run now"), over the live channel as the task editor does. */
export async function startTask(page: Page, machineId: number, requestId: string, taskId: number): Promise<void> {
  const started = await taskCommand(page, machineId, 'starttask', requestId, { requestId, backupTaskId: taskId });
  expect(started.success, JSON.stringify(started.messages)).toBe(true);
}

/** A linked machine and the demo user who owns it (the shared machine of tests/machine.ts). */
interface OwnedMachine extends LinkedMachine {
  owner: string;
}

/**
 * The journeys' start on a linked machine: its owner signs in, and once its agent is online adds a task backing up
 * `samples` (addSamplesTask) and opens the task's page. Answers the task's id.
 */
export async function openSamplesTask(
  page: Page,
  machine: OwnedMachine,
  task: { requestId: string; name: string; samples: string },
): Promise<number> {
  await signIn(page, machine.owner);
  return openNewSamplesTask(page, machine.machineId, task);
}

/** openSamplesTask for the user signed in already (a journey's own sign-up, with its own password). */
export async function openNewSamplesTask(
  page: Page,
  machineId: number,
  task: { requestId: string; name: string; samples: string },
): Promise<number> {
  await expectOnline(page, machineId);
  const taskId = await addSamplesTask(page, machineId, task);
  await page.goto(taskUrl('customer', { machineId, taskId }));
  return taskId;
}

/**
 * Makes a backup: runs the task now (startTask) and waits on its open page until it lists `count` runs, the newest
 * finished well.
 */
export async function backUpNow(
  page: Page,
  machine: Pick<LinkedMachine, 'machineId'>,
  taskId: number,
  run: { requestId: string; count: number },
): Promise<void> {
  await startTask(page, machine.machineId, run.requestId, taskId);
  const runs = page.getByTestId('runs-table').locator('tbody tr');
  await expect(runs).toHaveCount(run.count, { timeout: 30_000 });
  await expect(runs.first()).toContainText(runStatusBadge('FINISHED_SUCCESS').text, { timeout: 60_000 });
}
