import { expect, test } from '@playwright/test';
import { CURRENT_PASSWORD_LABEL, fieldRequired, MESSAGES } from '@portal/domain';
import { DEMO_PASSWORD } from '../playwright.config';
import { expectAccessible, signIn, signOut } from './helpers';
import { recordSecret } from './secrets';

test('a user edits their profile, sees field errors, and the change stays after reload', async ({ page }) => {
  await signIn(page, 'customer-admin@demo.test');
  await page.goto('/profile');
  const contact = page.getByLabel('Contact number');
  await page.getByLabel('First name').fill('');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();

  await page.getByLabel('First name').fill('Morgan');
  await contact.fill('+44 20 7946 0000');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved!')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('First name')).toHaveValue('Morgan');
  await expect(contact).toHaveValue('+44 20 7946 0000');
  await expect(page.getByTestId('user-full-name')).toContainText('Morgan');

  // The sign-in e-mail changes only with the current password, asked for once the address differs.
  const details = page.getByRole('form', { name: 'Profile details' });
  const currentPassword = details.getByLabel(CURRENT_PASSWORD_LABEL);
  const oldEmail = 'customer-admin@demo.test';
  const newEmail = `customer-admin.${Date.now().toString(36)}@demo.test`;
  await expect(currentPassword).toHaveCount(0);
  await details.getByLabel('Email').fill(newEmail);
  await details.getByRole('button', { name: 'Save profile' }).click();
  await expect(details.getByText(fieldRequired(CURRENT_PASSWORD_LABEL))).toBeVisible();
  await currentPassword.fill('not the password');
  await details.getByRole('button', { name: 'Save profile' }).click();
  await expect(details.getByText(MESSAGES.currentPasswordWrong)).toBeVisible();
  await currentPassword.fill(DEMO_PASSWORD);
  await details.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText(MESSAGES.profileSaved)).toBeVisible();
  await expect(currentPassword).toHaveCount(0);
  await signOut(page);
  await signIn(page, newEmail);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);

  // Back to the demo address, so other journeys keep working.
  await page.goto('/profile');
  await details.getByLabel('Email').fill(oldEmail);
  await currentPassword.fill(DEMO_PASSWORD);
  await details.getByRole('button', { name: 'Save profile' }).click();
  await expect(details.getByLabel('Email')).toHaveValue(oldEmail);
  await expect(currentPassword).toHaveCount(0);
  await signOut(page);
});

test('a forgotten password is reset through the mailed link, once', async ({ page }) => {
  const email = 'super-admin@demo.test';
  const newPassword = 'a new demo password';
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  // Screens load by route: the sign-in page, with its own Email field, stays until this one is there.
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('reset-sent')).toContainText('a link to reset the password has been sent');

  // The demo's mails (reset links included) are the provider admin's to read.
  await signIn(page, 'provider-admin@demo.test');
  await page.goto('/demo/mails');
  // Megan's customer (Contoso) is a Northwind customer: the mail carries Northwind's brand.
  await page.getByRole('button', { name: 'Reset your Northwind Cloud Backup password' }).first().click();
  const href = await page.getByTestId('mail-text').getByRole('link').getAttribute('href');
  expect(href).toContain('/reset-password?token=');
  await signOut(page);
  const resetUrl = new URL(href ?? '', page.url());
  recordSecret(resetUrl.searchParams.get('token') ?? '');
  await page.goto(resetUrl.pathname + resetUrl.search);

  await page.getByLabel('New password').fill(newPassword);
  await page.getByLabel('Confirm password').fill('something else');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login\?reset$/);

  await signIn(page, email, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/login\?error$/);
  await signIn(page, email, newPassword);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);

  // The link works once.
  await page.goto(resetUrl.pathname + resetUrl.search);
  await page.getByLabel('New password').fill('yet another password');
  await page.getByLabel('Confirm password').fill('yet another password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('global-errors')).toContainText('invalid, has expired or has already been used');

  // Put the demo password back through the profile, so other journeys keep working.
  await page.goto('/profile');
  await page.getByLabel('Current password').fill(newPassword);
  await page.getByLabel('New password').fill(DEMO_PASSWORD);
  await page.getByLabel('Confirm password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed!')).toBeVisible();
  await signOut(page);
});
