import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import {
  DATA_CHECK_ALL,
  DATA_CHECK_OUTCOME_BADGES,
  DATA_CHECK_TEXTS,
  dataCheckRepairSteps,
  taskUrl,
} from '@portal/domain';
import { E2E_DATA_DIR } from '../playwright.config';
import { backUpNow, openSamplesTask, ownMachine } from './agent';
import { expectAccessible, providerAuditRows, signIn, signOut } from './helpers';
import { test } from './machine';
import { POLY1305_TEST_VECTOR, poly1305, resticOn, writeLock } from './restic-lock';
import { machineRepository } from './tampering';

/** The machine's repository in the embedded storage (`{data dir}/storage/{bucket}/{subfolder?}/{machine id}`). */
function repositoryOf(machineId: number): string {
  const search = (dir: string, depth: number): string | null => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (entry.name === String(machineId) && existsSync(join(path, 'config'))) return path;
      const found = depth > 0 ? search(path, depth - 1) : null;
      if (found) return found;
    }
    return null;
  };
  const found = search(join(E2E_DATA_DIR, 'storage'), 3);
  if (!found) throw new Error(`no repository of machine ${machineId}`);
  return found;
}

/** The largest pack file of the repository: it holds file data (trees are small). */
function largestPack(repository: string): string {
  const data = join(repository, 'data');
  const packs = readdirSync(data).flatMap((sub) => readdirSync(join(data, sub)).map((id) => join(data, sub, id)));
  const [largest] = packs.sort((a, b) => statSync(b).size - statSync(a).size);
  if (!largest) throw new Error('no pack');
  return largest;
}

/**
 * 'Check all data now' on the provider's task page, confirmed; answers when the check's result is there (a new one:
 * after an earlier check its time, to the second, differs).
 */
async function checkAllData(page: Page, outcome: 'PASSED' | 'FAILED') {
  const section = page.getByTestId('data-check');
  const summary = section.getByTestId('data-check-summary');
  await expect(section).toBeVisible();
  const checkedAt = summary.getByRole('row', { name: DATA_CHECK_TEXTS.lastChecked });
  const before = (await summary.count()) > 0 ? await checkedAt.textContent() : null;
  await section.getByRole('button', { name: DATA_CHECK_TEXTS.checkNow }).click();
  const dialog = page.getByTestId('check-data-dialog');
  await dialog.getByRole('button', { name: DATA_CHECK_TEXTS.checkNow }).click();
  await expect(page.getByText(DATA_CHECK_TEXTS.checkStarted)).toBeVisible();
  // The section asks again while the check runs; the data checks' job takes it at once.
  if (before !== null) await expect(checkedAt).not.toHaveText(before, { timeout: 30_000 });
  await expect(summary.getByTestId('status-badge')).toHaveText(DATA_CHECK_OUTCOME_BADGES[outcome].text, {
    timeout: 30_000,
  });
  await expect(section.getByTestId('data-check-checking')).toHaveCount(0);
  await expect(summary).toContainText(DATA_CHECK_ALL);
}

/**
 * The corruption drill (issue 32 items 2 and 5): a task of the shared machine backs up; on disk a pack of its
 * repository in the embedded storage is damaged; the provider's 'Check all data now' finds it, the task page shows the
 * damage and the repair path, and the alert mail reaches the demo's mail viewer. The pack's copy put back (as the
 * repair path's first steps keep one), the next check passes, so the shared machine's repository is whole again.
 */
test('the provider checks all of a repository’s data: a damaged pack is found, shown, mailed and repaired', async ({
  page,
  machineDir: dir,
  samples,
  sharedMachine,
}) => {
  test.setTimeout(150_000);
  const { machineId } = sharedMachine;
  // Random data does not deduplicate: a pack of its own, not shared with other journeys' backups.
  writeFileSync(join(samples, 'ledger.bin'), randomBytes(2 * 1024 * 1024));

  const taskId = await openSamplesTask(page, sharedMachine, { requestId: 'data-check-e2e', name: 'Checked', samples });
  await backUpNow(page, sharedMachine, taskId, { requestId: 'data-check-e2e-run', count: 1 });
  const machine = await ownMachine(page, machineId);
  if (!machine) throw new Error('shared machine not listed');
  const providerPath = { customerId: machine.customerId, packageId: machine.backupPackageId, machineId };
  await signOut(page);

  // The drill: a copy of the largest pack aside, then bytes of it overwritten on disk.
  const repository = repositoryOf(machineId);
  const pack = largestPack(repository);
  const copy = join(dir, 'pack-copy');
  copyFileSync(pack, copy);
  chmodSync(pack, 0o600);
  const fd = openSync(pack, 'r+');
  writeSync(fd, Buffer.from('corrupted by the drill'), 0, undefined, 200);
  closeSync(fd);

  try {
    await signIn(page, 'provider-admin@demo.test');
    await page.goto(taskUrl('provider', { ...providerPath, taskId }));
    await checkAllData(page, 'FAILED');
    const section = page.getByTestId('data-check');
    await expect(section.getByTestId('data-check-errors')).toContainText('Pack ID does not match');
    const repair = section.getByTestId('data-check-repair');
    // The steps for the installed restic (with or without `restic repair`); both begin alike.
    const steps = dataCheckRepairSteps(false).steps;
    await expect(repair.getByRole('listitem').first()).toHaveText(steps[0] ?? '');
    await expect(repair.getByRole('listitem').last()).toHaveText(steps.at(-1) ?? '');
    await expectAccessible(page);

    // The alert, in the demo's mail viewer (the mail job sends every 30 s).
    await expect(async () => {
      await page.goto('/demo/mails');
      await expect(
        page.getByRole('button', { name: `Backup data damaged: ${sharedMachine.name}` }).first(),
      ).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000 });
  } finally {
    // The repair: the pack's copy put back.
    copyFileSync(copy, pack);
  }
  await page.goto(taskUrl('provider', { ...providerPath, taskId }));
  await checkAllData(page, 'PASSED');
  await expect(page.getByTestId('data-check-repair')).toHaveCount(0);
});

/**
 * The stale-lock drill (issue 32 item 5): a task of the shared machine backs up; then its repository holds the lock of
 * a restic killed two hours ago (exclusive, as a prune's: the machine's backups fail until it goes) and another's
 * only ten minutes old. The provider's 'Check all data now' removes the stale one before it reads, the audit trail
 * shows the removal once, and still once after a second check; the young lock stays, and the next backup runs.
 */
test('a stale lock in a repository is removed by the data check once, audited, and backups run again', async ({
  page,
  samples,
  sharedMachine,
}) => {
  test.setTimeout(120_000);
  const { machineId, name } = sharedMachine;
  writeFileSync(join(samples, 'notes.txt'), 'locked out');
  const taskId = await openSamplesTask(page, sharedMachine, { requestId: 'stale-lock-e2e', name: 'Unlocked', samples });
  await backUpNow(page, sharedMachine, taskId, { requestId: 'stale-lock-e2e-run', count: 1 });
  const machine = await ownMachine(page, machineId);
  if (!machine) throw new Error('shared machine not listed');
  const providerPath = { customerId: machine.customerId, packageId: machine.backupPackageId, machineId, taskId };
  await signOut(page);

  // The locks, written with the machine's repository password as the agent keeps it.
  const { key, message, tag } = POLY1305_TEST_VECTOR;
  expect(poly1305(key, message).toString('hex')).toBe(tag);
  const repository = repositoryOf(machineId);
  const { password } = machineRepository(sharedMachine.stateDir);
  const lock = (minutesAgo: number, exclusive: boolean) =>
    writeLock(repository, password, {
      time: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      exclusive,
      // Another host's: restic calls its lock stale by age alone, not by a process gone from this host.
      hostname: 'killed-restic.example',
      username: 'backup',
      pid: 4242,
      uid: 1000,
      gid: 1000,
    });
  const stale = lock(120, true);
  const young = lock(10, false);
  const locks = () => resticOn(repository, password, ['list', 'locks']).trim().split('\n').filter(Boolean).sort();
  try {
    // restic reads them as its own.
    expect(JSON.parse(resticOn(repository, password, ['cat', 'lock', stale]))).toMatchObject({
      exclusive: true,
      hostname: 'killed-restic.example',
    });
    expect(locks()).toEqual([stale, young].sort());

    await signIn(page, 'provider-admin@demo.test');
    const subject = { subjectType: 'machine', subjectId: machineId, subjectName: name };
    for (let round = 0; round < 2; round++) {
      await page.goto(taskUrl('provider', providerPath));
      await checkAllData(page, 'PASSED');
      // Others may hold a lock meanwhile (the portal's retention reads the snapshots once the check is done).
      expect(locks()).toContain(young);
      expect(locks()).not.toContain(stale);
      await expect(await providerAuditRows(page, 'STALE_LOCK_REMOVED', subject)).toHaveCount(1);
    }
    expect(existsSync(join(repository, 'locks', stale))).toBe(false);
    await signOut(page);

    await signIn(page, sharedMachine.owner);
    await page.goto(taskUrl('customer', { machineId, taskId }));
    await backUpNow(page, sharedMachine, taskId, { requestId: 'stale-lock-e2e-run-2', count: 2 });
  } finally {
    for (const id of [stale, young]) rmSync(join(repository, 'locks', id), { force: true });
  }
});
