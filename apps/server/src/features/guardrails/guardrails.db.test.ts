/**
 * Guard rails (issue 32 items 7, 8) through the running app, a real agent connection, the real restic 0.14 on a real
 * repository and the test app's SMTP sink: a task's run history, then a run far smaller than usual and an encrypted-looking
 * run the agent reports; the marks, the alert mailed once to the customer's super admin and the provider, the
 * retention held; the preview, a pin, another tenant refused, the acknowledgement (audited) and retention released.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GUARDRAIL_TEXTS, PINNED_SNAPSHOT_TAG, ROUTES, type RunSummary } from '@portal/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cheapResticKeys } from '../../../../agent/src/restic-test-key.js';
import { auditEvents, backupTasks, mailOutbox, taskActions } from '../../db/schema/index.js';
import { runFinished } from '../../testing/agent-events.js';
import { createTestApp, repositoryPasswordOf, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { useTempDir } from '../../testing/suite.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { repositoryDir } from '../local-storage/paths.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';
import { createRetentionRepo } from '../retention/repo.js';
import { createRetentionService, RETENTION_LEASE_MS } from '../retention/service.js';

const MB = 1024 * 1024;
const tmp = useTempDir('guardrails');
let t: TestApp;
let tenants: Tenants;
let base = '';
let repo = '';
let password = '';
let machineId = 0;
let taskId = 0;
/** The history's runs, oldest first, with their restic snapshots. */
const history: { runId: number; snapshot: string }[] = [];
let smallRunId = 0;
let unusualRunId = 0;
let unusualSnapshot = '';
let owner: TestClient;
const db = () => t.database.db;

function restic(args: string[]): string {
  return execFileSync('restic', ['--no-cache', ...args], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: password },
    encoding: 'utf8',
  });
}
const snapshots = () =>
  JSON.parse(restic(['snapshots', '--json', '--tag', `task-${taskId}`])) as { id: string; tags: string[] }[];
/** A backup as the agent makes it (its task tag), dated `time`; its full snapshot id. */
function backupAt(src: string, time: string): string {
  const before = new Set(snapshots().map((s) => s.id));
  restic(['backup', '--host', 'pc', '--tag', `task-${taskId}`, '--time', time, src]);
  return snapshots().find((s) => !before.has(s.id))?.id ?? '';
}

const usualSummary: RunSummary = {
  filesNew: 4,
  filesChanged: 30,
  filesUnmodified: 10_000,
  dirsNew: 0,
  dirsChanged: 2,
  dirsUnmodified: 300,
  durationSeconds: 40,
};

/** The agent reports a run: started, then finished (twice, as after a reconnect). */
async function reportRun(
  runKey: string,
  snapshotId: string,
  figures: { summary: RunSummary; bytesAdded: number; bytesTotal: number },
) {
  const issued = await createMachineCredentials(db()).issue(machineId);
  if (!issued) throw new Error('no credential');
  const agent = await connectTestAgent(t.app, base, issued);
  try {
    await agent.send({ type: 'runStarted', taskId, runKey, startedAt: new Date().toISOString(), manual: false });
    const finished = runFinished(runKey, { snapshotId, ...figures });
    await agent.send(finished);
    await agent.send(finished);
  } finally {
    await agent.client.stop();
  }
  const [run] = await db()
    .select({ id: taskActions.id })
    .from(taskActions)
    .where(and(eq(taskActions.backupTaskId, taskId), eq(taskActions.runKey, runKey)));
  if (!run) throw new Error('run not recorded');
  return run.id;
}

/** The portal's retention job, as the app wires it, against the same storage. */
const retentionPass = () =>
  createRetentionService({
    repo: createRetentionRepo(db()),
    storage: storageAccessFor(db(), t.config.dataDir, t.config.masterKey ?? ''),
    repositoryPassword: async () => password,
    messages: createAgentEventsRepo(db()),
  }).runPending();

const path = () => ({ machineId, taskId });
const runRow = async (client: TestClient, runId: number) => {
  const page = await client.json('GET', `${ROUTES.tasks.customer.runs.build(path())}?page=0&size=20`);
  return (page.json().result.elements as { id: number; changeAlert: unknown; smallerThanUsual: boolean }[]).find(
    (row) => row.id === runId,
  );
};
const detail = async (client: TestClient) =>
  (await client.json('GET', ROUTES.tasks.customer.detail.build(path()))).json().result;
const preview = (client: TestClient, keep: number) =>
  client.json('GET', `${ROUTES.guardrails.retentionPreview.build(path())}?keep=${keep}`);

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: join(tmp, 'data') });
  tenants = await createTenants(db());
  base = await listenOnLoopback(t.app);
  const fixtures = backupFixtures(db());
  machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId), {
    name: 'file-server',
    assignedUserId: tenants.customerA.user.id,
  });
  taskId = (await createBackupStateService({ db: db() }).createTask(
    fixtures.task(machineId, { name: 'Shared documents' }),
  )) as number;
  password = (await repositoryPasswordOf(t, machineId)) ?? '';
  repo = repositoryDir(t.config.dataDir, null, machineId);
  mkdirSync(join(repo, '..'), { recursive: true });
  restic(['init']);
  cheapResticKeys(repo, password);
  const src = join(tmp, 'src');
  mkdirSync(src, { recursive: true });
  // Four weeks of ordinary runs, recorded as the agent reported them.
  for (const [i, day] of ['2026-10-05', '2026-10-12', '2026-10-19', '2026-10-26'].entries()) {
    writeFileSync(join(src, 'notes.txt'), `week ${i}\n`);
    const snapshot = backupAt(src, `${day} 10:00:00`);
    const [run] = await db()
      .insert(taskActions)
      .values({
        backupTaskId: taskId,
        backupMachineId: machineId,
        type: 'BACKUP_RUN',
        status: 'FINISHED_SUCCESS',
        timeStarted: new Date(`${day}T10:00:00Z`),
        timeFinished: new Date(`${day}T10:05:00Z`),
        resticSnapshotId: snapshot,
        snapshotsAvailable: true,
        summary: { ...usualSummary, filesChanged: 30 + i },
        bytesAdded: (4 + i) * MB,
        bytesTotal: 2_000 * MB,
      })
      .returning({ id: taskActions.id });
    history.push({ runId: run?.id ?? 0, snapshot });
  }
  owner = await signedInAs(t.app, tenants.customerA.superAdmin.email);
  // A run that backed up a fraction of the usual size (a folder unmounted), then one that rewrote every file.
  writeFileSync(join(src, 'notes.txt'), 'small\n');
  const small = backupAt(src, '2026-11-02 10:00:00');
  smallRunId = await reportRun('small', small, { summary: usualSummary, bytesAdded: 3 * MB, bytesTotal: 300 * MB });
  writeFileSync(join(src, 'notes.txt'), 'encrypted\n');
  unusualSnapshot = backupAt(src, '2026-11-09 10:00:00');
  unusualRunId = await reportRun('encrypted', unusualSnapshot, {
    summary: { ...usualSummary, filesNew: 0, filesChanged: 10_000, filesUnmodified: 34 },
    bytesAdded: 1_900 * MB,
    bytesTotal: 2_000 * MB,
  });
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe('unusual change detection (issue 32 item 7)', () => {
  it('marks the encrypted-looking run and flags the small one on their rows, and holds the task', async () => {
    expect(await runRow(owner, unusualRunId)).toMatchObject({
      changeAlert: { reasons: ['FILES', 'BYTES', 'SHARE'], acknowledged: false },
      smallerThanUsual: false,
    });
    expect(await runRow(owner, smallRunId)).toMatchObject({ changeAlert: null, smallerThanUsual: true });
    expect(await runRow(owner, history[3]?.runId ?? 0)).toMatchObject({ changeAlert: null, smallerThanUsual: false });
    expect((await detail(owner)).changeHold).toMatchObject({ runId: unusualRunId, acknowledgeable: true });
  });

  it("mails the customer's super admin and the provider once", async () => {
    await t.app.mailDelivery.runOnce();
    await t.app.mailDelivery.runOnce();
    const rows = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'RUN_UNUSUAL_CHANGE'));
    expect(rows.map((r) => r.recipient).sort()).toEqual(
      [tenants.customerA.superAdmin.email, tenants.providerAdmin.email].sort(),
    );
    const received = await t.waitForMail(tenants.providerAdmin.email, 0);
    expect(received.subject).toBe('Unusual backup: Shared documents on file-server may show ransomware at work');
    expect(received.text).toContain('Files new: 0, changed: 10000');
    expect(received.text).toContain(`/backupmachines/${machineId}/backuptasks/${taskId}`);
    await t.waitForMail(tenants.customerA.superAdmin.email, 0);
    expect(t.mails.list().filter((m) => m.subject.startsWith('Unusual backup'))).toHaveLength(2);
  });

  it('forgets nothing while the task is held', async () => {
    // The task keeps one snapshot from now on; its retention is due (as after a run).
    await db().update(backupTasks).set({ numberOfSnapshotsToKeep: 1 }).where(eq(backupTasks.id, taskId));
    await createRetentionRepo(db()).markDue(taskId, new Date());
    await retentionPass();
    // This pass or the app's own job took the task and let it go without forgetting anything.
    await eventually(async () => (await createRetentionRepo(db()).dueAt(taskId)) === null, 30_000);
    expect(snapshots()).toHaveLength(6);
  }, 120_000);
});

describe('retention guard rails (issue 32 item 8)', () => {
  it('previews what the next retention would forget: never the newest good snapshot, and says it is held', async () => {
    const answer = await preview(owner, 2);
    expect(answer.statusCode).toBe(200);
    const result = answer.json().result;
    expect(result).toMatchObject({ keep: 2, held: true, pinnable: true, kept: 2, pinned: 0 });
    // The two newest weeks are kept (the encrypted run's and the small one's); the history's four go.
    expect(result.forget.map((s: { runId: number }) => s.runId)).toEqual(history.map((h) => h.runId));
  }, 60_000);

  it('previews while a backup of the machine holds the repository (the plan takes no lock)', async () => {
    // A backup reading its standard input holds restic's (shared) lock until the input ends.
    const backup = spawn('restic', ['--no-cache', 'backup', '--stdin', '--stdin-filename', 'held.txt'], {
      env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: password },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    try {
      await eventually(async () => restic(['list', 'locks', '--no-lock']).trim() !== '', 30_000);
      const [first, second] = await Promise.all([preview(owner, 2), preview(owner, 1)]);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    } finally {
      backup.stdin.end('held\n');
      await new Promise((resolve) => backup.once('exit', resolve));
    }
  }, 60_000);

  it('keeps a pinned snapshot out of the plan, and moves the run to restic’s re-saved snapshot', async () => {
    const pinned = history[1];
    if (!pinned) throw new Error('no history');
    const answer = await owner.json('PUT', ROUTES.guardrails.pinSnapshot.build({ ...path(), runId: pinned.runId }), {
      pinned: true,
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().messages[0].message).toBe(GUARDRAIL_TEXTS.pinned);
    const tagged = snapshots().filter((s) => s.tags.includes(PINNED_SNAPSHOT_TAG));
    expect(tagged).toHaveLength(1);
    const [run] = await db().select().from(taskActions).where(eq(taskActions.id, pinned.runId));
    expect(run?.resticSnapshotId).toBe(tagged[0]?.id);
    const result = (await preview(owner, 2)).json().result;
    expect(result.pinned).toBe(1);
    expect(result.forget.map((s: { runId: number }) => s.runId)).not.toContain(pinned.runId);
  }, 60_000);

  it('refuses another tenant everything, and a plain user the acknowledgement', async () => {
    const other = await signedInAs(t.app, tenants.customerB.admin.email);
    expect((await preview(other, 1)).statusCode).toBe(404);
    const pin = ROUTES.guardrails.pinSnapshot.build({ ...path(), runId: history[0]?.runId ?? 0 });
    expect((await other.json('PUT', pin, { pinned: true })).statusCode).toBe(404);
    const acknowledge = ROUTES.guardrails.acknowledgeChange.build(path());
    expect((await other.json('PUT', acknowledge)).statusCode).toBe(404);
    const user = await signedInAs(t.app, tenants.customerA.user.email);
    expect((await detail(user)).changeHold).toMatchObject({ acknowledgeable: false });
    expect((await user.json('PUT', acknowledge)).statusCode).toBe(403);
    expect((await detail(owner)).changeHold).not.toBeNull();
  });

  it('releases the retention once acknowledged (audited): the pinned and the newest good snapshot stay', async () => {
    // A retention pass is in flight: it leased the task while it was held, so it forgets nothing of it.
    const retention = createRetentionRepo(db());
    const lease = new Date(Date.now() + RETENTION_LEASE_MS);
    await db().update(backupTasks).set({ retentionDueAt: lease }).where(eq(backupTasks.id, taskId));
    const answer = await owner.json('PUT', ROUTES.guardrails.acknowledgeChange.build(path()));
    expect(answer.statusCode).toBe(200);
    // The pass finishes after the acknowledgement: the task stays due, whatever the pass does with its own lease.
    await retention.finish(taskId, lease, new Date());
    expect(await retention.dueAt(taskId)).not.toBeNull();
    expect((await detail(owner)).changeHold).toBeNull();
    expect(await runRow(owner, unusualRunId)).toMatchObject({ changeAlert: { acknowledged: true } });
    await t.app.auditSettled();
    const audited = await db()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.type, 'guardrails.acknowledgeChange'),
          eq(auditEvents.userId, tenants.customerA.superAdmin.id),
        ),
      );
    expect(audited).toHaveLength(1);

    // The retention the acknowledgement released runs (this pass or the app's own job); the database says when it is
    // done (reading the repository meanwhile would hold restic's lock against the prune).
    await retentionPass();
    await eventually(async () => (await retention.dueAt(taskId)) === null, 90_000);
    const left = snapshots();
    expect(left).toHaveLength(2);
    expect(left.some((s) => s.id === unusualSnapshot)).toBe(true);
    expect(left.some((s) => s.tags.includes(PINNED_SNAPSHOT_TAG))).toBe(true);
  }, 120_000);
});
