import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  AUDIT_TEXTS,
  type AuditEventType,
  type AuditRow,
  auditKindName,
  auditSubjectText,
  type Envelope,
  MESSAGES,
  PAGES,
} from '@portal/domain';
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

/**
 * The provider's audit trail (signed in as a provider admin) filtered by the event `type` in its form, as the admin
 * does: answers its rows of that kind naming `subject` (the kind's records of other subjects are listed too).
 */
export async function providerAuditRows(
  page: Page,
  type: AuditEventType,
  subject: Pick<AuditRow, 'subjectType' | 'subjectId' | 'subjectName'>,
): Promise<Locator> {
  await page.goto(PAGES.providerAudit);
  const filter = page.getByTestId('audit-filter');
  await filter.getByLabel(AUDIT_TEXTS.labels.kind).selectOption({ label: auditKindName(type) });
  await filter.getByRole('button', { name: AUDIT_TEXTS.apply }).click();
  const rows = page.getByTestId('audit-table').locator('tbody tr');
  // Retried: the unfiltered page stays up while the filtered one loads.
  await expect(rows.filter({ hasNotText: auditKindName(type) })).toHaveCount(0);
  return rows
    .filter({ hasText: auditKindName(type) })
    .filter({ has: page.getByRole('cell', { name: auditSubjectText(subject), exact: true }) });
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

/** Sign-up details of a visitor of one journey alone, with the stamp that keeps them apart from every other's. */
export interface Visitor extends SignUpDetails {
  stamp: string;
}

/**
 * A new visitor of `company` (a journey's own): the stamp in its company name, surname and e-mail address makes
 * them unique across journeys and runs, so the journeys find the customer by them.
 */
export function newVisitor(company: string, person: { firstName: string; surname: string; password: string }): Visitor {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  return {
    stamp,
    companyName: `${company} ${stamp}`,
    firstName: person.firstName,
    surname: `${person.surname}${stamp}`,
    email: `${person.firstName.toLowerCase()}.${stamp}@journey.test`,
    password: person.password,
  };
}

/** A new visitor of `company` (newVisitor), signed up through the public /signup page (signUpCustomer). */
export async function signUpVisitor(
  page: Page,
  company: string,
  person: { firstName: string; surname: string; password: string },
): Promise<Visitor> {
  const visitor = newVisitor(company, person);
  await signUpCustomer(page, visitor);
  return visitor;
}

/** Signs the provider admin in and opens a page of the admin area from its menu, as they would. */
export async function openAdminAreaPage(page: Page, link: string): Promise<void> {
  await signIn(page, 'provider-admin@demo.test');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Admin Area' }).click();
  await page.getByRole('navigation', { name: 'Admin area menu' }).getByRole('link', { name: link }).click();
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

/**
 * The provider admin (signed in) opens Package Requests and pages on to `companyName`'s pending request (the
 * oldest come first, 5 a page, so a new one is near the end): its row. Journeys of the other lane sign up and approve
 * at the same time, so a row can move back a page while this pages forward: at the last page without it, the list is
 * read again from its first page, for up to 45 s.
 */
export async function pendingRequestRow(page: Page, companyName: string) {
  await page.goto('/boltadmin/customers');
  await page.getByRole('link', { name: 'Package Requests' }).click();
  await expect(page).toHaveURL(/\/boltadmin\/backuppackagerequests$/);
  const listAddress = page.url();
  const table = page.getByRole('table', { name: MESSAGES.packageRequest.tableLabel });
  const row = table.getByRole('row').filter({ hasText: companyName });
  const next = page.getByRole('button', { name: 'Next page', exact: true });
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    await expect(table).toBeVisible();
    if (await row.isVisible()) return row;
    if ((await next.count()) > 0 && (await next.isEnabled())) {
      await next.click();
      await page.waitForTimeout(200);
    } else {
      await page.goto(listAddress);
    }
  }
  return row;
}

/** The page states this worker has scanned: a state the journeys reach again is not scanned again. */
const scanned = new Set<string>();

/**
 * axe-core over the page as it stands (issue 31): fails on any critical or serious violation, naming each rule and
 * the elements it found. Called where a journey has opened a page or a dialog; a state already scanned in this worker
 * (the same address with its ids as ':id', the same tab title and open dialog) is not scanned again, so a journey
 * passing the dashboard many times pays for one scan.
 */
export async function expectAccessible(page: Page): Promise<void> {
  const url = new URL(page.url());
  const dialog = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[role="dialog"]'))
      .map((d) => d.querySelector('.modal-title')?.textContent)
      .join('+'),
  );
  const state = `${url.host}${url.pathname.replace(/\/\d+/g, '/:id')}${url.search}|${await page.title()}|${dialog}`;
  if (scanned.has(state)) return;
  scanned.add(state);
  // A scan (injecting axe, then its rules) takes a second or more on a busy machine: the journey's own time limit is
  // lengthened by what the scan took, so scanning never eats into the time its steps are allowed.
  const started = Date.now();
  const testInfo = test.info();
  const lengthen = () => testInfo.setTimeout(testInfo.timeout + (Date.now() - started));
  // A dialog fading in is half transparent: its colours are measured once the transitions have ended (a few hundred
  // milliseconds; past 5 s the page is scanned as it stands). Transitions that would start during the scan (a button
  // enabled as the page's data arrives) are switched off meanwhile, so no colour is measured half-way.
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
      undefined,
      { timeout: 5000 },
    )
    .catch(() => undefined);
  const still = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  const { violations } = await new AxeBuilder({ page }).analyze().finally(async () => {
    lengthen();
    await still.evaluate((style) => (style as Element).remove()).catch(() => undefined);
  });
  const failing = violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => ({
      rule: `${v.id} (${v.impact}): ${v.help}`,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.replace(/\s+/g, ' ')),
    }));
  expect(failing, `critical or serious accessibility violations on ${page.url()}`).toEqual([]);
}

/**
 * Turns the pages of a paged table in `scope` ('Next page', each turn waiting for its paging text to change) until
 * `row` shows, or the last page (no 'Next page') shows it. The table's first page must have arrived (a table of one
 * page has no paging).
 */
export async function turnPagesTo(scope: Page | Locator, row: Locator): Promise<void> {
  const paging = scope.getByTestId('paging-text');
  const next = scope.getByRole('button', { name: 'Next page', exact: true });
  for (let turns = 0; turns < 50 && !(await row.isVisible()) && (await next.count()) > 0; turns++) {
    const before = (await paging.textContent()) ?? '';
    await next.click();
    await expect(paging).not.toHaveText(before);
  }
  await expect(row).toBeVisible();
}

/** Parses RFC 4180 lines without quoted line breaks (the records have none). */
export function csvRows(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => {
      const cells: string[] = [];
      for (const match of line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g))
        cells.push(match[1] !== undefined ? match[1].replaceAll('""', '"') : (match[2] ?? ''));
      return cells;
    });
}
