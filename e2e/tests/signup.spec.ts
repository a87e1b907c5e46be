import { expect, test } from '@playwright/test';
import { DEFAULT_BRAND_NAMES, MESSAGES, NEW_SIGNUP_BADGE, signUpAddressInUseMail } from '@portal/domain';
import { expectAccessible, newVisitor, signIn, signOut, signUpCustomer, turnPagesTo } from './helpers';

/** Sign-up (issue #6): a visitor opens an account, signs in, and the provider sees a new signup. */

const TEXT = MESSAGES.signUp;

/** Pages through a dashboard table until `row` shows. */

test('a visitor signs up, signs in to the dashboard, and the provider sees the new signup', async ({ page }) => {
  const visitor = newVisitor('Signup Journey', { firstName: 'Sam', surname: 'Newcomer', password: 'sign-up-password' });

  // The sign-in page leads to the sign-up page.
  await page.goto('/login');
  await page.getByRole('link', { name: TEXT.signUpLink }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { level: 1, name: TEXT.title })).toBeVisible();
  await expectAccessible(page);

  // An empty form is refused on its fields, without a request.
  await page.getByRole('button', { name: TEXT.submit }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText(TEXT.chooseTemplate)).toBeVisible();

  await signUpCustomer(page, visitor);
  await expect(page.getByTestId('signup-done')).toContainText('awaits approval');

  // The same e-mail address again gets the same answer (an outsider learns nothing); its owner gets a mail.
  await page.goto('/signup');
  const again = page.getByRole('form', { name: TEXT.title });
  await again.getByLabel('First name').fill('Sam');
  await again.getByLabel('Surname').fill('Again');
  await again.getByLabel('Email').fill(visitor.email.toUpperCase());
  await again.getByLabel('Contact number').fill('021 555 0100');
  await again.getByLabel('Password', { exact: true }).fill(visitor.password);
  await again.getByLabel('Confirm password').fill(visitor.password);
  await again.getByLabel('Backup package').selectOption({ index: 1 });
  await again.getByRole('button', { name: TEXT.submit }).click();
  await expect(page.getByTestId('signup-done')).toContainText('awaits approval');

  // The new super admin signs in and sees the dashboard.
  await page.getByRole('link', { name: TEXT.signInLink }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, visitor.email, visitor.password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByTestId('header')).toContainText('Sam Newcomer');
  await signOut(page);

  // The provider admin finds it among the new signups of the dashboard's customers tab.
  await signIn(page, 'provider-admin@demo.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
  const panel = page.getByRole('tabpanel');
  const statusPie = panel.getByRole('figure', { name: 'Customer status' });
  const newSignups = statusPie.getByRole('button', { name: /^New signups: \d+$/ });
  const count = Number((await newSignups.getAttribute('aria-label'))?.split(': ')[1]);
  expect(count).toBeGreaterThan(0);
  await newSignups.click();
  const customers = panel.getByRole('table', { name: 'Customers', exact: true });
  // The first page of the filtered table has arrived when it holds only new signups.
  const signupBadges = customers.getByTestId('status-badge').filter({ hasText: /^Signup requested$/ });
  await expect(signupBadges).toHaveCount(Math.min(count, 12));
  const row = customers.getByRole('row').filter({ hasText: visitor.companyName });
  await turnPagesTo(panel, row);
  await expect(row).toContainText(visitor.email);
  await expect(row.getByTestId('status-badge').filter({ hasText: /^Signup requested$/ })).toHaveCount(1);

  // The admin area's customers list labels it NEW SIGNUP.
  await page.goto('/boltadmin/customers');
  await page.getByTestId('search-box').fill(visitor.stamp);
  const listed = page.getByRole('row').filter({ hasText: visitor.companyName });
  await expect(listed).toBeVisible();
  await expect(listed).toContainText(NEW_SIGNUP_BADGE.text);

  // The second sign-up with the address told its owner, by mail.
  await page.goto('/demo/mails');
  const { subject } = signUpAddressInUseMail(DEFAULT_BRAND_NAMES.provider, visitor.firstName);
  await expect(page.getByRole('row').filter({ hasText: visitor.email }).filter({ hasText: subject })).toHaveCount(1);
});
