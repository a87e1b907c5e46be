import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  ADMIN_AREA_TITLE,
  type AttentionList,
  type DashboardMachineRow,
  type DashboardTaskRow,
  type Envelope,
  type GettingStartedFlags,
  gettingStartedComplete,
  gettingStartedSteps,
  MESSAGES,
  type Paged,
} from '@portal/domain';
import { expectAccessible, jsonResult, signIn } from './helpers';

/** The dashboard of spec 000 §2 against the demo data (apps/server/src/demo). */

const TEXT = MESSAGES.dashboard;
const ATTENTION = TEXT.attention;

const tabs = (page: Page) => page.getByRole('tablist').getByRole('tab');
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const panel = (page: Page) => page.getByRole('tabpanel');
const table = (page: Page, name: string) => panel(page).getByRole('table', { name, exact: true });
const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
/** The rows of a table that hold data (a header row and the empty-text row excluded). */
const dataRows = (scope: Locator) =>
  scope.locator('tbody tr').filter({ hasNot: scope.page().getByTestId('table-empty') });

async function openDashboard(page: Page, email: string) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
}

test('provider admin: selects a customer and a machine, filters by a pie slice, pages and closes tabs', async ({
  page,
}) => {
  await openDashboard(page, 'provider-admin@demo.test');
  await expect(tabs(page)).toHaveText(['Customers']);
  await expect(page.getByRole('region', { name: 'Getting started' })).toHaveCount(0);

  const customers = table(page, 'Customers');
  // Dozens of demo customers: the table pages by 12.
  await expect(panel(page).getByTestId('paging-text')).toHaveText(/^1 to 12 of \d+$/);
  await expect(dataRows(customers)).toHaveCount(12);
  await button(panel(page), 'Next page').click();
  await expect(panel(page).getByTestId('paging-text')).toHaveText(/^13 to 24 of \d+$/);
  await button(panel(page), 'Page 1').click();
  await expect(panel(page).getByTestId('paging-text')).toHaveText(/^1 to 12 of \d+$/);

  // Sorting by name descending and back.
  await button(customers, 'Name').click();
  await expect(customers.getByRole('columnheader', { name: /Name/ }).first()).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await button(customers, 'Name').click();
  await expect(customers.getByRole('columnheader', { name: /Name/ }).first()).toHaveAttribute('aria-sort', 'ascending');

  // Contoso Ltd: a Northwind customer with six machines.
  await button(customers, 'Select Contoso Ltd').click();
  await expect(tabs(page)).toHaveText(['Customers', 'Contoso Ltd machines']);
  await expect(tab(page, 'Contoso Ltd machines')).toHaveAttribute('aria-selected', 'true');
  const machines = table(page, 'Contoso Ltd machines');
  await expect(dataRows(machines)).toHaveCount(6);
  await expect(panel(page).getByTestId('paging-text')).toHaveCount(0);
  await expect(machines.getByRole('link', { name: 'Manage CONTOSO-LT-014' })).toHaveAttribute(
    'href',
    /^\/boltadmin\/customers\/\d+\/backuppackages\/\d+\/backupmachines\/\d+$/,
  );

  // The machine status pie: one suspended machine (Lee's desktop).
  const statusPie = panel(page).getByRole('figure', { name: 'Machine status' });
  await button(statusPie, 'Suspended: 1').click();
  await expect(dataRows(machines)).toHaveCount(1);
  await expect(machines).toContainText('CONTOSO-PC-031');
  await expect(panel(page)).toContainText(`${TEXT.filteredOn}:`);
  await button(panel(page), TEXT.showAll).click();
  await expect(dataRows(machines)).toHaveCount(6);
  // The filter icon clears too.
  await button(statusPie, 'Over per-machine quota: 1').click();
  await expect(dataRows(machines)).toHaveCount(1);
  await expect(machines).toContainText('contoso-db-01');
  await button(machines.getByRole('columnheader', { name: /Status/ }).first(), TEXT.clearFilter).click();
  await expect(dataRows(machines)).toHaveCount(6);

  // A machine opens its tasks tab.
  await button(machines, 'Select CONTOSO-LT-014').click();
  await expect(tabs(page)).toHaveText(['Customers', 'Contoso Ltd machines', 'CONTOSO-LT-014 tasks']);
  await expect(tab(page, 'CONTOSO-LT-014 tasks')).toHaveAttribute('aria-selected', 'true');
  const tasks = table(page, 'CONTOSO-LT-014 tasks');
  await expect(dataRows(tasks)).toHaveCount(3);
  await expect(tasks.getByTestId('status-badge').filter({ hasText: 'RUN IN PROGRESS' })).toHaveCount(1);
  const taskPie = panel(page).getByRole('figure', { name: 'Task status' });
  await expect(button(taskPie, 'Last succeeded: 3')).toBeVisible();
  // A status no task has: the legend still filters, and the table says it is empty.
  await button(taskPie, 'Last failed 0').click();
  await expect(tasks.getByRole('cell', { name: TEXT.noTasks })).toBeVisible();
  await button(panel(page), TEXT.showAll).click();
  await expect(dataRows(tasks)).toHaveCount(3);

  // Closing the tasks tab goes back to the machines, where the machine is no longer selected.
  await button(page, `${TEXT.closeTab} CONTOSO-LT-014 tasks`).click();
  await expect(tabs(page)).toHaveText(['Customers', 'Contoso Ltd machines']);
  await expect(button(machines, 'Select CONTOSO-LT-014')).toBeVisible();

  // Closing the machines tab (after opening the tasks tab again) closes both.
  await button(machines, 'Select CONTOSO-LT-014').click();
  await tab(page, 'Contoso Ltd machines').click();
  await button(page, `${TEXT.closeTab} Contoso Ltd machines`).click();
  await expect(tabs(page)).toHaveText(['Customers']);
  await expect(button(customers, 'Select Contoso Ltd')).toBeVisible();
});

test('provider admin: Select All shows every machine, paged, and Unselect closes it', async ({ page }) => {
  await openDashboard(page, 'provider-admin@demo.test');
  await button(table(page, 'Customers'), TEXT.selectAll).click();
  await expect(tabs(page)).toHaveText(['Customers', TEXT.allMachinesTitle]);
  const machines = table(page, TEXT.allMachinesTitle);
  await expect(dataRows(machines)).toHaveCount(12);
  await expect(panel(page).getByTestId('paging-text')).toHaveText(/^1 to 12 of \d+$/);
  await button(panel(page), 'Last page').click();
  await expect(panel(page).getByTestId('paging-text')).toHaveText(/^\d+ to (\d+) of \1$/);

  // A pie slice goes back to page 1.
  const taskPie = panel(page).getByRole('figure', { name: 'Machine task status' });
  const failed = taskPie.getByRole('button', { name: /^Failed tasks: \d+$/ });
  const count = Number((await failed.getAttribute('aria-label'))?.split(': ')[1]);
  await failed.click();
  await expect(dataRows(machines)).toHaveCount(Math.min(count, 12));
  if (count > 12) await expect(panel(page).getByTestId('paging-text')).toHaveText(`1 to 12 of ${count}`);
  else await expect(panel(page).getByTestId('paging-text')).toHaveCount(0);
  await expect(machines.getByTestId('status-badge').filter({ hasText: /^Failed tasks$/ })).toHaveCount(
    Math.min(count, 12),
  );

  await tab(page, TEXT.customersTitle).click();
  await button(table(page, 'Customers'), TEXT.unselect).click();
  await expect(tabs(page)).toHaveText(['Customers']);
});

test('empty states show their texts', async ({ page }) => {
  await openDashboard(page, 'provider-admin@demo.test');
  const customers = table(page, 'Customers');
  // No customer has the UNDEFINED aggregate status: its legend entry filters to an empty table.
  await button(panel(page).getByRole('figure', { name: 'Customer task status' }), 'Undefined 0').click();
  await expect(customers.getByRole('cell', { name: TEXT.noCustomers })).toBeVisible();
  await button(panel(page), TEXT.showAll).click();
  await expect(dataRows(customers)).toHaveCount(12);

  // A reseller (on the first page by name) keeps no machines of its own in the demo.
  await button(customers, 'Select Fabrikam Data Services').click();
  await expect(
    table(page, 'Fabrikam Data Services machines').getByRole('cell', { name: TEXT.noMachines }),
  ).toBeVisible();
  await expect(
    panel(page).getByRole('group', { name: `Machine status: ${TEXT.noData}` }),
    'an empty pie is a ring',
  ).toBeVisible();
});

test('reseller admin: My Customers, without Select All', async ({ page }) => {
  await openDashboard(page, 'reseller-admin@demo.test');
  await expect(tabs(page)).toHaveText([TEXT.myCustomersTitle]);
  const customers = table(page, TEXT.myCustomersTitle);
  await expect(customers.getByRole('button', { name: 'Select Contoso Ltd', exact: true })).toBeVisible();
  await expect(button(customers, TEXT.selectAll)).toHaveCount(0);
  await expect(customers.getByRole('link', { name: 'Manage Contoso Ltd' })).toHaveAttribute(
    'href',
    /^\/admin\/mycustomers\/\d+$/,
  );
});

test('customer user: no customers tab, only their own machines', async ({ page }) => {
  await openDashboard(page, 'user@demo.test');
  await expect(tabs(page)).toHaveText(['Contoso Ltd machines']);
  await expect(page.getByRole('button', { name: new RegExp(`^${TEXT.closeTab}`) })).toHaveCount(0);
  const machines = table(page, 'Contoso Ltd machines');
  await expect(dataRows(machines)).toHaveCount(2);
  await expect(machines).toContainText('CONTOSO-LT-014');
  await expect(machines).toContainText('Alex-MacBook-Pro');
  await expect(machines).not.toContainText('CONTOSO-FS-01');
  await expect(machines.getByRole('link', { name: 'Manage Alex-MacBook-Pro' })).toHaveAttribute(
    'href',
    /^\/backupmachines\/\d+$/,
  );

  // The same scope through the API: only the user's machines.
  const answer = (await (await page.request.get('/dashboard/machines?size=100')).json()) as Envelope<
    Paged<DashboardMachineRow>
  >;
  expect(answer.result?.elements.map((m) => m.name).sort()).toEqual(['Alex-MacBook-Pro', 'CONTOSO-LT-014']);
  expect((await page.request.get('/dashboard/customers')).status()).toBe(403);
  // What needs attention: the user's machines only (issue 31).
  const attention = await jsonResult<AttentionList>(page, '/dashboard/attention');
  await expect(page.getByRole('region', { name: ATTENTION.title }).getByTestId('attention-item')).toHaveCount(
    attention.items.length,
  );
  for (const item of attention.items) expect(['Alex-MacBook-Pro', 'CONTOSO-LT-014']).toContain(item.machineName);

  await button(machines, 'Select Alex-MacBook-Pro').click();
  await expect(tabs(page)).toHaveText(['Contoso Ltd machines', 'Alex-MacBook-Pro tasks']);
  const tasks = table(page, 'Alex-MacBook-Pro tasks');
  await expect(dataRows(tasks)).toHaveCount(3);
  await expect(tasks.getByTestId('status-badge').filter({ hasText: 'PAUSED' })).toHaveCount(1);
  await expect(tasks.getByRole('link', { name: /^Manage / }).first()).toHaveAttribute(
    'href',
    /^\/backupmachines\/\d+\/backuptasks\/\d+$/,
  );
  await button(page, `${TEXT.closeTab} Alex-MacBook-Pro tasks`).click();
  await expect(tabs(page)).toHaveText(['Contoso Ltd machines']);
});

test('customer super admin: the getting-started strip follows the flags', async ({ page }) => {
  await openDashboard(page, 'super-admin@demo.test');
  await expect(tabs(page)).toHaveText(['Contoso Ltd machines']);
  await expect(dataRows(table(page, 'Contoso Ltd machines'))).toHaveCount(6);
  const flags = ((await (await page.request.get('/dashboard/gettingstarted')).json()) as Envelope<GettingStartedFlags>)
    .result;
  expect(flags).not.toBeNull();
  if (!flags) return;
  const strip = page.getByRole('region', { name: TEXT.gettingStarted.title });
  if (gettingStartedComplete(flags)) {
    await expect(strip).toHaveCount(0);
  } else {
    const steps = gettingStartedSteps(flags);
    await expect(strip.getByRole('listitem')).toHaveCount(steps.length);
    const current = steps.find((s) => s.current);
    if (current) await expect(strip.locator('[aria-current="step"]')).toContainText(TEXT.gettingStarted[current.step]);
  }
});

test('provider admin: needs attention leads to its page; titles and breadcrumbs name each level down to a task', async ({
  page,
}) => {
  await openDashboard(page, 'provider-admin@demo.test');
  const brand = await page.getByTestId('header').getByRole('img').first().getAttribute('alt');
  await expect(page).toHaveTitle(`Dashboard · ${brand}`);
  const attention = await jsonResult<AttentionList>(page, '/dashboard/attention');
  const list = page.getByRole('region', { name: ATTENTION.title });
  await expect(list.getByTestId('attention-item')).toHaveCount(attention.items.length);
  // An item whose machine has tasks, to go on from its machine to a task.
  const tasksOf = (url: string) =>
    jsonResult<Paged<DashboardTaskRow>>(
      page,
      `/dashboard/backupmachines/${url.match(/backupmachines\/(\d+)/)?.[1]}/tasks`,
    );
  let item: AttentionList['items'][number] | undefined;
  let task: DashboardTaskRow | undefined;
  for (const each of attention.items) {
    task = (await tasksOf(each.url)).elements[0];
    item = each;
    if (task) break;
  }
  if (!item || !task) throw new Error('the demo data has an attention item on a machine with tasks');

  // One click from the list to the item's page.
  await list.locator(`a[href="${item.url}"]`).first().click();
  await expect(page).toHaveURL(item.url);
  const crumbs = page.getByTestId('breadcrumbs').getByRole('listitem');
  if (item.taskName !== null) await crumbs.nth(2).getByRole('link').click();

  // The machine's page names it in the tab (the provider's record pages are in the admin area); its crumbs:
  // customer, package, machine.
  await expect(page.getByRole('heading', { level: 1, name: item.machineName })).toBeVisible();
  await expect(page).toHaveTitle(`${item.machineName} · ${ADMIN_AREA_TITLE}`);
  await expect(crumbs).toHaveCount(3);
  await expect(crumbs.nth(0)).toHaveText(item.customerName);
  await expect(crumbs.nth(2)).toHaveText(item.machineName);

  // Down to a task: every level by its name, and one Edit in the header.
  await page.goto(task.backupTaskUrl);
  await expect(page.getByRole('heading', { level: 1, name: task.name })).toBeVisible();
  await expect(page).toHaveTitle(`${task.name} · ${ADMIN_AREA_TITLE}`);
  await expect(crumbs).toHaveText([item.customerName, /\S/, item.machineName, task.name]);
  await expect(crumbs.nth(1).getByRole('link')).toHaveAttribute('href', /\/backuppackages\/\d+$/);
  await expect(page.getByTestId('page-actions').getByRole('button', { name: /^Edit/ })).toHaveCount(1);
});
