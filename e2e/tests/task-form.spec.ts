import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from '@playwright/test';
import {
  type DashboardTaskRow,
  type MachineDetail,
  MESSAGES,
  type Paged,
  SCHEDULE_PRESET_TEXTS as PRESETS,
  ROUTES,
  TASK_FORM_LABELS,
  TASK_FORM_TEXTS,
  type TaskDefinition,
} from '@portal/domain';
import { openTreePath, saveTaskForm } from './agent';
import { expectAccessible, jsonResult, signIn } from './helpers';
import { test } from './machine';

/**
 * The add/edit task dialog against a real linked agent (issue 14): the customer picks folders in the tree the
 * agent lists from its own disk, adds an exclusion and a schedule, saves over the live channel; the stored
 * task is opened again with Edit, shows what was saved, and its schedule is changed.
 */

const TEXT = TASK_FORM_TEXTS;
const L = TASK_FORM_LABELS;

test('a customer creates a task by picking folders from the real agent, then edits its schedule', async ({
  page,
  samples,
  sharedMachine,
}) => {
  test.setTimeout(120_000);

  // Sample folders on the "machine" (this computer), listed by the real agent.
  for (const folder of ['docs', 'photos', 'cache']) mkdirSync(join(samples, folder), { recursive: true });
  writeFileSync(join(samples, 'docs', 'report.txt'), 'report\n');

  // The machine linked in the admin's "Head office" package, its agent running.
  const { machineId, owner, name } = sharedMachine;
  await signIn(page, owner);
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/backupmachines/${machineId}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  // The agent is online once the tree answers: the dialog asks for the first level when it opens.
  await page.getByRole('button', { name: TEXT.addButton }).click();
  const dialog = page.getByTestId('task-form-dialog');
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByRole('dialog', { name: TEXT.addTitle })).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByTestId('tree').getByRole('button', { name: 'Open tmp', exact: true })).toBeVisible({
    timeout: 30_000,
  });

  await dialog.getByLabel(L.name).fill('Samples from the dialog');
  const tree = dialog.getByTestId('tree');
  await openTreePath(tree, samples);
  await tree.getByLabel('docs', { exact: true }).check();
  await tree.getByLabel('photos', { exact: true }).check();

  // A selected folder disables what is below it (002 §4.4).
  await tree.getByRole('button', { name: 'Open docs', exact: true }).click();
  await expect(tree.getByLabel('report.txt', { exact: true })).toBeDisabled();

  // An exclusion: a bad one is refused with the domain's text, then a good one is added.
  await dialog.getByRole('button', { name: TEXT.addExclusion }).click();
  const entry = page.getByTestId('exclusion-dialog');
  await expect(entry).toBeVisible();
  await expectAccessible(page);
  await entry.getByLabel(TEXT.exclusionLabel).fill('logs/**');
  await entry.getByRole('button', { name: TEXT.addExclusion }).click();
  await expect(entry.getByText(MESSAGES.exclusion.endsWithDoubleStar)).toBeVisible();
  await entry.getByLabel(TEXT.exclusionLabel).fill('*.tmp');
  await entry.getByRole('button', { name: TEXT.addExclusion }).click();
  await expect(entry).toBeHidden();
  await expect(dialog.getByTestId('exclusion')).toHaveText(/\*\.tmp/);

  // A preset fills the picker's five fields; the next five runs show on the machine's clock, labelled with its zone.
  const picker = dialog.getByTestId('schedule-picker');
  const presets = dialog.getByTestId('schedule-presets');
  await presets.getByLabel(PRESETS.label).selectOption({ label: PRESETS.kinds.weekly });
  await presets.getByLabel(PRESETS.weekDay, { exact: true }).selectOption({ label: 'Tuesday' });
  await presets.getByLabel(PRESETS.time).fill('22:15');
  await expect(picker.getByLabel('Expression')).toHaveValue('15 22 * * 2');
  await expect(picker.getByLabel('Period')).toHaveValue('week');
  await expect(picker.getByLabel('Minutes values')).toHaveValue('15');
  await expect(picker.getByLabel('Hours values')).toHaveValue('22');
  await expect(picker.getByLabel('Days of the week values')).toHaveValue('2');
  const { timeZone } = await jsonResult<MachineDetail>(page, `/backupmachines/${machineId}`);
  const nextRuns = dialog.getByRole('region', { name: PRESETS.nextRunsTitle(timeZone) });
  await expect(nextRuns.getByRole('listitem')).toHaveText(Array(5).fill(/^Tue \d{4}-\d\d-\d\d 22:15$/));
  await expectAccessible(page);

  // The schedule with the picker: every day at 02:00.
  await picker.getByLabel('Period').selectOption('day');
  await picker.getByLabel('Minutes: how').selectOption('values');
  await picker.getByLabel('Minutes values').fill('0');
  await picker.getByLabel('Hours: how').selectOption('values');
  await picker.getByLabel('Hours values').fill('2');
  await expect(picker.getByLabel('Expression')).toHaveValue('0 2 * * *');

  await saveTaskForm(page);

  // Stored: the task is listed, and its definition holds what was picked.
  const tasks = await jsonResult<Paged<DashboardTaskRow>>(page, ROUTES.dashboard.machineTasks.build({ machineId }));
  const taskId = tasks.elements.find((t) => t.name === 'Samples from the dialog')?.id;
  expect(taskId).toBeDefined();
  const definitionPath = ROUTES.taskForm.definition.build({ machineId, taskId: taskId as number });
  const stored = await jsonResult<TaskDefinition>(page, definitionPath);
  expect(stored.backupItems.map((i) => i.path)).toEqual([join(samples, 'docs'), join(samples, 'photos')]);
  expect(stored.exclusions).toEqual(['*.tmp']);
  expect(stored.backupScheduleDefinition).toBe('0 2 * * *');

  // Edit on the task page shows the stored fields; the schedule is changed and saved.
  await page.goto(`/backupmachines/${machineId}/backuptasks/${taskId}`);
  await expect(page.getByRole('heading', { name: 'Samples from the dialog', level: 1 })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: TEXT.editButton }).click();
  await expect(page.getByRole('dialog', { name: TEXT.editTitle })).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByLabel(L.name)).toHaveValue('Samples from the dialog');
  await expect(picker.getByLabel('Expression')).toHaveValue('0 2 * * *');
  await expect(dialog.getByTestId('exclusion')).toHaveText(/\*\.tmp/);
  await openTreePath(tree, samples);
  await expect(tree.getByLabel('docs', { exact: true })).toBeChecked();
  await expect(tree.getByLabel('cache', { exact: true })).not.toBeChecked();

  await picker.getByLabel('Hours values').fill('3');
  await picker.getByLabel('Minutes values').fill('30');
  await expect(picker.getByLabel('Expression')).toHaveValue('30 3 * * *');
  await saveTaskForm(page);
  const edited = await jsonResult<TaskDefinition>(page, definitionPath);
  expect(edited.backupScheduleDefinition).toBe('30 3 * * *');
  expect(edited.backupItems.map((i) => basename(i.path))).toEqual(['docs', 'photos']);
});
