import { expect, test } from '@playwright/test';
import { API_TOKEN_FORM_LABELS, API_TOKEN_MESSAGES, type Envelope, type Profile, ROUTES } from '@portal/domain';
import { expectAccessible, signIn } from './helpers';
import { recordSecret } from './secrets';

test('a user creates an API token in the profile, calls the API with it, revokes it, and it is refused', async ({
  page,
  playwright,
  baseURL,
}) => {
  const name = `journey ${Date.now()}`;
  await signIn(page, 'customer-admin@demo.test');
  await page.goto('/profile');
  const section = page.getByRole('table', { name: 'API tokens' });
  await page.getByRole('button', { name: 'Create API token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API token' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel(API_TOKEN_FORM_LABELS.name).fill(name);
  await dialog.getByLabel(API_TOKEN_FORM_LABELS.scope).selectOption('READ_WRITE');
  await dialog.getByLabel(API_TOKEN_FORM_LABELS.expiresInDays).selectOption('7');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  const created = page.getByTestId('api-token-created');
  await expect(created).toContainText(API_TOKEN_MESSAGES.created);
  const token = await created.getByLabel('New API token').inputValue();
  expect(token).toMatch(/^cpt_/);
  recordSecret(token);
  const row = section.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Never');

  // A script's client: no cookie of the browser, only the token.
  const api = await playwright.request.newContext({ baseURL });
  const bearer = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const answer = await api.get(ROUTES.profile.get.build(), { headers: bearer });
  expect(answer.status()).toBe(200);
  const profile = (await answer.json()) as Envelope<Profile>;
  expect(profile.result?.email).toBe('customer-admin@demo.test');
  // A write without any CSRF token: a token needs none (the same details saved back).
  const { firstName, surname, email, contactNumber } = profile.result as Profile;
  const saved = await api.put(ROUTES.profile.update.build(), {
    headers: bearer,
    data: { firstName, surname, email, contactNumber },
  });
  expect(saved.status()).toBe(200);

  await page.reload();
  await expect(row).not.toContainText('Never');
  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page);
  await expect(confirm).toContainText(API_TOKEN_MESSAGES.confirmRevoke(name));
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toHaveCount(0);

  const refused = await api.get(ROUTES.profile.get.build(), { headers: bearer });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as Envelope<null>).responseSummaryCode).toBe('UNAUTHENTICATED');
  await api.dispose();
});

test('the API reference lists the operations of the OpenAPI document', async ({ page }) => {
  await page.goto('/api/reference');
  const operations = page.getByRole('table', { name: 'API operations' });
  await expect(operations.getByText('/profile/apitokens', { exact: true }).first()).toBeVisible();
  expect(await operations.getByRole('row').count()).toBeGreaterThan(150);
  await page.getByRole('link', { name: ROUTES.openApi.document.build() }).click();
  await expect(page).toHaveURL(/\/api\/openapi\.json$/);
  await expect(page.getByText('"openapi"').first()).toBeVisible();
});
