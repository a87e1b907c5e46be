import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import {
  CONTRAST_TEXTS,
  IMAGE_TYPE_MESSAGES,
  IMAGE_UPLOAD_LIMITS,
  imageTooLargeMessage,
  RESELLER_SETTINGS_LABELS as L,
  MESSAGES,
} from '@portal/domain';
import { DISGUISED, testIcon, testPicture } from '../../apps/server/src/features/reseller-settings/testing';
import { startTestSmtpServer, type TestSmtpServer } from '../../apps/server/src/testing/smtp';
import { E2E_DATA_DIR, NORTHWIND_ORIGIN } from '../playwright.config';
import { expectAccessible, signIn, signOut } from './helpers';

const T = MESSAGES.resellerSettings;

/** Fixture files written for the file inputs. */
async function fixtures() {
  const files = {
    logo: join(E2E_DATA_DIR, 'journey-logo.png'),
    favicon: join(E2E_DATA_DIR, 'journey-favicon.ico'),
    text: join(E2E_DATA_DIR, 'notes.txt'),
    disguised: join(E2E_DATA_DIR, 'disguised-logo.png'),
    big: join(E2E_DATA_DIR, 'big-logo.png'),
  };
  writeFileSync(files.logo, await testPicture(1120, 480, 'png'));
  writeFileSync(files.favicon, await testIcon());
  writeFileSync(files.text, 'just some notes\n');
  writeFileSync(files.disguised, DISGUISED.html);
  writeFileSync(
    files.big,
    Buffer.concat([await testPicture(64, 64, 'png'), Buffer.alloc(IMAGE_UPLOAD_LIMITS.maxBytes)]),
  );
  return files;
}

const toast = (page: Page, text: string) => page.locator('.Toastify').getByText(text);

async function openReseller(page: Page) {
  await signIn(page, 'reseller-admin@demo.test');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Reseller Admin' }).click();
  await expect(page).toHaveURL(/\/admin\/reselleradmin$/);
  await expect(page.getByRole('tab', { name: T.accountTab })).toHaveAttribute('aria-selected', 'true');
}

test("a reseller's super admin sets colours, a logo and a favicon, and sees them after the reload", async ({
  page,
}) => {
  const files = await fixtures();
  await openReseller(page);
  await expect(page.getByLabel(L.brandName)).toHaveValue('Northwind Cloud Backup');
  // The custom URL is the provider's to change: the reseller sees it, read-only.
  await expect(page.getByLabel(L.customUrl)).toHaveValue('backup.northwind.test');
  await expect(page.getByLabel(L.customUrl)).not.toBeEditable();
  await expectAccessible(page);

  await page.getByRole('tab', { name: T.lookAndFeelTab }).click();
  const form = page.getByTestId('look-and-feel-form');
  await form.getByRole('textbox', { name: L.appHeaderColour, exact: true }).fill('#336699');
  await form.getByRole('textbox', { name: L.appHeaderTextColour, exact: true }).fill('#ffffff');
  // The preview follows as the colours change, before any save (issue 31).
  const preview = page.getByTestId('look-and-feel-preview');
  await expect(preview.getByTestId('preview-header')).toHaveCSS('background-color', 'rgb(51, 102, 153)');
  await expect(preview.getByTestId('preview-header')).toHaveCSS('color', 'rgb(255, 255, 255)');

  // A button colour whose white text fails WCAG AA is warned of, with the nearest passing colour to take.
  const enabledButton = form.getByRole('textbox', { name: L.appEnabledButtonColour, exact: true });
  await enabledButton.fill('#2a7de1');
  const warning = form.getByTestId('contrast-warning-appEnabledButtonColour');
  await expect(warning).toContainText(CONTRAST_TEXTS.warning('4.10:1', '#1f75dd'));
  await expect(preview.getByTestId('preview-enabled-button')).toHaveCSS('background-color', 'rgb(42, 125, 225)');
  await warning.getByRole('button', { name: CONTRAST_TEXTS.takeSuggestion('#1f75dd') }).click();
  await expect(enabledButton).toHaveValue('#1f75dd');
  await expect(warning).toBeHidden();
  await expect(preview.getByTestId('preview-enabled-button')).toHaveCSS('background-color', 'rgb(31, 117, 221)');
  await expectAccessible(page);

  // Refusals on the field: a wrong type and a too large file (the form's check), a disguised file (the server's).
  await form.getByLabel(L.logo).setInputFiles(files.text);
  await page.getByTestId('save-look-and-feel').click();
  await expect(form.getByText(IMAGE_TYPE_MESSAGES.logo)).toBeVisible();
  await form.getByLabel(L.logo).setInputFiles(files.big);
  await page.getByTestId('save-look-and-feel').click();
  await expect(form.getByText(imageTooLargeMessage('logo'))).toBeVisible();
  await form.getByLabel(L.logo).setInputFiles(files.disguised);
  await page.getByTestId('save-look-and-feel').click();
  await expect(form.getByText(IMAGE_TYPE_MESSAGES.logo)).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/reselleradmin$/);

  await form.getByLabel(L.logo).setInputFiles(files.logo);
  await expect(form.getByTestId('preview-logo')).toBeVisible();
  await expect(preview.getByTestId('preview-header-logo')).toHaveAttribute('src', /^blob:/);
  await form.getByLabel(L.favicon).setInputFiles(files.favicon);
  await page.getByTestId('save-look-and-feel').click();
  await expect(toast(page, T.saved)).toBeVisible();

  // The page reloads with the look-and-feel marker, on that tab, and the header shows the new brand.
  await expect(page).toHaveURL(/\/admin\/reselleradmin\?lookandfeel$/);
  await expect(page.getByRole('tab', { name: T.lookAndFeelTab })).toHaveAttribute('aria-selected', 'true');
  const headerLogo = page.getByTestId('header').getByRole('img');
  await expect(headerLogo).toHaveAttribute('src', /^\/public\/downloads\/img\/logo-[0-9a-f]{32}\.png$/);
  const size = await headerLogo.evaluate((img: HTMLImageElement) => ({
    width: img.naturalWidth,
    height: img.naturalHeight,
  }));
  expect(size).toEqual({ width: 280, height: 120 });
  await expect(page.getByTestId('current-favicon')).toHaveAttribute('src', /favicon-[0-9a-f]{32}\.png$/);
  await expect(
    page.getByTestId('look-and-feel-form').getByRole('textbox', { name: L.appHeaderColour, exact: true }),
  ).toHaveValue('#336699');
  const headerColour = await page.getByTestId('header').evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(headerColour).toBe('rgb(51, 102, 153)');

  // After a plain reload too.
  await page.reload();
  await expect(page.getByTestId('header').getByRole('img')).toHaveAttribute('src', /logo-[0-9a-f]{32}\.png$/);
  const uploadedLogo = (await page.getByTestId('header').getByRole('img').getAttribute('src')) ?? '';
  const uploadedFavicon = (await page.getByTestId('current-favicon').getAttribute('src')) ?? '';
  await signOut(page);

  // The reseller's customer sees them on its dashboard…
  await signIn(page, 'super-admin@demo.test');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByTestId('header').getByRole('img')).toHaveAttribute('src', uploadedLogo);
  await expect(page.locator('head link[rel="icon"]')).toHaveAttribute('href', uploadedFavicon);
  expect(await page.getByTestId('header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
    'rgb(51, 102, 153)',
  );
  await signOut(page);
  // …and on the sign-in page reached through the reseller's own host name.
  await page.goto(`${NORTHWIND_ORIGIN}/login`);
  await expect(page.getByTestId('login-wrapper').getByRole('img')).toHaveAttribute('src', uploadedLogo);
  await expect(page.locator('head link[rel="icon"]')).toHaveAttribute('href', uploadedFavicon);
});

test.describe('e-mail settings against a real SMTP server', () => {
  let smtp: TestSmtpServer;
  test.beforeAll(async () => {
    smtp = await startTestSmtpServer({ users: { northwind: 'mail-secret' } });
  });
  test.afterAll(() => smtp.close());

  test('a wrong password is shown on its field; good settings are tested, a test mail arrives, then saved', async ({
    page,
  }) => {
    await openReseller(page);
    await page.getByRole('tab', { name: T.emailTab }).click();
    const form = page.getByTestId('email-settings-form');
    await form.getByLabel(L.emailHost).fill(smtp.host);
    await form.getByLabel(L.emailPort).fill(String(smtp.port));
    await form.getByLabel(L.emailUsername).fill('northwind');
    await form.getByLabel(L.emailPassword).fill('wrong');
    await form.getByLabel(L.sendFromEmailAddress).fill('noreply@northwind.test');
    await page.getByTestId('save-email-settings').click();
    await expect(form.getByText(T.emailAuthFailed)).toBeVisible();

    await form.getByLabel(L.emailPassword).fill('mail-secret');
    await page.getByTestId('save-email-settings').click();
    await expect(toast(page, T.emailSaved)).toBeVisible();
    const mail = await smtp.waitFor((m) => m.to.includes('support@northwind.test'));
    expect(mail).toMatchObject({ from: 'noreply@northwind.test', user: 'northwind', secure: true });
    // The password is never shown again.
    await expect(form.getByLabel(L.emailPassword)).toHaveValue('');
  });
});

test("the provider admin edits a reseller's account settings, with the other two tabs disabled", async ({ page }) => {
  await signIn(page, 'provider-admin@demo.test');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Reseller Admin' }).click();
  await expect(page).toHaveURL(/\/boltadmin\/resellers$/);
  const table = page.getByRole('table', { name: MESSAGES.customer.resellersTitle });
  await table.getByRole('link', { name: `${MESSAGES.customer.manage} Northwind Backup` }).click();
  await page.getByRole('link', { name: T.providerButton }).click();
  await expect(page).toHaveURL(/\/boltadmin\/customers\/\d+\/resellersettings$/);

  await expect(page.getByRole('tab', { name: T.lookAndFeelTab })).toBeDisabled();
  await expect(page.getByRole('tab', { name: T.emailTab })).toBeDisabled();
  await expect(page.getByText(T.providerTabsDisabled)).toBeVisible();
  const customUrl = page.getByLabel(L.customUrl);
  await expect(customUrl).toHaveValue('backup.northwind.test');
  // Another reseller's address is refused on the field.
  await customUrl.fill('SafeVault.Fabrikam.test');
  await page.getByTestId('save-account-settings').click();
  await expect(page.getByTestId('account-settings-form').getByText(T.customUrlTaken)).toBeVisible();
  await customUrl.fill('cloud.northwind.test');
  await expect(page.getByLabel(L.resellerEnabled)).toBeChecked();
  await page.getByTestId('save-account-settings').click();
  await expect(toast(page, T.saved)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(L.customUrl)).toHaveValue('cloud.northwind.test');
  // Back to the demo's address, which the custom host journeys use.
  await page.getByLabel(L.customUrl).fill('backup.northwind.test');
  await page.getByTestId('save-account-settings').click();
  await expect(toast(page, T.saved)).toBeVisible();
});
