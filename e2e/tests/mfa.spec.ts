import { expect, type Page, test } from '@playwright/test';
import { MESSAGES, MFA_TEXTS, USER_FORM_LABELS } from '@portal/domain';
import { totpAt } from '../../apps/server/src/features/mfa/totp';
import { DEMO_PASSWORD } from '../playwright.config';
import { expectAccessible, signIn, signUpCustomer } from './helpers';
import { recordSecret } from './secrets';

const STEP_MS = 30_000;
/** The code an authenticator app with this key shows `steps` time steps from now. */
const codeAt = (secret: string, steps = 0) => totpAt(secret, new Date(Date.now() + steps * STEP_MS));

/** Turns two-factor sign-in on from where the enrolment shows: reads the key off the page, confirms, keeps the codes (still shown). */
async function enrol(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.getByRole('button', { name: MFA_TEXTS.start }).click();
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await page.getByTestId('mfa-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  recordSecret(secret);
  await page.getByLabel(MFA_TEXTS.codeLabel).fill('000000' === codeAt(secret) ? '111111' : '000000');
  await page.getByRole('button', { name: MFA_TEXTS.confirm }).click();
  await expect(page.getByText(MFA_TEXTS.codeInvalid)).toBeVisible();
  await page.getByLabel(MFA_TEXTS.codeLabel).fill(codeAt(secret));
  await page.getByRole('button', { name: MFA_TEXTS.confirm }).click();
  const list = page.getByTestId('recovery-codes');
  await expect(list.locator('li')).toHaveCount(10);
  const recoveryCodes = (await list.locator('li').allTextContents()).map((c) => c.trim());
  for (const code of recoveryCodes) recordSecret(code);
  return { secret, recoveryCodes };
}

async function secondStep(page: Page, code: string) {
  await expect(page).toHaveURL(/\/login\/mfa$/);
  await expect(page.getByRole('heading', { name: MFA_TEXTS.secondStepTitle })).toBeVisible();
  await page.getByLabel(MFA_TEXTS.codeLabel).fill(code);
  await page.getByRole('button', { name: MFA_TEXTS.verify }).click();
}

const accountLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Account Settings' });

async function openAccount(page: Page) {
  await accountLink(page).click();
  await expect(page.getByRole('heading', { level: 1, name: MESSAGES.account.title })).toBeVisible();
  await expectAccessible(page);
}

async function signOutFromHeader(page: Page) {
  // The page's own calls first: one answered after the sign-out would send the page to /login?expired.
  await page.waitForLoadState('networkidle');
  await page.getByTestId('header').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login\?logout$/);
}

test('a user turns on two-factor sign-in, then signs in with a code and with a recovery code, used once', async ({
  page,
}) => {
  const id = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `mfa-${id}@example.test`;
  const password = 'journey password';
  await signUpCustomer(page, { companyName: `MFA ${id}`, firstName: 'Mia', surname: 'Fischer', email, password });
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: MFA_TEXTS.sectionTitle })).toBeVisible();
  await expect(page.getByText(MFA_TEXTS.off)).toBeVisible();
  const { secret, recoveryCodes } = await enrol(page);
  // Said at once, while the codes still show: no reload.
  await expect(page.getByTestId('mfa-status')).toContainText(`${MFA_TEXTS.on} ${MFA_TEXTS.recoveryCodesLeft(10)}`);
  await page.getByRole('button', { name: MFA_TEXTS.done }).click();
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);
  await signOutFromHeader(page);

  // The password alone leaves the session at the second step: no other page opens.
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/login\/mfa$/);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\/mfa$/);
  // The next step's code (within the allowed drift): the one used to confirm is spent.
  await secondStep(page, codeAt(secret, 1));
  await expect(page).toHaveURL(/\/$/);
  await signOutFromHeader(page);

  const recovery = recoveryCodes[0] as string;
  await signIn(page, email, password);
  await secondStep(page, recovery);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/profile');
  await expect(page.getByTestId('mfa-status')).toContainText(MFA_TEXTS.recoveryCodesLeft(9));
  await expect(page.getByRole('table', { name: 'Account activity' })).toContainText('Signed in with a recovery code');
  await signOutFromHeader(page);

  // A used recovery code is refused.
  await signIn(page, email, password);
  await secondStep(page, recovery);
  await expect(page.getByText(MFA_TEXTS.codeInvalid)).toBeVisible();
  await expect(page).toHaveURL(/\/login\/mfa$/);
});

test("a customer's super admin requires two-factor sign-in: an admin signed in at the time is sent to set it up", async ({
  page,
  browser,
}) => {
  const P = MFA_TEXTS.policy;
  const id = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const owner = { email: `mfa-owner-${id}@example.test`, password: 'journey password' };
  const admin = { email: `mfa-admin-${id}@example.test`, password: 'journey password 2' };
  await signUpCustomer(page, {
    companyName: `MFA Policy ${id}`,
    firstName: 'Olga',
    surname: 'Owner',
    email: owner.email,
    password: owner.password,
  });
  await signIn(page, owner.email, owner.password);
  await openAccount(page);
  const policy = page.getByTestId('account-mfa-policy');
  await expect(policy).toHaveText(P.notRequired);

  // An admin of the account, who signs in (without two-factor sign-in) in a browser of their own.
  await page.getByRole('button', { name: MESSAGES.user.addButton }).click();
  const add = page.getByRole('dialog', { name: MESSAGES.user.addDialogTitle });
  await expect(add).toBeVisible();
  await expectAccessible(page);
  await add.getByLabel(USER_FORM_LABELS.firstName).fill('Adam');
  await add.getByLabel(USER_FORM_LABELS.surname).fill('Admin');
  await add.getByLabel(USER_FORM_LABELS.email).fill(admin.email);
  await add.getByLabel(USER_FORM_LABELS.contactNumber).fill('021 555 0101');
  await add.getByLabel(USER_FORM_LABELS.password, { exact: true }).fill(admin.password);
  await add.getByLabel(USER_FORM_LABELS.confirmPassword).fill(admin.password);
  await add.getByLabel(USER_FORM_LABELS.role).selectOption('ROLE_CUSTOMER_ADMIN_USER');
  await add.getByRole('button', { name: MESSAGES.user.addSubmit }).click();
  await expect(page.getByText(MESSAGES.user.added)).toBeVisible();
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin.email, admin.password);
  await expect(adminPage).toHaveURL(/\/$/);

  // Not before the owner uses it: the dialog says so and leads to the profile, where they set it up.
  await page.getByRole('button', { name: P.requireButton }).click();
  let dialog = page.getByRole('dialog', { name: P.requireTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await expect(dialog).toContainText(P.requireQuestion(`MFA Policy ${id}`));
  await expect(dialog.getByTestId('mfa-policy-own-off')).toContainText(P.enableYourselfFirst);
  await expect(dialog.getByRole('button', { name: P.requireSubmit })).toBeDisabled();
  await dialog.getByRole('link', { name: P.openProfile }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await enrol(page);
  await page.getByRole('button', { name: MFA_TEXTS.done }).click();
  await openAccount(page);
  await page.getByRole('button', { name: P.requireButton }).click();
  dialog = page.getByRole('dialog', { name: P.requireTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: P.requireSubmit }).click();
  await expect(page.getByText(P.requiredNow)).toBeVisible();
  await expect(policy).toHaveText(P.required);

  // The admin's open session: the next screen they open sends them to set two-factor sign-in up.
  await accountLink(adminPage).click();
  await expect(adminPage).toHaveURL(/\/login\/mfa\/enrol$/);
  await expect(adminPage.getByText(MFA_TEXTS.enrolRequired)).toBeVisible();

  // No longer required: the admin goes on without it.
  await page.getByRole('button', { name: P.stopButton }).click();
  dialog = page.getByRole('dialog', { name: P.stopTitle });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: P.stopSubmit }).click();
  await expect(policy).toHaveText(P.notRequired);
  await adminPage.goto('/');
  await expect(adminPage).toHaveURL(/\/$/);
  await openAccount(adminPage);
  await expect(adminPage.getByTestId('account-mfa-policy')).toHaveText(P.notRequired);
  await adminContext.close();
});

test('a provider admin without two-factor sign-in is sent to set it up before anything else', async ({ page }) => {
  // A provider admin of the demo who is not one of its listed logins: the journeys' server requires it of them.
  await signIn(page, 'jordan.ellis@cloudportal.test', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/login\/mfa\/enrol$/);
  await expect(page.getByText(MFA_TEXTS.enrolRequired)).toBeVisible();
  await page.goto('/boltadmin/customers');
  await expect(page).toHaveURL(/\/login\/mfa\/enrol$/);
  await enrol(page);
  await page.getByRole('button', { name: MFA_TEXTS.done }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/boltadmin/customers');
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await expectAccessible(page);
});
