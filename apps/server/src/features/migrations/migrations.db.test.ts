/**
 * Package migrations (issue 16) with the real rclone and restic: a restic repository per machine on one
 * LOCAL location copied to another, its tasks held through the final sync, verified, finalised, restored
 * from the destination; rollback, a crashed instance's sequence, stop, the account migration, the live
 * queue and who may do any of it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  COMMAND_RESPONSE_TYPES,
  MESSAGES,
  MIGRATION_TEXTS,
  migrationQueue,
  type PackageMigrationDetail,
  ROUTES,
  readCommandResponse,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  backupMachines,
  backupPackages,
  buckets,
  packageMigrations,
  realtimeCommands,
  storageAccounts,
  storageLocations,
  taskActions,
} from '../../db/schema/index.js';
import { SESSION_COOKIE } from '../../http/request-context.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInAs, signedInClients } from '../../testing/envelope.js';
import { createTenants, fixtureEmails, type Tenants } from '../../testing/fixtures.js';
import { useTempDir } from '../../testing/suite.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createBackupStateService } from '../backup-state/service.js';
import { listenOnLoopback, stompClient, type TestStomp } from '../live/testing.js';
import { repositoryDir } from '../local-storage/paths.js';

const ORIGIN = 'http://portal.test';
const PASSWORD = 'migration test repository';
const tmp = useTempDir('migrations');
let t: TestApp;
let tenants: Tenants;
let provider: TestClient;
let base = '';
const started: TestStomp[] = [];

// Customer B's package with two machines (each a restic repository), on location `source`; `other` is a
// second package of B in the same location, whose folder a migration of the first must never touch.
let customerId = 0;
let packageId = 0;
let machines: number[] = [];
let otherMachine = 0;
let source = 0;
let destination = 0;
let foreignLocation = 0;
let taskId = 0;
/** The migration the crash test leaves open (FINAL_SYNC_FAILED), which the stop test uses. */
let openMigrationId = 0;
const place = { bucket: '', destinationBucket: '' };

const restic = (repo: string, args: string[]) =>
  execFileSync('restic', ['-r', repo, ...args], {
    env: { ...process.env, RESTIC_PASSWORD: PASSWORD },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

const bucketOf = async (locationId: number) => {
  const [row] = await t.database.db
    .select({ name: buckets.name })
    .from(storageLocations)
    .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
    .where(eq(storageLocations.id, locationId));
  return row?.name ?? '';
};
const repoAt = (bucket: string, machineId: number) =>
  repositoryDir(t.config.dataDir, { bucket, subfolder: null }, machineId);

beforeAll(async () => {
  // The wrapper is the real rclone; a test slows it down (bandwidth limit) to stop it half-way.
  const wrapper = join(tmp, 'rclone');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell script's parameter expansion
  writeFileSync(wrapper, '#!/bin/sh\nexec rclone "$@" ${MIGRATION_TEST_BWLIMIT:+--bwlimit $MIGRATION_TEST_BWLIMIT}\n');
  chmodSync(wrapper, 0o755);
  t = await createTestApp({
    DATA_DIR: join(tmp, 'data'),
    RCLONE_PATH: wrapper,
    MIGRATION_JOB_INTERVAL_MS: '3600000',
    MIGRATION_LEASE_MS: '2000',
  });
  tenants = await createTenants(t.database.db);
  const db = t.database.db;
  const fixtures = backupFixtures(db);
  customerId = tenants.customerB.customerId;
  source = await fixtures.storageLocation(customerId);
  destination = await fixtures.storageLocation(customerId);
  foreignLocation = await fixtures.storageLocation(tenants.customerA.customerId);
  packageId = await fixtures.package(customerId, { storageLocationId: source });
  const otherPackage = await fixtures.package(customerId, { storageLocationId: source });
  machines = [await fixtures.machine(packageId), await fixtures.machine(packageId)];
  otherMachine = await fixtures.machine(otherPackage);
  taskId = (await createBackupStateService({ db }).createTask(fixtures.task(machines[0] ?? 0))) ?? 0;
  place.bucket = await bucketOf(source);
  place.destinationBucket = await bucketOf(destination);

  const data = join(tmp, 'src');
  mkdirSync(join(data, 'docs'), { recursive: true });
  writeFileSync(join(data, 'docs', 'a.txt'), 'alpha\n');
  writeFileSync(join(data, 'b.bin'), Buffer.alloc(200_000, 7));
  for (const machineId of [...machines, otherMachine]) {
    const repo = repoAt(place.bucket, machineId);
    mkdirSync(join(repo, '..'), { recursive: true });
    restic(repo, ['init']);
    restic(repo, ['backup', '--tag', `machine-${machineId}`, data]);
  }

  provider = await signedInAs(t.app, tenants.providerAdmin.email);
  base = await listenOnLoopback(t.app);
}, 120_000);

afterEach(async () => {
  delete process.env.MIGRATION_TEST_BWLIMIT;
  await Promise.all(started.splice(0).map((c) => c.stop()));
});
afterAll(() => t?.close());

const ref = () => ({ customerId, packageId });
const one = (migrationId: number) => ({ ...ref(), migrationId });
const r = ROUTES.migrations;
let requestSequence = 0;
const nextRequestId = () => {
  requestSequence += 1;
  return `req-${Date.now()}-${requestSequence}`;
};

async function create(destinationStorageLocationId: unknown) {
  return provider.json('POST', r.create.build(ref()), { destinationStorageLocationId });
}
async function detail(migrationId: number): Promise<PackageMigrationDetail> {
  const response = await provider.json('GET', r.detail.build(one(migrationId)));
  expect(response.statusCode).toBe(200);
  return response.json().result;
}
/** Submits a sequence and waits for it to end. */
async function runSequence(migrationId: number, type: string, requestId = nextRequestId()) {
  const response = await provider.json('PUT', r.submit.build(one(migrationId)), { requestId, type });
  expect(response.statusCode, response.body).toBe(200);
  await t.app.migrations.settled();
  return detail(migrationId);
}
const runnable = async (machineId: number) =>
  (await createAgentEventsRepo(t.database.db).tasksOf(machineId)).map((task) => task.runnable);

describe('package migrations (issue 16)', () => {
  it('refuses every customer role and the reseller: nothing is created', async () => {
    const { superB, adminB, userB, reseller } = fixtureEmails(tenants);
    const refused = await signedInClients(t.app, { superB, adminB, userB, reseller });
    for (const [who, client] of Object.entries(refused)) {
      for (const [method, url, body] of [
        ['POST', r.create.build(ref()), { destinationStorageLocationId: destination }],
        ['GET', r.list.build(ref()), undefined],
        ['GET', r.destinations.build(ref()), undefined],
        ['GET', r.detail.build(one(1)), undefined],
        ['PUT', r.submit.build(one(1)), { requestId: 'x', type: 'SYNC' }],
        ['PUT', r.rollback.build(one(1)), undefined],
        ['PUT', r.finalize.build(one(1)), undefined],
        ['POST', r.storageAccount.build({ storageAccountId: 1 }), { destinationStorageAccountId: 2 }],
      ] as const) {
        const response = await client.json(method, url, body);
        expect(response.statusCode, `${who} ${method} ${url}`).toBe(403);
      }
    }
    expect(await t.database.db.select().from(packageMigrations)).toEqual([]);
  });

  it('validates the destination with the messages of 001 §5 and scopes the package to the customer', async () => {
    for (const chosen of [0, source, foreignLocation]) {
      const response = await create(chosen);
      expect(response.statusCode).toBe(400);
      expect(response.json().messages).toEqual([
        expect.objectContaining({
          fieldName: 'destinationStorageLocationId',
          message: MESSAGES.migration.chooseDestinationLocation,
        }),
      ]);
    }
    // The package under another customer's path is not found.
    const elsewhere = await provider.json(
      'POST',
      r.create.build({ customerId: tenants.customerA.customerId, packageId }),
      { destinationStorageLocationId: foreignLocation },
    );
    expect(elsewhere.statusCode).toBe(404);
    const choices = await provider.json('GET', r.destinations.build(ref()));
    expect(
      choices.json().result.elements.map((l: { storageLocation: { id: number } }) => l.storageLocation.id),
    ).toEqual([destination]);
  });

  it('syncs, holds the tasks through a verified final sync, finalises, and the destination restores', async () => {
    const created = await create(destination);
    expect(created.statusCode).toBe(200);
    const migrationId: number = created.json().result.id;
    expect(created.json().result).toMatchObject({
      status: 'INITIALIZED',
      finalized: false,
      sourceStorageLocation: { storageLocation: { id: source }, storageAccount: { type: 'LOCAL' } },
      destinationStorageLocation: { storageLocation: { id: destination } },
    });
    expect((await create(destination)).json().messages[0].message).toBe(MIGRATION_TEXTS.openMigrationExists);

    // Live output reaches a real STOMP client on the migration's queue.
    await provider.open('/');
    const stomp = stompClient(`${base}${ROUTES.live.provider.build()}`, {
      headers: { cookie: `${SESSION_COOKIE}=${provider.cookie(SESSION_COOKIE)}`, origin: ORIGIN },
    });
    started.push(stomp);
    expect(await stomp.connected).toBe('connected');
    const queue = stomp.subscribe(migrationQueue(migrationId));
    await stomp.sendWithReceipt('SUBSCRIBE', migrationQueue(migrationId));

    const requestId = nextRequestId();
    let state = await runSequence(migrationId, 'SYNC', requestId);
    expect(state.status).toBe('INITIAL_SYNC_FINISHED_SUCCESS');
    const [sync] = state.commandSequences;
    expect(sync).toMatchObject({ syncType: 'SYNC', baseCommand: 'sync', exitCode: 'SUCCESS' });
    expect(sync?.commandOutput[0]).toMatch(/^\$ rclone sync /);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const heard = queue.messages.map((m) => readCommandResponse(m.body));
    expect(heard[0]).toMatchObject({ kind: 'outputLine', commandId: requestId, lineNumber: 1 });
    expect(heard.at(-1)).toMatchObject({ kind: 'finished', commandId: requestId, exitCode: 'SUCCESS' });
    expect(JSON.parse(queue.messages[0]?.body ?? '{}').responseType).toBe(COMMAND_RESPONSE_TYPES.outputLine);

    // A resent submission is the same command.
    const again = await provider.json('PUT', r.submit.build(one(migrationId)), { requestId, type: 'SYNC' });
    expect(again.statusCode).toBe(200);
    expect(again.json().result.commandSequences).toHaveLength(1);

    // Only the package's machines were copied; the source is untouched.
    for (const machineId of machines)
      expect(existsSync(join(repoAt(place.destinationBucket, machineId), 'config'))).toBe(true);
    expect(existsSync(repoAt(place.destinationBucket, otherMachine))).toBe(false);
    expect(state.actions).toMatchObject({ finalSync: true, finalize: false });

    // Finalising before a final sync is refused.
    expect((await provider.json('PUT', r.finalize.build(one(migrationId)))).statusCode).toBe(409);

    // A run under way on a connected machine refuses the final sync, and the hold is released again.
    await t.database.db
      .update(backupMachines)
      .set({ online: true })
      .where(eq(backupMachines.id, machines[0] ?? 0));
    const [busy] = await t.database.db
      .insert(taskActions)
      .values({ backupTaskId: taskId, backupMachineId: machines[0] ?? 0, type: 'BACKUP_RUN', status: 'IN_PROGRESS' })
      .returning({ id: taskActions.id });
    const refused = await provider.json('PUT', r.submit.build(one(migrationId)), {
      requestId: nextRequestId(),
      type: 'FINAL_SYNC',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messages[0].message).toBe(MIGRATION_TEXTS.runsInProgress);
    expect((await detail(migrationId)).tasksHeld).toBe(false);
    expect(await runnable(machines[0] ?? 0)).toEqual([true]);
    await t.database.db
      .update(taskActions)
      .set({ status: 'FINISHED_SUCCESS' })
      .where(eq(taskActions.id, busy?.id ?? 0));
    await t.database.db
      .update(backupMachines)
      .set({ online: false })
      .where(eq(backupMachines.id, machines[0] ?? 0));

    // A new backup at the source after the initial sync is carried by the final sync.
    const extra = join(tmp, 'late');
    mkdirSync(extra, { recursive: true });
    writeFileSync(join(extra, 'late.txt'), 'written after the initial sync\n');
    restic(repoAt(place.bucket, machines[0] ?? 0), ['backup', '--tag', 'late', extra]);

    state = await runSequence(migrationId, 'FINAL_SYNC');
    expect(state.status).toBe('FINAL_SYNC_FINISHED_SUCCESS');
    expect(state.tasksHeld).toBe(true);
    expect(state.verifiedAt).not.toBeNull();
    const final = state.commandSequences.at(-1);
    expect(final?.commandOutput.some((line) => line.startsWith('$ rclone check '))).toBe(true);
    expect(final?.commandOutput.join('\n')).toMatch(/0 differences found/);
    // Held: the agents hear their tasks as not runnable until the finalisation.
    expect(await runnable(machines[0] ?? 0)).toEqual([false]);
    expect(state.actions.finalize).toBe(true);

    // A verify (miscellaneous) keeps the proof while the tasks are held.
    state = await runSequence(migrationId, 'MISCELLANEOUS');
    expect(state.commandSequences.at(-1)).toMatchObject({
      syncType: 'MISCELLANEOUS',
      baseCommand: 'check',
      exitCode: 'SUCCESS',
    });
    expect(state.verifiedAt).not.toBeNull();

    // Nothing was deleted from the source before the finalisation.
    for (const machineId of machines) expect(existsSync(join(repoAt(place.bucket, machineId), 'config'))).toBe(true);

    // Something written at the source after the verified final sync (a machine that was not connected):
    // the finalisation's listing check refuses, and the final sync must run again.
    const stray = join(repoAt(place.bucket, machines[1] ?? 0), 'snapshots', 'f'.repeat(64));
    writeFileSync(stray, 'a snapshot written after the check');
    const changed = await provider.json('PUT', r.finalize.build(one(migrationId)));
    expect(changed.statusCode).toBe(409);
    expect(changed.json().messages[0].message).toBe(MIGRATION_TEXTS.sourceChanged);
    expect((await detail(migrationId)).actions.finalize).toBe(false);
    state = await runSequence(migrationId, 'FINAL_SYNC');
    expect(state).toMatchObject({ status: 'FINAL_SYNC_FINISHED_SUCCESS', tasksHeld: true });
    expect(state.verifiedAt).not.toBeNull();

    const finalized = await provider.json('PUT', r.finalize.build(one(migrationId)));
    expect(finalized.statusCode).toBe(200);
    expect(finalized.json().result).toMatchObject({ finalized: true, inUse: 'destination', tasksHeld: false });
    const [pkg] = await t.database.db
      .select({ location: backupPackages.storageLocationId })
      .from(backupPackages)
      .where(eq(backupPackages.id, packageId));
    expect(pkg?.location).toBe(destination);
    expect(await runnable(machines[0] ?? 0)).toEqual([true]);

    // After it, the source copies go (the other package's stays), and the destination restores.
    await t.app.migrations.settled();
    for (const machineId of machines) expect(existsSync(repoAt(place.bucket, machineId))).toBe(false);
    expect(existsSync(join(repoAt(place.bucket, otherMachine), 'config'))).toBe(true);
    const moved = repoAt(place.destinationBucket, machines[0] ?? 0);
    const snapshots = JSON.parse(restic(moved, ['snapshots', '--json'])) as Array<{ tags?: string[] }>;
    expect(snapshots.flatMap((s) => s.tags ?? [])).toEqual(expect.arrayContaining([`machine-${machines[0]}`, 'late']));
    const target = join(tmp, 'restored');
    restic(moved, ['restore', 'latest', '--tag', 'late', '--target', target]);
    expect(readFileSync(join(target, extra, 'late.txt'), 'utf8')).toBe('written after the initial sync\n');
    restic(moved, ['check']);

    // A finalised migration allows nothing more.
    expect((await detail(migrationId)).actions).toEqual({
      sync: false,
      finalSync: false,
      miscellaneous: false,
      cancel: false,
      rollback: false,
      finalize: false,
    });
    const list = await provider.json('GET', r.list.build(ref()));
    expect(list.json().result).toMatchObject({ totalElements: 1, elements: [{ id: migrationId, finalized: true }] });
  }, 120_000);

  it('rolls back: the destination copy is removed, the source stays in use and usable', async () => {
    // The package is at `destination` now; move it back towards `source` and roll back.
    const created = await create(source);
    const migrationId: number = created.json().result.id;
    const state = await runSequence(migrationId, 'SYNC');
    expect(state.status).toBe('INITIAL_SYNC_FINISHED_SUCCESS');
    for (const machineId of machines) expect(existsSync(join(repoAt(place.bucket, machineId), 'config'))).toBe(true);
    // The first migration's source removal, were it still due, waits while this one copies back there.
    await t.database.db
      .update(packageMigrations)
      .set({ sourceRemovedAt: null })
      .where(eq(packageMigrations.finalized, true));
    expect(await t.app.migrations.removeSources()).toBe(0);
    for (const machineId of machines) expect(existsSync(join(repoAt(place.bucket, machineId), 'config'))).toBe(true);

    const rolledBack = await provider.json('PUT', r.rollback.build(one(migrationId)));
    expect(rolledBack.statusCode).toBe(200);
    expect(rolledBack.json().result).toMatchObject({ status: 'ROLLED_BACK', inUse: 'source', finalized: false });
    for (const machineId of machines) expect(existsSync(repoAt(place.bucket, machineId))).toBe(false);
    expect(existsSync(join(repoAt(place.bucket, otherMachine), 'config'))).toBe(true);
    restic(repoAt(place.destinationBucket, machines[0] ?? 0), ['check']);
    expect((await provider.json('PUT', r.rollback.build(one(migrationId)))).statusCode).toBe(409);
  }, 60_000);

  it('fails the sequence of an instance that stopped renewing its lease; a new sync resumes', async () => {
    const migrationId: number = (await create(source)).json().result.id;
    const db = t.database.db;
    await db
      .update(packageMigrations)
      .set({
        status: 'INITIAL_SYNC_IN_PROGRESS',
        leaseHolder: 'crashed-instance',
        leaseUntil: new Date(t.clock.now.getTime() + 1000),
      })
      .where(eq(packageMigrations.id, migrationId));
    await db.insert(realtimeCommands).values({
      commandId: 'crashed-sync',
      commandType: 'RCLONE_COMMAND_SEQUENCE',
      packageMigrationId: migrationId,
      syncType: 'SYNC',
      baseCommand: 'sync',
      // The app's clock, as the portal would stamp it: the database's own clock may be far past the app's frozen
      // one on a slow run, and the sequences are listed by their start.
      timeStarted: t.clock.now,
    });
    // Still held: nothing happens, and no other sequence may start.
    expect(await t.app.migrations.sweepExpiredLeases()).toBe(0);
    const meanwhile = await provider.json('PUT', r.submit.build(one(migrationId)), {
      requestId: nextRequestId(),
      type: 'SYNC',
    });
    expect(meanwhile.statusCode).toBe(409);

    t.clock.advanceMinutes(1);
    expect(await t.app.migrations.sweepExpiredLeases()).toBe(1);
    let state = await detail(migrationId);
    expect(state.status).toBe('INITIAL_SYNC_FAILED');
    expect(state.commandSequences[0]).toMatchObject({ exitCode: 'IO_OR_INTERRUPT_EXCEPTION' });
    expect(state.commandSequences[0]?.commandOutput).toEqual([MIGRATION_TEXTS.interrupted]);

    state = await runSequence(migrationId, 'SYNC');
    expect(state.status).toBe('INITIAL_SYNC_FINISHED_SUCCESS');
    expect(state.commandSequences.at(-1)?.exitCode).toBe('SUCCESS');

    // Claimed for a final sync (tasks held) by an instance that stopped before storing its command.
    await db
      .update(packageMigrations)
      .set({
        status: 'FINAL_SYNC_IN_PROGRESS',
        tasksHeld: true,
        leaseHolder: 'crashed-instance',
        leaseUntil: new Date(t.clock.now.getTime() - 1000),
      })
      .where(eq(packageMigrations.id, migrationId));
    expect(await t.app.migrations.sweepExpiredLeases()).toBe(1);
    state = await detail(migrationId);
    expect(state).toMatchObject({ status: 'FINAL_SYNC_FAILED', tasksHeld: false });
    expect(state.actions).toMatchObject({ finalSync: true, cancel: true });
    openMigrationId = migrationId;
  }, 60_000);

  it('stops a running sequence, deletes finished ones only, and cancels what runs', async () => {
    const migrationId = openMigrationId;
    (
      await t.database.db
        .select()
        .from(packageMigrations)
        .where(eq(packageMigrations.status, 'INITIAL_SYNC_FINISHED_SUCCESS'))
    )[0]?.id ?? 0;
    // A big file at a low bandwidth: the final sync is still copying when it is stopped.
    writeFileSync(join(repoAt(place.destinationBucket, machines[1] ?? 0), 'slow.bin'), Buffer.alloc(3_000_000, 1));
    process.env.MIGRATION_TEST_BWLIMIT = '100k';
    const requestId = nextRequestId();
    const submitted = await provider.json('PUT', r.submit.build(one(migrationId)), { requestId, type: 'FINAL_SYNC' });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().result).toMatchObject({ status: 'FINAL_SYNC_IN_PROGRESS', tasksHeld: true });
    expect(submitted.json().result.actions).toMatchObject({ cancel: true, rollback: false, sync: false });
    expect((await provider.json('PUT', r.remove.build(one(migrationId)), { commandId: requestId })).statusCode).toBe(
      400,
    );

    const stopped = await provider.json('PUT', r.stop.build(one(migrationId)), { commandId: requestId });
    expect(stopped.statusCode).toBe(200);
    const state = await detail(migrationId);
    expect(state.status).toBe('FINAL_SYNC_FAILED');
    expect(state.tasksHeld).toBe(false);
    expect(state.commandSequences.at(-1)?.exitCode).toBe('CANCELLATION_REQUESTED');
    expect((await provider.json('PUT', r.stop.build(one(migrationId)), { commandId: requestId })).statusCode).toBe(400);

    const removed = await provider.json('PUT', r.remove.build(one(migrationId)), { commandId: requestId });
    expect(removed.statusCode).toBe(200);
    expect((await detail(migrationId)).commandSequences.some((c) => c.commandId === requestId)).toBe(false);

    // Cancel stops what runs and releases the tasks; the migration stays open.
    const second = nextRequestId();
    await provider.json('PUT', r.submit.build(one(migrationId)), { requestId: second, type: 'FINAL_SYNC' });
    const cancelled = await provider.json('PUT', r.cancel.build(one(migrationId)));
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().result).toMatchObject({ status: 'FINAL_SYNC_FAILED', tasksHeld: false, finalized: false });
    expect(await runnable(machines[0] ?? 0)).toEqual([true]);
  }, 60_000);
});

describe('storage account migration (issue 16)', () => {
  it('starts a migration per package on the account and drives each to its finalisation', async () => {
    const db = t.database.db;
    const [account] = await db
      .insert(storageAccounts)
      .values({ name: 'Second local', type: 'LOCAL' })
      .returning({ id: storageAccounts.id });
    const [fixture] = await db
      .select({ accountId: buckets.storageAccountId })
      .from(storageLocations)
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .where(eq(storageLocations.id, source));
    const sourceAccount = fixture?.accountId ?? 0;
    const path = r.storageAccount.build({ storageAccountId: sourceAccount });
    for (const chosen of [0, sourceAccount]) {
      const response = await provider.json('POST', path, { destinationStorageAccountId: chosen });
      expect(response.statusCode).toBe(400);
      expect(response.json().messages[0]).toMatchObject({
        fieldName: 'destinationStorageAccountId',
        message: MESSAGES.storageAccount.chooseDestinationAccount,
      });
    }

    // An account that keeps no package has nothing to migrate.
    const empty = await provider.json('POST', r.storageAccount.build({ storageAccountId: account?.id ?? 0 }), {
      destinationStorageAccountId: sourceAccount,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().messages[0]).toMatchObject({ message: MIGRATION_TEXTS.noPackagesToMigrate });

    const response = await provider.json('POST', path, { destinationStorageAccountId: account?.id });
    expect(response.statusCode).toBe(200);
    // The first package's migration of the tests before is still open: it is named, the other one moves.
    expect(response.json().status).toBe('OK');
    expect(response.json().messages).toEqual([
      expect.objectContaining({ message: expect.stringContaining(MIGRATION_TEXTS.openMigrationExists) }),
    ]);
    const [started] = response.json().result.elements as Array<{ id: number }>;
    expect(response.json().result.elements).toHaveLength(1);

    for (let step = 0; step < 6; step += 1) {
      await t.app.migrations.drive();
      await t.app.migrations.settled();
    }
    const [done] = await db
      .select()
      .from(packageMigrations)
      .where(eq(packageMigrations.id, started?.id ?? 0));
    expect(done).toMatchObject({ finalized: true, status: 'FINAL_SYNC_FINISHED_SUCCESS', automatic: true });
    const [moved] = await db
      .select({ location: backupPackages.storageLocationId })
      .from(backupPackages)
      .innerJoin(packageMigrations, eq(packageMigrations.backupPackageId, backupPackages.id))
      .where(eq(packageMigrations.id, started?.id ?? 0));
    expect(moved?.location).toBe(done?.destinationStorageLocationId);
    const bucket = await bucketOf(done?.destinationStorageLocationId ?? 0);
    restic(repoAt(bucket, otherMachine), ['check']);
    expect(existsSync(repoAt(place.bucket, otherMachine))).toBe(false);
  }, 120_000);
});
