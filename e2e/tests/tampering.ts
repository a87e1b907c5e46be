/**
 * Immutability, proven hostile (issue 32 item 6): the steps the tampering journeys share, on the embedded storage
 * (tampering.spec.ts) and on S3 (tampering-s3.spec.ts): a backup to attack, what the agent keeps on the machine (and
 * so what ransomware there can read), restic as the agent runs it, and what the provider admin finds afterwards.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { RepositorySettings } from '@portal/domain';
import { backUpNow, openNewSamplesTask } from './agent';
import { providerAuditRows } from './helpers';

/** The repository settings the agent keeps in its state directory: address, password, S3 key. */
export function machineRepository(stateDir: string): RepositorySettings {
  return JSON.parse(readFileSync(join(stateDir, 'repository.json'), 'utf8')) as RepositorySettings;
}

/**
 * `restic` on the machine's repository as the agent runs it (its password and environment, as an S3 key), at
 * `repository` when the address needs the machine's credential written in.
 */
export function resticAsMachine(settings: RepositorySettings, args: string[], repository = settings.repository) {
  return spawnSync('restic', ['--no-cache', ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...settings.env,
      RESTIC_REPOSITORY: repository,
      RESTIC_PASSWORD: settings.password,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/**
 * The machine's owner (signed in) backs up a folder of `dir` with a new task once the machine is online, and sees
 * the run succeed: the repository to attack. `id` keeps the task's name and request ids the journey's own.
 */
export async function backUpSamples(page: Page, machineId: number, dir: string, id: string): Promise<void> {
  const samples = join(dir, 'samples');
  mkdirSync(samples, { recursive: true });
  writeFileSync(join(samples, 'invoices.bin'), randomBytes(64 * 1024));
  const taskId = await openNewSamplesTask(page, machineId, { requestId: id, name: 'Attacked', samples });
  await backUpNow(page, { machineId }, taskId, { requestId: `${id}-run`, count: 1 });
}

/**
 * The provider admin (signed in) finds the attack: on the audit trail one record of the burst with the machine
 * named, and one alert mail saying what the storage did (`outcome`).
 */
export async function expectAttackReported(
  page: Page,
  machine: { machineId: number; name: string },
  outcome: string,
): Promise<void> {
  const records = await providerAuditRows(page, 'STORAGE_TAMPERING_REFUSED', {
    subjectType: 'machine',
    subjectId: machine.machineId,
    subjectName: machine.name,
  });
  // One burst of attempts: the trail records its first (then the 10th, 100th, …).
  await expect(records).toHaveCount(1);

  await page.goto('/demo/mails');
  const alerts = page
    .getByRole('row')
    .filter({ hasText: 'provider-admin@demo.test' })
    .filter({ has: page.getByRole('button', { name: `Backups attacked: machine ${machine.name} of ` }) });
  // The mail job is woken when the alert is queued; the viewer asks again every 3 s.
  await expect(alerts).toHaveCount(1, { timeout: 30_000 });
  await alerts.getByRole('button').click();
  await expect(page.getByTestId('mail-text')).toContainText(`the machine ${machine.name} of `);
  await expect(page.getByTestId('mail-text')).toContainText(outcome);
}
