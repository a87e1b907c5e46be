import { expect, test } from '@playwright/test';
import {
  type BucketWithPolicyInfo,
  confirmDeletePolicyPrincipal,
  type Elements,
  MESSAGES,
  POLICY_DIFFERENCE_TEXTS,
  ROUTES,
  STORAGE_ACCOUNT_FORM_LABELS,
  type StorageAccountRow,
  type StorageAccountUserRow,
} from '@portal/domain';
import { expectAccessible, jsonResult, openAdminAreaPage, signIn } from './helpers';

const TEXT = MESSAGES.storageAccount;
const PAGE = MESSAGES.storageAccountPages;
const F = STORAGE_ACCOUNT_FORM_LABELS;

test('the provider views the embedded storage account, its buckets, policies, users and keys', async ({ page }) => {
  await openAdminAreaPage(page, 'Storage Accounts');
  await expect(page).toHaveURL(/\/boltadmin\/storageaccounts$/);

  // The list: the embedded account is the default, so it has the badge and no Set as default.
  const accounts = page.getByRole('table', { name: PAGE.title });
  const embedded = accounts.getByRole('row').filter({ hasText: 'Embedded storage' });
  await expect(embedded.getByTestId('status-badge')).toHaveText(TEXT.defaultBadge);
  await expect(embedded.getByRole('button', { name: PAGE.setDefault })).toHaveCount(0);
  await embedded.getByRole('link', { name: `${PAGE.view} Embedded storage` }).click();

  await expect(page.getByRole('heading', { name: 'Embedded storage', level: 1 })).toBeVisible();
  await expectAccessible(page);
  const details = page.getByTestId('storage-account-details');
  await expect(details.getByRole('row', { name: /^Default Storage Account/ })).toContainText(PAGE.yes);
  await expect(details.getByRole('row', { name: /^Type/ })).toContainText('Embedded (local)');
  await expect(details.getByRole('row', { name: /^Object Lock/ })).toContainText(PAGE.no);

  // Buckets: the demo customers' managed buckets, 10 a page with the totals text past one page.
  const accountId = Number(page.url().split('/').pop());
  const buckets = (
    await jsonResult<Elements<BucketWithPolicyInfo>>(
      page,
      ROUTES.storageAccounts.buckets.build({ storageAccountId: accountId }),
    )
  ).elements;
  expect(buckets.length).toBeGreaterThan(0);
  const table = page.getByRole('table', { name: PAGE.bucketsTitle });
  const first = buckets[0] as BucketWithPolicyInfo;
  const firstRow = table
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: first.bucket.name, exact: true }) });
  await expect(firstRow).toContainText(PAGE.yes);
  await expect(firstRow.getByRole('link', { name: `${PAGE.manageCustomer} ${first.bucket.name}` })).toHaveAttribute(
    'href',
    `/boltadmin/customers/${first.bucket.customerId}`,
  );
  if (buckets.length > 10) await expect(page.getByTestId('storage-buckets').getByTestId('paging-text')).toBeVisible();

  // Manage policy of a consistent bucket: its principal is the customer's location user; the raw policy tab.
  await firstRow.getByRole('button', { name: `${PAGE.managePolicy} ${first.bucket.name}` }).click();
  const dialog = page.getByRole('dialog', { name: first.bucket.name });
  const principals = dialog.getByRole('table', { name: TEXT.managePrincipalsTab });
  const principal = first.bucketPolicyPrincipals[0]?.name ?? '';
  await expect(principals.getByRole('row').filter({ hasText: principal })).toContainText('Storage location');
  await expect(principals.getByRole('row').filter({ hasText: principal })).toContainText(
    `Customer ${first.bucket.customerId}`,
  );
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('tab', { name: TEXT.rawPolicyTab }).click();
  await expect(dialog.getByTestId('raw-policy')).toContainText('"Version": "2012-10-17"');
  await expect(dialog.getByTestId('raw-policy')).toContainText(`arn:aws:iam:::user/${principal}`);
  await expect(dialog.getByTestId('policy-differences')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Users and keys: the demo's managed location users serve their locations, so they cannot be deleted here.
  const users = (
    await jsonResult<Elements<StorageAccountUserRow>>(
      page,
      ROUTES.storageAccounts.users.build({ storageAccountId: accountId }),
    )
  ).elements;
  const user = users[0] as StorageAccountUserRow;
  const usersTable = page.getByRole('table', { name: PAGE.usersTitle });
  const userRow = usersTable.getByRole('row').filter({ has: page.getByRole('cell', { name: user.name, exact: true }) });
  await expect(userRow).toContainText(user.storageCredentials.keyId ?? '');
  await expect(userRow.getByRole('button', { name: `${PAGE.deleteUser} ${user.name}` })).toBeDisabled();
  await expect(usersTable.getByRole('row')).toHaveCount(Math.min(users.length, 10) + 1);
  const keysTable = page.getByRole('table', { name: PAGE.accessKeysTitle });
  await expect(keysTable.getByRole('row').filter({ hasText: user.storageCredentials.keyId ?? '' })).toContainText(
    user.name,
  );
});

test('the provider finds an inconsistent bucket policy, reads its differences and removes the principal', async ({
  page,
}) => {
  await signIn(page, 'provider-admin@demo.test');
  const [account] = (await jsonResult<{ elements: StorageAccountRow[] }>(page, ROUTES.storageAccounts.list.build()))
    .elements;
  await page.goto(`/boltadmin/storageaccounts/${account?.id}`);
  const table = page.getByRole('table', { name: PAGE.bucketsTitle });
  await expect(table.getByRole('row')).not.toHaveCount(1);

  // Tailspin Toys' older bucket still grants its customer's user, whom the portal now expects elsewhere.
  await page.getByLabel(TEXT.showOnlyPolicyInconsistent).check();
  const old = table.getByRole('row').filter({ hasText: /-old/ });
  await expect(old).toHaveCount(1);
  await expect(old).toContainText(PAGE.no);
  const bucketName = ((await old.getByRole('cell').first().textContent()) ?? '').trim();
  await old.getByRole('button', { name: `${PAGE.managePolicy} ${bucketName}` }).click();
  const dialog = page.getByRole('dialog', { name: bucketName });
  const principalRow = dialog.getByRole('table', { name: TEXT.managePrincipalsTab }).getByRole('row').nth(1);
  const principal = ((await principalRow.getByRole('cell').first().textContent()) ?? '').trim();
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('tab', { name: TEXT.rawPolicyTab }).click();
  await expect(dialog.getByTestId('policy-differences')).toContainText(
    POLICY_DIFFERENCE_TEXTS.unexpectedUser(principal),
  );
  await dialog.getByRole('tab', { name: TEXT.managePrincipalsTab }).click();
  await principalRow.getByRole('button', { name: `${PAGE.deletePrincipal} ${principal}` }).click();
  const confirm = page.getByRole('dialog', { name: PAGE.deletePrincipalTitle });
  await expect(confirm).toBeVisible();
  await expectAccessible(page);
  await expect(confirm).toContainText(confirmDeletePolicyPrincipal(principal, bucketName));
  await confirm.getByRole('button', { name: PAGE.deletePrincipal }).click();
  await expect(page.getByText(TEXT.principalDeleted)).toBeVisible();

  // Without the stray grant the bucket matches what the portal expects of it.
  await expect(page.getByRole('dialog', { name: bucketName })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('dialog', { name: bucketName }).getByRole('button', { name: 'Close' }).click();
  await expect(table.getByTestId('table-empty')).toHaveText(TEXT.noBuckets);
  const now = await jsonResult<Elements<BucketWithPolicyInfo>>(
    page,
    ROUTES.storageAccounts.buckets.build({ storageAccountId: account?.id ?? 0 }),
  );
  expect(now.elements.find((b) => b.bucket.name === bucketName)).toMatchObject({
    policyContainsInconsistencies: false,
    policyDifferences: [],
  });
});

test('adding an S3 account whose service does not answer shows why on the endpoint and saves nothing', async ({
  page,
}) => {
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/boltadmin/storageaccounts');
  await page.getByTestId('add-storage-account').click();
  const dialog = page.getByRole('dialog', { name: PAGE.add });
  // The embedded type needs no endpoint or keys: its fields show for S3 only.
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(F.type).selectOption('LOCAL');
  await expect(dialog.getByLabel(F.endpoint)).toHaveCount(0);
  await dialog.getByLabel(F.type).selectOption('S3');
  await dialog.getByLabel(F.name).fill('Unreachable Ceph');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('Endpoint is required')).toBeVisible();

  await dialog.getByLabel(F.endpoint).fill('http://127.0.0.1:9');
  await dialog.getByLabel(F.accessKeyId).fill('ADMINKEY');
  await dialog.getByLabel(F.secretAccessKey).fill('admin-secret');
  await dialog.getByRole('button', { name: PAGE.testConnection }).click();
  const endpoint = dialog.getByLabel(F.endpoint);
  await expect(endpoint).toHaveClass(/is-invalid/);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(endpoint).toHaveClass(/is-invalid/);
  await expect(dialog.locator('.invalid-feedback').filter({ hasText: /\S/ }).first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(
    page.getByRole('table', { name: PAGE.title }).getByRole('row').filter({ hasText: 'Unreachable Ceph' }),
  ).toHaveCount(0);
});
