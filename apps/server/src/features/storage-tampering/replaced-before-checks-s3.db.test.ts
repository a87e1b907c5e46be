import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { type RestoreTestSummary, ROUTES, resticTaskTag } from '@portal/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localExclusionPlatform, ResticRunner } from '../../../../agent/src/restic.js';
import { runRestoreTest } from '../../../../agent/src/restore-test.js';
import { backupTasks, repositoryCheckStates, repositoryDataChecks, restoreTests } from '../../db/schema/index.js';
import type { FolderAccess } from '../../storage/provider.js';
import { processEnvFor } from '../../storage/s3.js';
import { repositoryPasswordOf, type TestApp } from '../../testing/app.js';
import { backupFixtures, createdTasks } from '../../testing/backup-fixtures.js';
import { resultOf, signedInAs } from '../../testing/envelope.js';
import type { Tenants } from '../../testing/fixtures.js';
import { answeringAgent } from '../../testing/listening-apps.js';
import type { Rgw } from '../../testing/rgw.js';
import {
  checkDataNow,
  expectOneReplacementAlert,
  lockedS3Machine,
  machineS3Access,
  s3ClientWith,
  startS3TestApp,
} from '../../testing/s3-app.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createAuditRepo } from '../audit/repo.js';
import { createDataCheckService } from '../data-checks/service.js';
import { eventually, listenOnLoopback, type TestStomp } from '../live/testing.js';
import { createS3ReplacementScan, createTamperingService } from './service.js';

/**
 * Issue 32 item 6 on S3 with Object Lock, between two passes of the replacement scan: a machine's key replaced an
 * object of its repository (RGW lets it write; Object Lock keeps the original). A data check, and a restore test the
 * agent runs with real restic, must not report that as a failure for hours: the portal scans the machine's
 * repository first (the scan's own code), puts the original back and checks, or has the agent test, again.
 */
let tmp = '';
let t: TestApp;
let rgw: Rgw;
let tenants: Tenants;
let bucket = '';
let machineId = 0;
let taskId = 0;
let machine: FolderAccess;
let password = '';
const clients: TestStomp[] = [];
/** The outcome of each try the agent made, in order. */
const agentTries: string[] = [];
const db = () => t.database.db;
const WAIT_MS = 120_000;

const s3Of = (env: Record<string, string>) => s3ClientWith(rgw, env);

function restic(args: string[]) {
  const run = spawnSync('/usr/bin/restic', ['--no-cache', '-r', machine.resticRepository, ...args], {
    env: { ...processEnvFor(machine), RESTIC_PASSWORD: password },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** The first object of the repository's folder of that type (index, snapshots), as the machine lists it. */
async function firstObject(type: string): Promise<string> {
  const Prefix = `${machineId}/${type}/`;
  const listed = await s3Of(machine.env).send(new ListObjectsV2Command({ Bucket: bucket, Prefix }));
  const key = listed.Contents?.[0]?.Key;
  if (!key) throw new Error(`no ${type} object`);
  return key;
}

const contentOf = async (Key: string) =>
  (await s3Of(machine.env).send(new GetObjectCommand({ Bucket: bucket, Key }))).Body?.transformToString('base64');

/** The machine, with its own key, replaces the object; answers what it held. */
async function replaced(Key: string): Promise<string | undefined> {
  const original = await contentOf(Key);
  await s3Of(machine.env).send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'encrypted by ransomware' }));
  expect(await contentOf(Key)).not.toBe(original);
  return original;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'portal-replaced-before-checks-'));
  // One slice: a data check reads every pack.
  ({ rgw, t, tenants } = await startS3TestApp(join(tmp, 'data'), { DATA_CHECK_SLICES: '1' }));
  const locked = await lockedS3Machine(t, rgw, tenants, { account: 'Locked Ceph checks', machine: 'replacing-server' });
  bucket = locked.location.bucketName;
  machineId = locked.machineId;
  [taskId = 0] = await createdTasks(db(), machineId, 'Ledger');
  // Only the test below starts a restore test, not the schedule.
  await db()
    .update(backupTasks)
    .set({ restoreTestDueAt: new Date(Date.UTC(2100, 0, 1)) })
    .where(eq(backupTasks.id, taskId));

  // The machine's own key and the repository's password, as its agent is sent them.
  machine = await machineS3Access(t, machineId);
  password = (await repositoryPasswordOf(t, machineId)) ?? '';
  const source = join(tmp, 'source');
  mkdirSync(source, { recursive: true });
  writeFileSync(join(source, 'ledger.txt'), 'the books\n');
  writeFileSync(join(source, 'invoices.txt'), 'paid and unpaid\n');
  restic(['init']);
  const backup = JSON.parse(
    restic(['backup', '--json', '--tag', resticTaskTag(taskId), source])
      .trim()
      .split('\n')
      .at(-1) ?? '{}',
  ) as { snapshot_id?: string };
  await backupFixtures(db()).backupRun({ taskId, machineId }, backup.snapshot_id ?? '');

  // The machine's agent: its own restore test code with the real restic and the machine's key.
  const runner = new ResticRunner({
    repository: { repository: machine.resticRepository, password, env: machine.env },
    host: 'replacing-server',
    binary: '/usr/bin/restic',
    cacheDir: null,
    env: processEnvFor({ resticRepository: '', rclonePath: '', env: {} }),
  });
  const base = await listenOnLoopback(t.app);
  await answeringAgent(db(), base, machineId, clients, (message, send) => {
    if (message.type !== 'restoreTest') return;
    send({ type: 'reply', requestId: message.requestId, success: true, messages: [] });
    void runRestoreTest(runner, message, {
      scratchRoot: join(tmp, 'restore-tests'),
      platform: localExclusionPlatform(),
    }).then((finished) => {
      agentTries.push(finished.outcome);
      send(finished);
    });
  });
}, 300_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('an object a machine replaced, before the next scan (issue 32)', () => {
  it(
    'is put back before a data check, which passes',
    async () => {
      const index = await firstObject('index');
      const original = await replaced(index);

      const checks = await checkDataNow(t, machineId);
      expect(checks.map((c) => [c.outcome, c.errors])).toEqual([['PASSED', []]]);
      expect(await contentOf(index)).toBe(original);
    },
    WAIT_MS,
  );

  it(
    'is put back after a restore test fails, and the agent tests again once: the test passes',
    async () => {
      const snapshot = await firstObject('snapshots');
      const original = await replaced(snapshot);

      const admin = await signedInAs(t.app, tenants.customerA.admin.email);
      const summaryOf = async () =>
        resultOf<RestoreTestSummary>(await admin.json('GET', ROUTES.restoreTests.summary.build({ machineId, taskId })));
      const started = await admin.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }));
      expect(started.statusCode, started.body).toBe(200);
      await eventually(async () => (await summaryOf()).latest?.outcome !== 'RUNNING', WAIT_MS);
      expect((await summaryOf()).latest).toMatchObject({ outcome: 'PASSED', filesTested: 2, mismatchCount: 0 });
      // The first try failed on the replaced snapshot; the one test's second try passed.
      expect(agentTries).toEqual(['FAILED', 'PASSED']);
      const tests = await db().select().from(restoreTests).where(eq(restoreTests.backupTaskId, taskId));
      expect(tests.map((test) => [test.outcome, test.rerun])).toEqual([['PASSED', true]]);
      expect(await contentOf(snapshot)).toBe(original);
    },
    WAIT_MS,
  );

  it(
    'is put back when replaced while a check ran, and checked again once: the check passes',
    async () => {
      const index = await firstObject('index');
      let original: string | undefined;
      const storage = storageAccessFor(db(), t.config.dataDir, t.config.masterKey ?? '');
      const scan = createS3ReplacementScan({
        db: db(),
        storage,
        tampering: createTamperingService({ db: db(), now: () => t.clock.now }),
        onError: (error) => {
          throw error;
        },
      });
      const repairs: number[] = [];
      const checks = createDataCheckService({
        db: db(),
        storage,
        repositoryPassword: (id) => repositoryPasswordOf(t, id),
        settings: { periodDays: 30, slices: 1, concurrency: 1, runTimeoutMinutes: 60 },
        // The check passes: nothing is alerted.
        alert: async () => 0,
        audit: createAuditRepo(db()),
        messages: createAgentEventsRepo(db()),
        now: () => t.clock.now,
        replacements: {
          // The machine replaces the object just after the scan before the check found nothing.
          async repair(id) {
            if (repairs.length === 0) original = await replaced(index);
            repairs.push(repairs.length === 0 ? 0 : await scan.repair(id));
            return repairs.at(-1) ?? 0;
          },
        },
      });
      await db()
        .update(repositoryCheckStates)
        .set({ dueAt: new Date(t.clock.now.getTime() - 1000) })
        .where(eq(repositoryCheckStates.backupMachineId, machineId));
      expect(await checks.runPending()).toBe(1);
      expect(repairs).toEqual([0, 1]);
      const [last] = await db()
        .select()
        .from(repositoryDataChecks)
        .where(eq(repositoryDataChecks.backupMachineId, machineId))
        .orderBy(desc(repositoryDataChecks.id))
        .limit(1);
      expect(last).toMatchObject({ outcome: 'PASSED', errors: [] });
      expect(await contentOf(index)).toBe(original);
    },
    WAIT_MS,
  );

  it('records the replacements as the scan does: one audit record, one mail to the provider', async () => {
    await expectOneReplacementAlert(t, tenants, machineId);
  });
});
