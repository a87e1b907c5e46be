import { expect, type Page } from '@playwright/test';
import { type Envelope, MESSAGES } from '@portal/domain';
import { DEMO_PASSWORD } from '../playwright.config';
import { recordSecret } from './secrets';

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  recordSecret(password);
  // The session cookie the sign-in set, once the page it lands on has it.
  await page.waitForLoadState();
  for (const cookie of await page.context().cookies()) recordSecret(cookie.value);
}

export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('header').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login\?logout$/);
  await expect(page.getByTestId('login-notice')).toHaveText('You have been signed out.');
}

/** The result of a JSON GET as the signed-in page's user; paths that are pages too answer JSON when asked for it. */
export async function jsonResult<T>(page: Page, path: string): Promise<T> {
  const answer = (await (
    await page.request.get(path, { headers: { accept: 'application/json' } })
  ).json()) as Envelope<T>;
  if (answer.status !== 'OK' || answer.result === null) throw new Error(`${path}: ${answer.status}`);
  return answer.result;
}

export async function sidebarLabels(page: Page, name = 'Main menu'): Promise<string[]> {
  const nav = page.getByRole('navigation', { name });
  return (await nav.locator('.nav-link').allTextContents()).map((t) => t.trim());
}

export interface SignUpDetails {
  companyName: string;
  firstName: string;
  surname: string;
  email: string;
  password: string;
}

/**
 * Signs a fresh customer up through the public /signup page, asking for the first backup package on
 * offer, and waits for the confirmation. The customer is then SIGNUP_REQUESTED and its super admin may
 * sign in with `email` and `password`.
 */
export async function signUpCustomer(page: Page, details: SignUpDetails): Promise<void> {
  await page.goto('/signup');
  const form = page.getByRole('form', { name: MESSAGES.signUp.title });
  await form.getByLabel('Company name').fill(details.companyName);
  await form.getByLabel('First name').fill(details.firstName);
  await form.getByLabel('Surname').fill(details.surname);
  await form.getByLabel('Email').fill(details.email);
  await form.getByLabel('Contact number').fill('021 555 0100');
  await form.getByLabel('Password', { exact: true }).fill(details.password);
  await form.getByLabel('Confirm password').fill(details.password);
  await form.getByLabel('Backup package').selectOption({ index: 1 });
  await form.getByRole('button', { name: MESSAGES.signUp.submit }).click();
  await expect(page.getByTestId('signup-done')).toHaveText(MESSAGES.signUp.submitted);
}
