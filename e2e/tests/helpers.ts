import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../playwright.config';

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('header').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login\?logout$/);
  await expect(page.getByTestId('login-notice')).toHaveText('You have been signed out.');
}

export async function sidebarLabels(page: Page, name = 'Main menu'): Promise<string[]> {
  const nav = page.getByRole('navigation', { name });
  return (await nav.locator('.nav-link').allTextContents()).map((t) => t.trim());
}
