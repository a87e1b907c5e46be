import { expect, type Page, test } from '@playwright/test';
import { MESSAGES } from '@portal/domain';
import { DEMO_PASSWORD, NORTHWIND_ORIGIN } from '../playwright.config';
import { expectAccessible, signIn, signOut } from './helpers';

/** Northwind's brand in the demo seed (apps/server/src/demo/data.ts), as the browser computes the colours. */
const NORTHWIND = {
  brandName: 'Northwind Cloud Backup',
  header: 'rgb(27, 58, 92)',
  headerText: 'rgb(255, 255, 255)',
  background: 'rgb(243, 246, 250)',
  enabledButton: 'rgb(29, 107, 208)',
};
const LOGO = /^\/public\/downloads\/img\/logo-[0-9a-f]{32}\.png$/;
const FAVICON = /^\/public\/downloads\/img\/favicon-[0-9a-f]{32}\.png$/;

const favicon = (page: Page) => page.locator('head link[rel="icon"]');
const css = (page: Page, testId: string, property: string) =>
  page.getByTestId(testId).evaluate((node, p) => getComputedStyle(node).getPropertyValue(p), property);

async function signInOn(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
}

test("a reseller's customer sees the reseller's header colours, logo, favicon and name on the dashboard", async ({
  page,
}) => {
  await signIn(page, 'super-admin@demo.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
  await expect(page).toHaveTitle(`Dashboard · ${NORTHWIND.brandName}`);
  expect(await css(page, 'header', 'background-color')).toBe(NORTHWIND.header);
  expect(await css(page, 'header', 'color')).toBe(NORTHWIND.headerText);
  const logo = page.getByTestId('header').getByRole('img', { name: NORTHWIND.brandName });
  await expect(logo).toHaveAttribute('src', LOGO);
  // The image really loads (served from the stored demo image), not just its address.
  await expect
    .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await expect(favicon(page)).toHaveAttribute('href', FAVICON);
  await expect(favicon(page)).toHaveCount(1);
  const faviconPath = (await favicon(page).getAttribute('href')) ?? '';
  expect((await page.request.get(faviconPath)).headers()['content-type']).toBe('image/png');

  // Primary buttons take the reseller's enabled button colour.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Backup Packages' }).click();
  const purchase = page.getByRole('button', { name: MESSAGES.purchase.purchaseButton });
  await expect(purchase).toBeVisible();
  expect(await purchase.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(NORTHWIND.enabledButton);
  await signOut(page);
});

test("the sign-in page on the provider's address shows the provider's brand", async ({ page }) => {
  await page.goto('/login');
  const wrapper = page.getByTestId('login-wrapper');
  await expect(wrapper).toHaveClass(/provider-styling/);
  expect(await css(page, 'login-wrapper', 'background-color')).toBe('rgb(255, 255, 255)');
  await expect(wrapper.getByRole('img', { name: 'Cloud Portal' })).toHaveAttribute('src', '/img/logo.png');
  await expect(page).toHaveTitle('Sign in · Cloud Portal');
  await expect(favicon(page)).toHaveAttribute('href', '/img/favicon.png');
});

test("the sign-in, forgot-password and sign-up pages on the reseller's own host name show its brand", async ({
  page,
}) => {
  await page.goto(`${NORTHWIND_ORIGIN}/login`);
  const wrapper = page.getByTestId('login-wrapper');
  await expect(wrapper).toHaveClass(/reseller-styling/);
  expect(await css(page, 'login-wrapper', 'background-color')).toBe(NORTHWIND.background);
  await expect(wrapper.getByRole('img', { name: NORTHWIND.brandName })).toHaveAttribute('src', LOGO);
  await expect(page.getByTestId('brand-name')).toHaveText(NORTHWIND.brandName);
  await expect(page).toHaveTitle(`Sign in · ${NORTHWIND.brandName}`);
  await expect(favicon(page)).toHaveAttribute('href', FAVICON);
  const signInButton = page.getByRole('button', { name: 'Sign in' });
  expect(await signInButton.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(NORTHWIND.enabledButton);

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(`${NORTHWIND_ORIGIN}/forgot-password`);
  await expect(page.getByTestId('brand-name')).toHaveText(NORTHWIND.brandName);

  // A fresh load of the sign-up page (the brand comes with the page's initial data).
  await page.goto(`${NORTHWIND_ORIGIN}/signup`);
  await expect(page.getByTestId('login-wrapper')).toHaveClass(/reseller-styling/);
  await expect(page.getByTestId('brand-name')).toHaveText(NORTHWIND.brandName);
});

test("a Northwind customer signing in on Northwind's host keeps its brand; a direct customer there sees the provider's", async ({
  page,
}) => {
  await signInOn(page, NORTHWIND_ORIGIN, 'user@demo.test');
  expect(await css(page, 'header', 'background-color')).toBe(NORTHWIND.header);
  await signOut(page);
  // Signed out on Northwind's host: its brand again.
  await expect(page.getByTestId('login-wrapper')).toHaveClass(/reseller-styling/);

  await signInOn(page, NORTHWIND_ORIGIN, 'direct-admin@demo.test');
  await expect(page).toHaveTitle('Dashboard · Cloud Portal');
  await expect(page.getByTestId('header').getByRole('img', { name: 'Cloud Portal' })).toHaveAttribute(
    'src',
    '/img/logo.png',
  );
  expect(await css(page, 'header', 'background-color')).toBe('rgb(248, 249, 250)');
  await expect(favicon(page)).toHaveAttribute('href', '/img/favicon.png');
});
