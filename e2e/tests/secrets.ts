/**
 * Every secret the journeys use, for the last check (secrets-in-log.spec.ts): the server's debug log must hold
 * none of them. The fixed ones the journeys type are listed here; the ones made while they run (new passwords,
 * session cookies, reset tokens) are appended to a file in the run's data directory by `recordSecret`.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_PASSWORD, E2E_DATA_DIR } from '../playwright.config';

/** Where the e2e server's output goes (playwright.config.ts's webServer), debug log lines included. */
export const SERVER_LOG = join(E2E_DATA_DIR, 'server.log');
const RECORDED = join(E2E_DATA_DIR, 'journey-secrets.txt');

/** Secrets typed by the journeys (demo password, WHMCS secret, SMTP and S3 passwords, users' passwords). */
export const TYPED_SECRETS = [
  DEMO_PASSWORD,
  'demo-whmcs-secret',
  'mail-secret',
  'admin-secret',
  'journey password 1',
  'yet another password',
  'not the password',
  'a new demo password',
  'sign-up-password',
];

export function recordSecret(value: string): void {
  // Short values would match unrelated text; every secret the portal makes is longer.
  if (value.length >= 8) appendFileSync(RECORDED, `${value}\n`);
}

export function recordedSecrets(): string[] {
  if (!existsSync(RECORDED)) return [];
  return readFileSync(RECORDED, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}
