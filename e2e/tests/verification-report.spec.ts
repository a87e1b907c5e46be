import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { MESSAGES, VERIFICATION_REPORT_TEXTS as TEXT, VERIFICATION_CSV_HEADER } from '@portal/domain';
import { pdfFacts } from '../../apps/server/src/testing/pdf';
import { csvRows, expectAccessible, openAdminAreaPage, signIn } from './helpers';

/**
 * The verification report (issue 32 item 4): Contoso's super admin opens it from the account page, picks a period
 * and downloads it as CSV (every task, with its machine) and as a one-page PDF naming the customer.
 */
const SUPER_ADMIN = 'super-admin@demo.test';
const FILE = (ext: string) =>
  new RegExp(`^verification-report-contoso-ltd-2026-01-01-to-\\d{4}-\\d{2}-\\d{2}\\.${ext}$`);

test('a customer super admin downloads its verification report as CSV and as a one-page PDF', async ({ page }) => {
  await signIn(page, SUPER_ADMIN);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Account Settings' }).click();
  await page.getByTestId('account-verification-link').click();
  await expect(page).toHaveURL(/\/admin\/account\/verificationreport$/);
  await expect(page.getByRole('heading', { level: 1, name: TEXT.title })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^${TEXT.title} · `));
  const crumbs = page.getByTestId('breadcrumbs');
  await expect(crumbs.getByRole('link', { name: MESSAGES.account.title })).toBeVisible();
  await expectAccessible(page);

  // A longer period than the default, so the demo's whole run history is in it.
  await page.getByTestId('verification-own-from').fill('2026-01-01');

  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('verification-own-csv').click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(FILE('csv'));
  const rows = csvRows(readFileSync((await csv.path()) ?? '', 'utf8'));
  expect(rows[0]).toEqual([...VERIFICATION_CSV_HEADER]);
  const tasks = rows.slice(1);
  expect(tasks.length).toBeGreaterThan(0);
  expect(new Set(tasks.map((r) => r[0]))).toEqual(new Set(['Contoso Ltd']));
  expect(tasks.map((r) => r[1])).toContain('CONTOSO-LT-014');
  // The demo's history has successful runs: some task has a last successful backup and runs counted.
  expect(tasks.some((r) => r[3] !== '' && Number(r[8]) > 0)).toBe(true);

  const pdfDownload = page.waitForEvent('download');
  await page.getByTestId('verification-own-pdf').click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toMatch(FILE('pdf'));
  const bytes = readFileSync((await pdf.path()) ?? '');
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const { pages, text } = pdfFacts(bytes);
  expect(pages).toBe(1);
  expect(text).toContain('Contoso Ltd');
  expect(text).toContain(TEXT.pdfPeriod('2026-01-01', new Date().toISOString().slice(0, 10)));
});

test('the provider admin downloads the roll-up over every customer from the admin area', async ({ page }) => {
  await openAdminAreaPage(page, 'Verification Report');
  await expect(page).toHaveURL(/\/boltadmin\/verificationreport$/);
  await expect(page.getByRole('heading', { level: 1, name: TEXT.title })).toBeVisible();
  await expect(page.getByTestId('breadcrumbs')).toContainText(MESSAGES.customer.adminAreaCrumb);
  await page.getByTestId('verification-rollup-from').fill('2026-01-01');
  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('verification-rollup-csv').click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(/^verification-report-all-customers-2026-01-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const customers = new Set(
    csvRows(readFileSync((await csv.path()) ?? '', 'utf8'))
      .slice(1)
      .map((r) => r[0]),
  );
  expect(customers.has('Contoso Ltd')).toBe(true);
  expect(customers.size).toBeGreaterThan(1);
  const pdfDownload = page.waitForEvent('download');
  await page.getByTestId('verification-rollup-pdf').click();
  const { pages, text } = pdfFacts(readFileSync((await (await pdfDownload).path()) ?? ''));
  expect(pages).toBe(1);
  expect(text).toContain('Contoso Ltd');
});
