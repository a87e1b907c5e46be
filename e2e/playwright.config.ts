import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { testSmtpCertificate } from '../apps/server/src/testing/smtp';
import { CHROMIUM_FLAGS } from '../bench/chromium';

const port = Number(process.env.E2E_PORT ?? 18080);
export const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'demo-password';
// Shared with the worker processes through the environment: the packages journey checks the server's files.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'portal-e2e-'));
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR;
/** The demo's WHMCS-compatible billing server (billing journey). */
export const DEMO_WHMCS_PORT = port + 2;
/** The demo reseller Northwind's own host name (its custom URL), which Chromium resolves to this server. */
export const NORTHWIND_HOST = 'backup.northwind.test';
export const NORTHWIND_ORIGIN = `http://${NORTHWIND_HOST}:${port}`;
// Every journey's agent is a device of its own (its config directory), not this host's machine id: otherwise a
// journey linking this host would re-link the machine an earlier journey made.
process.env.PORTAL_AGENT_IGNORE_MACHINE_ID = '1';
/**
 * Journeys that link agents or change demo data other journeys read, in three groups. Each group runs its journeys one
 * at a time (a journey's change is another's data); the two lanes run side by side, since nothing in one reads or
 * changes what the other does: the agents lane works on Contoso's machines (its admins' agents, tasks and packages),
 * the admin lane on other tenants, templates, storage and sign-ups of its own. They wait on agents, restic and the
 * portal's delays more than on the CPU (CI's two cores, the PostgreSQL pass beside).
 */
const DEMO_USERS = [
  // Changes Contoso's admin's sign-in e-mail and its super admin's password for a while, which journeys signing in as
  // them at the same time would meet.
  '**/account.spec.ts',
  // Counts every new sign-up, which journeys of both lanes add.
  '**/signup.spec.ts',
];
const AGENTS_LANE = [
  '**/live-dashboard.spec.ts',
  '**/machine-link.spec.ts',
  // Links a real agent, runs restic commands on it and has it measure its storage and upload its log files.
  '**/diagnostics.spec.ts',
  // task-form: adds a task to the shared machine.
  '**/task-form.spec.ts',
  // Task page (issue 14): links a real agent with a linking code; adds, runs, downloads from and deletes a task.
  '**/tasks.spec.ts',
  // Getting the agent (issue 14): installs and links a machine from the portal's one-liner.
  '**/agent-install.spec.ts',
  // Restore to the machine (issue 14): links a real agent, backs up and restores a folder.
  '**/restore.spec.ts',
  // Find a file (issue 31): backs up twice on the shared machine, searches, downloads from a file's history.
  '**/file-search.spec.ts',
  // Restore tests (issue 32): backs up on the shared machine and tests a restore of it; sets Contoso's interval.
  '**/restore-test.spec.ts',
  // Data checks (issue 32): backs up on the shared machine, damages a pack of its repository and puts it back; leaves
  // a stale lock there for the check to remove.
  '**/data-check.spec.ts',
  // Tampering (issue 32): backs up on the shared machine, then attacks its repository with the machine's own key.
  '**/tampering.spec.ts',
  // Guard rails (issue 32): backs up on the shared machine twice, pins a snapshot, acknowledges an unusual run.
  '**/guardrails.spec.ts',
  // Phones (issue 31): runs a task of the shared machine at 390 px wide and signs a customer up.
  '**/phone.spec.ts',
  // Renames Contoso's first package (Head office, where the agents link) for a while.
  '**/package-edit.spec.ts',
  // Notification settings (issue 17): subscribes a Contoso user to failed runs of one of its machines.
  '**/notification-settings.spec.ts',
];
const ADMIN_LANE = [
  '**/customers.spec.ts',
  '**/users.spec.ts',
  // Changes a demo task's volume snapshots setting.
  '**/task-overview.spec.ts',
  // The machine pages' journey edits, suspends and deletes a demo machine (not Contoso's).
  '**/machines.spec.ts',
  // Package templates and requests (issue 15): adds and deletes a template; approves a journey's sign-up.
  '**/package-templates.spec.ts',
  '**/package-requests.spec.ts',
  // Backup packages (issue 15): suspends and deletes a direct customer's demo package.
  '**/packages.spec.ts',
  // Billing (issue 15): adds a billing server and pays the direct demo customer's invoice.
  '**/billing.spec.ts',
  // Buying backup (issue 15): buys and pays for a package of the direct demo customer and upgrades one.
  '**/buying.spec.ts',
  // Storage accounts (issue 16): removes a principal from a demo bucket's policy.
  '**/storage-accounts.spec.ts',
  // Package migrations (issue 16): migrates a demo package to its customer's other location and finalises.
  '**/migrations.spec.ts',
  // Storage locations (issue 16): gives a journey's sign-up its locations, makes one default, deletes the other.
  '**/storage-locations.spec.ts',
  // Reseller settings (issue 17): changes the demo reseller's colours, logo, favicon, e-mail settings and custom URL.
  '**/reseller-settings.spec.ts',
  // Two-factor sign-in (issue 18): signs a customer up and turns it on; a seeded provider admin enrols.
  '**/mfa.spec.ts',
  // Tampering on S3 (issue 32): starts a Ceph RGW of its own, adds it as a storage account, approves a sign-up on it,
  // links a real agent and attacks its repository with the machine's own S3 key (nothing of Contoso's).
  '**/tampering-s3.spec.ts',
];
const LOG_CHECK = ['**/secrets-in-log.spec.ts'];
/** The server's output, its debug log lines included, for the log check (tests/secrets.ts reads it). */
const SERVER_LOG = join(E2E_DATA_DIR, 'server.log');

/**
 * The reseller settings journey's SMTP server (started in the journey) has a self-signed certificate: made here,
 * before the server starts, and trusted by it through SMTP_CA_FILE; loopback mail servers are allowed.
 */
const SMTP_CA_FILE = testSmtpCertificate().file;

/** Journeys run in the system Chromium against the built server in demo mode on a fresh data dir. */
export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  // Two at most: the agents and admin lanes side by side. The journeys that only read the demo data may run side by
  // side too (E2E_WORKERS), one at a time by default: on CI's 2 cores two were slower (the demo data project 91 s
  // against 68 s, 2026-12-07), each worker's Chromium and the server sharing the same two cores.
  workers: Math.max(2, Number(process.env.E2E_WORKERS ?? 1)),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // Journeys that add machines (real agents, linking) or change demo data run after those that check the seeded demo
  // data: first those that change the demo users, alone, then the two lanes side by side, each a journey at a time.
  // Those with an agent share one linked machine (tests/machine.ts).
  projects: [
    {
      name: 'demo data',
      testIgnore: [...DEMO_USERS, ...AGENTS_LANE, ...ADMIN_LANE, ...LOG_CHECK],
      fullyParallel: true,
      workers: Number(process.env.E2E_WORKERS ?? 1),
    },
    { name: 'demo users', testMatch: DEMO_USERS, dependencies: ['demo data'], workers: 1 },
    { name: 'agents', testMatch: AGENTS_LANE, dependencies: ['demo users'], workers: 1 },
    { name: 'admin', testMatch: ADMIN_LANE, dependencies: ['demo users'], workers: 1 },
    // Last: the server's debug log searched for every secret the journeys used.
    { name: 'log check', testMatch: LOG_CHECK, dependencies: ['agents', 'admin'] },
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Recording a trace of every journey (to keep those that fail) cost a third of the journeys' time on CI's 2 cores
    // (the demo data project 166 s against 113 s, 2026-12-07), and CI keeps only its log: off unless asked for, e.g.
    // E2E_TRACE=retain-on-failure when a journey fails here.
    trace: (process.env.E2E_TRACE ?? 'off') as 'off' | 'on' | 'retain-on-failure' | 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        ...CHROMIUM_FLAGS,
        // The branding journey opens the portal on a reseller's custom host name.
        `--host-resolver-rules=MAP ${NORTHWIND_HOST} 127.0.0.1`,
      ],
    },
  },
  webServer: {
    // exec: the server itself receives Playwright's stop signal, with its output (the log at debug level) in a file.
    command: `exec node ../apps/server/dist/main.js >> '${SERVER_LOG}' 2>&1`,
    url: `http://127.0.0.1:${port}/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      DEMO: 'true',
      // The journeys check the seeded demo data; live demo agents would change it as they run.
      DEMO_AGENTS: '0',
      PORT: String(port),
      HOST: '127.0.0.1',
      // The address the journeys reach the server at: links made for people (the billing system's 'Back to the
      // portal', mails) come back to this host, where the browser's session cookie is.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: E2E_DATA_DIR,
      DEMO_PASSWORD,
      DEMO_SMTP_PORT: String(port + 1),
      DEMO_WHMCS_PORT: String(DEMO_WHMCS_PORT),
      // Several journeys sign up fresh customers, all from this one address.
      SIGNUP_LIMIT_PER_ADDRESS: '100',
      SMTP_CA_FILE,
      ALLOW_PRIVATE_ENDPOINTS: 'true',
      // Provider admins must set up two-factor sign-in; the demo's listed logins are spared, so the journeys
      // signing in as provider-admin@demo.test are not asked, and the MFA journey's other provider admin is.
      MFA_REQUIRED_FOR_PROVIDER_ADMINS: 'true',
      // The S3 tampering journey waits for the scan that puts back what a machine replaced (360 by default).
      S3_REPLACEMENT_SCAN_MINUTES: '1',
      // Debug: the log check looks for secrets in everything the server can log.
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
    },
  },
});
