import { expect, type Page, test } from '@playwright/test';
import {
  fieldRequired,
  importRowProblem,
  MESSAGES,
  ROUTES,
  USER_FORM_LABELS,
  USER_IMPORT_COLUMNS,
} from '@portal/domain';
import ExcelJS from 'exceljs';
import { expectAccessible, signIn } from './helpers';

const TEXT = MESSAGES.user;
const IMPORT = MESSAGES.userImport;

/** A name unique to this run; the surnames start with 'Aa' so the users sort onto the first page. */
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

async function openAccount(page: Page) {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Account Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: MESSAGES.account.title })).toBeVisible();
  await expectAccessible(page);
}

const usersTable = (page: Page) => page.getByRole('table', { name: TEXT.tableLabel });

test('a customer admin adds a user, edits it, links and unlinks a package, and deletes it', async ({ page }) => {
  const id = stamp();
  const user = { firstName: 'Jordan', surname: `Aatest${id}`, email: `journey-${id}@example.test` };
  const fullName = `${user.firstName} ${user.surname}`;
  await signIn(page, 'super-admin@demo.test');
  await openAccount(page);

  await page.getByRole('button', { name: TEXT.addButton }).click();
  let dialog = page.getByRole('dialog', { name: TEXT.addDialogTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: TEXT.addSubmit }).click();
  await expect(dialog.getByText(fieldRequired(USER_FORM_LABELS.firstName))).toBeVisible();
  await dialog.getByLabel(USER_FORM_LABELS.firstName).fill(user.firstName);
  await dialog.getByLabel(USER_FORM_LABELS.surname).fill(user.surname);
  await dialog.getByLabel(USER_FORM_LABELS.email).fill(user.email);
  await dialog.getByLabel(USER_FORM_LABELS.contactNumber).fill('021 555 0100');
  await dialog.getByLabel(USER_FORM_LABELS.password, { exact: true }).fill('journey password 1');
  await dialog.getByLabel(USER_FORM_LABELS.confirmPassword).fill('journey password 1');
  await expect(dialog.getByLabel(USER_FORM_LABELS.role)).toHaveValue('ROLE_CUSTOMER_USER');
  await dialog.getByRole('button', { name: TEXT.addSubmit }).click();
  await expect(page.getByText(TEXT.added)).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = usersTable(page).getByRole('row').filter({ hasText: user.email });
  await expect(row).toContainText(user.surname);
  await row.getByRole('link', { name: `${TEXT.manage} ${fullName}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: fullName })).toBeVisible();
  await expectAccessible(page);
  const summary = page.getByRole('table', { name: TEXT.summaryTitle });
  await expect(summary).toContainText(user.email);

  await page.getByRole('button', { name: TEXT.editButton, exact: true }).click();
  dialog = page.getByRole('dialog', { name: TEXT.editDialogTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog.getByLabel(USER_FORM_LABELS.password, { exact: true })).toHaveAttribute(
    'placeholder',
    TEXT.passwordUnchangedPlaceholder,
  );
  await dialog.getByLabel(USER_FORM_LABELS.contactNumber).fill('021 555 0199');
  await dialog.getByRole('button', { name: TEXT.editSubmit }).click();
  await expect(page.getByText(TEXT.edited)).toBeVisible();
  await expect(summary).toContainText('021 555 0199');

  const packages = page.getByRole('table', { name: TEXT.packagesTitle });
  await expect(packages.getByTestId('table-empty')).toHaveText(TEXT.noPackages);
  await page.getByRole('button', { name: TEXT.linkButton }).click();
  dialog = page.getByRole('dialog', { name: TEXT.linkDialogTitle });
  const packageSelect = dialog.getByLabel(USER_FORM_LABELS.backupPackageId);
  await expect(packageSelect).not.toHaveValue('');
  const packageName = (await packageSelect.locator('option:checked').textContent()) ?? '';
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: TEXT.linkSubmit }).click();
  await expect(page.getByText(TEXT.linked)).toBeVisible();
  const packageRow = packages.getByRole('row').filter({ hasText: packageName });
  await expect(packageRow).toBeVisible();

  // A user with a package cannot be deleted.
  await expect(page.getByRole('button', { name: TEXT.deleteButton })).toBeDisabled();

  await packageRow.getByRole('button', { name: `${TEXT.unlinkSubmit} ${packageName}` }).click();
  dialog = page.getByRole('dialog', { name: TEXT.unlinkDialogTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: TEXT.unlinkSubmit }).click();
  await expect(page.getByText(TEXT.unlinked)).toBeVisible();
  await expect(packages.getByTestId('table-empty')).toHaveText(TEXT.noPackages);

  await page.getByRole('button', { name: TEXT.deleteButton }).click();
  dialog = page.getByRole('dialog', { name: TEXT.deleteDialogTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: TEXT.deleteSubmit }).click();
  await expect(page.getByText(TEXT.deleted)).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/account$/);
  await expect(usersTable(page).getByRole('row').first()).toBeVisible();
  await expect(usersTable(page).getByRole('row').filter({ hasText: user.email })).toHaveCount(0);
});

type Cells = Record<(typeof USER_IMPORT_COLUMNS)[number]['key'], string>;

/** The example file from the portal, filled in with `rows` below its header row. */
async function spreadsheet(page: Page, rows: Cells[]): Promise<Buffer> {
  const example = await page.request.get(ROUTES.users.importExample.build());
  expect(example.ok()).toBe(true);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await example.body()) as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('the example file has no sheet');
  expect(sheet.getRow(1).values).toEqual([undefined, ...USER_IMPORT_COLUMNS.map((c) => c.header)]);
  // The example may carry a sample row; the upload holds only ours.
  sheet.spliceRows(2, Math.max(0, sheet.rowCount - 1));
  for (const cells of rows) sheet.addRow(USER_IMPORT_COLUMNS.map((c) => cells[c.key]));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function importSpreadsheet(page: Page, file: Buffer) {
  const dialog = page.getByRole('dialog', { name: IMPORT.dialogTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(IMPORT.fileLabel).setInputFiles({
    name: 'users.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: file,
  });
  await dialog.getByRole('button', { name: IMPORT.importSubmit }).click();
  return dialog;
}

test('a customer admin imports users from a spreadsheet, fixing its one bad row', async ({ page }) => {
  const id = stamp();
  const users: Cells[] = [1, 2, 3].map((n) => ({
    firstName: `Imported${n}`,
    surname: `Aaimport${id}x${n}`,
    email: `import-${id}-${n}@example.test`,
    contactNumber: `021 555 010${n}`,
    role: 'User',
    readOnly: n === 3 ? 'Yes' : 'No',
  }));
  await signIn(page, 'super-admin@demo.test');
  await openAccount(page);

  await page.getByRole('button', { name: TEXT.bulkImportButton }).click();
  const bad = users.map((u, i) => (i === 1 ? { ...u, email: '' } : u));
  const dialog = await importSpreadsheet(page, await spreadsheet(page, bad));
  const summary = dialog.getByTestId('import-errors');
  await expect(summary).toContainText(IMPORT.noneImported);
  // Row 1 holds the headings: the second user is on row 3.
  await expect(summary).toContainText(importRowProblem(3, fieldRequired(USER_FORM_LABELS.email)));
  await expect(
    usersTable(page)
      .getByRole('row')
      .filter({ hasText: `Aaimport${id}` }),
  ).toHaveCount(0);

  await importSpreadsheet(page, await spreadsheet(page, users));
  await expect(page.getByText(IMPORT.imported)).toBeVisible();
  await expect(dialog).toBeHidden();
  for (const user of users) {
    await expect(usersTable(page).getByRole('row').filter({ hasText: user.email })).toBeVisible();
  }
  await expect(
    usersTable(page)
      .getByRole('row')
      .filter({ hasText: users[2]?.email ?? '' }),
  ).toContainText(MESSAGES.yes);
});

test("the provider and the customer's reseller look at a user's page without changing anything", async ({ page }) => {
  const CUSTOMER = MESSAGES.customer;
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/customers');
  await page.getByRole('searchbox', { name: `${CUSTOMER.searchLabel} ${CUSTOMER.customersTitle}` }).fill('Contoso Ltd');
  await page.getByRole('link', { name: `${CUSTOMER.manage} Contoso Ltd` }).click();
  const row = usersTable(page).getByRole('row').filter({ hasText: 'super-admin@demo.test' });
  await row.getByRole('link', { name: new RegExp(`^${TEXT.view} `) }).click();
  await expect(page).toHaveURL(/\/boltadmin\/customers\/\d+\/users\/\d+$/);
  await expect(page.getByTestId('admin-area-title')).toBeVisible();
  await expect(page.getByRole('table', { name: TEXT.summaryTitle })).toContainText('super-admin@demo.test');
  await expect(page.getByRole('table', { name: TEXT.packagesTitle }).getByRole('row').nth(1)).toBeVisible();
  for (const name of [TEXT.editButton, TEXT.linkButton, TEXT.deleteButton]) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  const path = new URL(page.url()).pathname;

  // The same user through the reseller's own path.
  await page.context().clearCookies();
  await signIn(page, 'reseller-admin@demo.test');
  await page.goto(path.replace('/boltadmin/customers/', '/admin/mycustomers/'));
  await expect(page.getByRole('table', { name: TEXT.summaryTitle })).toContainText('super-admin@demo.test');
  await expect(page.getByRole('button', { name: TEXT.deleteButton, exact: true })).toHaveCount(0);
});
