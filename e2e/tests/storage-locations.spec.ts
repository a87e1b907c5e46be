import { expect, type Page, test } from '@playwright/test';
import { MESSAGES, STORAGE_LOCATION_TEXTS } from '@portal/domain';
import { expectAccessible, signIn, signUpVisitor } from './helpers';

const T = STORAGE_LOCATION_TEXTS;
const M = MESSAGES.storageLocation;

/** A customer signed up for this journey alone: it gets its first storage locations here. */
async function freshCustomer(page: Page) {
  return signUpVisitor(page, 'Journey Storage', {
    firstName: 'Fox',
    surname: 'Mulder',
    password: 'journey password 1',
  });
}

async function createLocation(page: Page) {
  await page.getByRole('button', { name: T.createButton }).click();
  const dialog = page.getByRole('dialog', { name: T.createTitle });
  // Nothing chosen yet (-1): the domain's message on the field, nothing sent.
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: T.createSubmit }).click();
  await expect(dialog.getByText(M.chooseStorageAccount)).toBeVisible();
  await dialog.getByLabel(T.storageAccountLabel).selectOption({ label: 'Embedded storage' });
  await dialog.getByRole('button', { name: T.createSubmit }).click();
  await expect(page.getByText(M.created)).toBeVisible();
  await expect(dialog).toBeHidden();
  // The toast goes after its 2 s (001 §9), before the next creation's own.
  await expect(page.getByText(M.created)).toBeHidden();
}

test("a provider admin creates a customer's storage locations, makes the new one default, deletes the old one and opens it", async ({
  page,
}) => {
  const customer = await freshCustomer(page);
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/customers');
  const customers = page.getByRole('table', { name: MESSAGES.customer.customersTitle });
  await page
    .getByRole('searchbox', { name: `${MESSAGES.customer.searchLabel} ${MESSAGES.customer.customersTitle}` })
    .fill(customer.companyName);
  await expect(customers.getByRole('row')).toHaveCount(2);
  await customers.getByRole('link', { name: `${MESSAGES.customer.manage} ${customer.companyName}` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(customer.companyName);
  await expectAccessible(page);

  const table = page.getByRole('table', { name: T.sectionTitle });
  await expect(table.getByTestId('table-empty')).toHaveText(M.empty);

  // The first location becomes the customer's default; the second is not.
  await createLocation(page);
  await expect(table.getByRole('row')).toHaveCount(2);
  await createLocation(page);
  await expect(table.getByRole('row')).toHaveCount(3);
  const rows = table.getByRole('row');
  const oldRow = rows.nth(1);
  const newRow = rows.nth(2);
  const oldName = (await oldRow.getByRole('cell').nth(1).textContent()) ?? '';
  const newName = (await newRow.getByRole('cell').nth(1).textContent()) ?? '';
  expect(oldName).toMatch(/^c\d+-journey-storage-/);
  expect(newName).toBe(`${oldName}-2`);
  await expect(oldRow.getByRole('cell').nth(0)).toHaveText('Embedded storage');
  await expect(oldRow.getByRole('cell').nth(2)).toHaveText(MESSAGES.yes);
  await expect(newRow.getByRole('cell').nth(2)).toHaveText(MESSAGES.no);
  // The default is neither made default again nor deleted.
  await expect(oldRow.getByRole('button', { name: T.makeDefault })).toHaveCount(0);
  await expect(oldRow.getByRole('button', { name: T.delete })).toHaveCount(0);

  // Make the new one the default: the typed name must be exact.
  await newRow.getByRole('button', { name: T.makeDefault }).click();
  let dialog = page.getByRole('dialog', { name: T.makeDefaultTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('textbox').fill(oldName);
  await dialog.getByRole('button', { name: T.makeDefaultSubmit }).click();
  await expect(dialog.getByText(MESSAGES.confirmByName.storageLocationMakeDefault)).toBeVisible();
  await dialog.getByRole('textbox').fill(newName);
  await dialog.getByRole('button', { name: T.makeDefaultSubmit }).click();
  await expect(page.getByText(M.madeDefault)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(newRow.getByRole('cell').nth(2)).toHaveText(MESSAGES.yes);
  await expect(oldRow.getByRole('cell').nth(2)).toHaveText(MESSAGES.no);

  // Delete the old one, confirmed by its name.
  await oldRow.getByRole('button', { name: T.delete }).click();
  dialog = page.getByRole('dialog', { name: T.deleteTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('textbox').fill('not it');
  await dialog.getByRole('button', { name: T.deleteSubmit }).click();
  await expect(dialog.getByText(MESSAGES.confirmByName.storageLocationDeletion)).toBeVisible();
  await dialog.getByRole('textbox').fill(oldName);
  await dialog.getByRole('button', { name: T.deleteSubmit }).click();
  await expect(page.getByText(M.deleted)).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText(newName);

  // Its page: the details and no packages yet.
  await table.getByRole('link', { name: T.manage }).click();
  await expect(page).toHaveURL(/\/boltadmin\/customers\/\d+\/storagelocations\/\d+$/);
  const details = page.getByTestId('storage-location-details');
  await expect(details).toContainText(newName);
  await expect(details).toContainText('Embedded storage');
  await expect(page.getByRole('table', { name: T.packagesTitle }).getByTestId('table-empty')).toHaveText(T.noPackages);
  await expect(page.getByRole('button', { name: T.delete })).toHaveCount(0);
});
