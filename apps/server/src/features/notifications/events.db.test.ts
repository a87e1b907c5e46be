import { type AgentToServer, agentToServerSchema, defaultNotificationChoices } from '@portal/domain';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import {
  backupMachines,
  backupPackages,
  backupTasks,
  mailOutbox,
  notificationThresholds,
} from '../../db/schema/index.js';
import { runFailed, runFinished } from '../../testing/agent-events.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { type AgentEventService, createAgentEventService } from '../agent-events/service.js';
import { type BackupStateService, createBackupStateService } from '../backup-state/service.js';
import { createPackagesRepo } from '../packages/repo.js';
import { createPackageQuota } from '../packages/service.js';
import { createNotificationsRepo } from './repo.js';
import { createNotificationEvents, type NotificationEvents } from './service.js';

let database: Database;
let tenants: Tenants;
let fixtures: ReturnType<typeof backupFixtures>;
let notifications: NotificationEvents;
let backupState: BackupStateService;
let agentEvents: AgentEventService;
const clock = { now: new Date('2026-11-23T09:30:00Z') };

/** Saves a user's choices as the settings screen does. */
async function subscribe(
  user: { id: number },
  customerId: number,
  choices: Partial<ReturnType<typeof defaultNotificationChoices>>,
  machineIds: number[] = [],
) {
  const all = { ...defaultNotificationChoices('ROLE_CUSTOMER_USER'), ...choices };
  await database.db.transaction((tx) =>
    createNotificationsRepo(tx).saveUser(customerId, user.id, all, all.allMachines ? [] : machineIds),
  );
}

const mailsLike = (prefix: string) =>
  database.db
    .select({
      eventKey: mailOutbox.eventKey,
      recipient: mailOutbox.recipient,
      kind: mailOutbox.kind,
      message: mailOutbox.message,
      customerId: mailOutbox.customerId,
    })
    .from(mailOutbox)
    .where(like(mailOutbox.eventKey, `${prefix}%`))
    .orderBy(mailOutbox.recipient);

const event = (body: AgentToServer) => agentToServerSchema.parse(body);

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
  fixtures = backupFixtures(database.db);
  const db = database.db;
  const now = () => clock.now;
  // Wired as app.ts wires them.
  notifications = createNotificationEvents({ db, now });
  backupState = createBackupStateService({ db, now, tasksMissed: notifications.tasksMissed });
  agentEvents = createAgentEventService({
    repo: createAgentEventsRepo(db),
    backupState,
    runsEnded: notifications.runsEnded,
    now,
  });
});
afterAll(async () => database?.close());

describe('backup alerts (issue 17)', () => {
  it('queues one mail per subscribed user for a failed run, once even when the agent reports it twice', async () => {
    const a = tenants.customerA;
    const pkg = await fixtures.package(a.customerId);
    const laptop = await fixtures.machine(pkg, { name: 'laptop', assignedUserId: a.user.id });
    const other = await fixtures.machine(pkg, { name: 'server' });
    const taskId = (await backupState.createTask(fixtures.task(laptop, { name: 'Documents' }))) as number;
    // The super admin by default; the admin for the other machine only; the user for their own laptop.
    await subscribe(a.admin, a.customerId, { runFailed: true, allMachines: false }, [other]);
    await subscribe(a.user, a.customerId, { runFailed: true });
    // Another tenant's super admin hears nothing of this customer.
    const machine = { id: laptop, customerId: a.customerId, backupPackageId: pkg };

    await agentEvents.handle(
      machine,
      event({ type: 'runStarted', taskId, runKey: 'run-1', startedAt: '2026-11-23T09:00:00Z', manual: false }),
    );
    const finished = event(runFailed('run-1', { finishedAt: '2026-11-23T09:05:00Z' }));
    await Promise.all([agentEvents.handle(machine, finished), agentEvents.handle(machine, finished)]);
    await agentEvents.handle(machine, finished);

    const mails = await mailsLike('run-failed:');
    expect(mails.map((m) => m.recipient)).toEqual([a.superAdmin.email, a.user.email]);
    const [first] = mails;
    expect(first).toMatchObject({ kind: 'RUN_FAILED', customerId: a.customerId });
    expect(first?.message.subject).toBe('Backup failed: Documents on laptop');
    expect(first?.message.lines).toContain('Reason: Fatal: unable to open repository');
    expect(first?.message.link).toEqual({
      label: 'Open the task',
      path: `/backupmachines/${laptop}/backuptasks/${taskId}`,
    });
  });

  it('queues warnings only for those who asked, and nothing for a success', async () => {
    const b = tenants.customerB;
    const pkg = await fixtures.package(b.customerId);
    const id = await fixtures.machine(pkg, { name: 'nas' });
    const taskId = (await backupState.createTask(fixtures.task(id, { name: 'Photos' }))) as number;
    await subscribe(b.admin, b.customerId, { runWarnings: true });
    const machine = { id, customerId: b.customerId, backupPackageId: pkg };
    const run = async (runKey: string, status: 'FINISHED_WARNINGS' | 'FINISHED_SUCCESS') => {
      await agentEvents.handle(
        machine,
        event({ type: 'runStarted', taskId, runKey, startedAt: '2026-11-23T08:00:00Z', manual: false }),
      );
      await agentEvents.handle(
        machine,
        event(
          runFinished(runKey, {
            status,
            finishedAt: '2026-11-23T08:10:00Z',
            exitCodeResult: status === 'FINISHED_WARNINGS' ? 'SOME_FILES_NOT_ACCESSIBLE' : 'SUCCESS',
            snapshotId: 'b'.repeat(64),
            bytesAdded: 1,
            bytesTotal: 2,
          }),
        ),
      );
    };
    await run('warn-1', 'FINISHED_WARNINGS');
    await run('ok-1', 'FINISHED_SUCCESS');
    const mails = await mailsLike('run-warnings:');
    expect(mails.map((m) => m.recipient)).toEqual([b.admin.email]);
    expect(mails[0]?.message.subject).toBe('Backup finished with warnings: Photos on nas');
    expect((await mailsLike('run-failed:')).some((m) => m.customerId === b.customerId)).toBe(false);
  });

  it('queues a missed run once, even when two detections mark it at once', async () => {
    const a = tenants.customerA;
    const pkg = await fixtures.package(a.customerId);
    const id = await fixtures.machine(pkg, { name: 'office-pc' });
    clock.now = new Date('2026-11-23T09:30:00Z');
    const taskId = (await backupState.createTask(fixtures.task(id, { name: 'Mail' }))) as number;
    // The user is not subscribed to missed runs (default), the admin is, for all machines.
    await subscribe(a.admin, a.customerId, { runMissed: true });
    clock.now = new Date('2026-11-24T03:00:00Z');
    await Promise.all([backupState.markMissedIfDue(taskId), backupState.markMissedIfDue(taskId)]);
    await backupState.markMissedIfDue(taskId);

    const mails = await mailsLike(`missed:${taskId}:`);
    expect(mails.map((m) => m.recipient)).toEqual([a.admin.email, a.superAdmin.email]);
    expect(mails[0]?.eventKey).toBe(`missed:${taskId}:2026-11-24T02:00:00.000Z:${a.admin.id}`);
    expect(mails[0]?.message.subject).toBe('Backup missed: Mail on office-pc');
    expect(mails[0]?.message.link?.path).toBe(`/backupmachines/${id}/backuptasks/${taskId}`);

    // A paused task is moved on, not reported.
    const paused = (await backupState.createTask(fixtures.task(id, { status: 'PAUSED' }))) as number;
    await database.db
      .update(backupTasks)
      .set({ nextRunAt: new Date('2026-11-23T02:00:00Z') })
      .where(eq(backupTasks.id, paused));
    await backupState.markMissedIfDue(paused);
    expect(await mailsLike(`missed:${paused}:`)).toEqual([]);
  });

  it('reports a machine offline past its customer’s hours once per offline spell', async () => {
    const b = tenants.customerB;
    const pkg = await fixtures.package(b.customerId);
    const gone = await fixtures.machine(pkg, { name: 'gone' });
    const brief = await fixtures.machine(pkg, { name: 'brief' });
    await subscribe(b.superAdmin, b.customerId, { machineOffline: true, runFailed: true, runMissed: true });
    clock.now = new Date('2026-11-25T12:00:00Z');
    const seen = (id: number, at: string) =>
      database.db
        .update(backupMachines)
        .set({ online: false, lastSeenAt: new Date(at) })
        .where(eq(backupMachines.id, id));
    await seen(gone, '2026-11-24T11:00:00Z'); // 25 hours
    await seen(brief, '2026-11-25T09:00:00Z'); // 3 hours

    const [x, y] = await Promise.all([notifications.offlinePass(), notifications.offlinePass()]);
    expect(x + y).toBeGreaterThanOrEqual(1);
    await notifications.offlinePass();
    let mails = await mailsLike(`offline:`);
    expect(mails.filter((m) => m.customerId === b.customerId).map((m) => m.message.subject)).toEqual([
      'Machine offline: gone',
    ]);

    // With two hours as the customer's threshold the brief one is reported too.
    await database.db
      .insert(notificationThresholds)
      .values({ customerId: b.customerId, offlineHours: 2, quotaNearPercent: 90 });
    await notifications.offlinePass();
    // Back online and gone again: a new spell, a new mail.
    await seen(gone, '2026-11-25T08:00:00Z');
    await notifications.offlinePass();
    mails = (await mailsLike('offline:')).filter((m) => m.customerId === b.customerId);
    expect(mails.map((m) => m.message.subject).sort()).toEqual([
      'Machine offline: brief',
      'Machine offline: gone',
      'Machine offline: gone',
    ]);
    expect(mails.every((m) => m.recipient === b.superAdmin.email)).toBe(true);
  });

  it('tells the subscribed admins once when a package goes near and then over its quota', async () => {
    const a = tenants.customerA;
    const pkg = await fixtures.package(a.customerId, { name: 'Office' });
    const id = await fixtures.machine(pkg, { name: 'filer' });
    await database.db.update(backupPackages).set({ packageQuotaSizeInBytes: 1000 }).where(eq(backupPackages.id, pkg));
    await subscribe(a.superAdmin, a.customerId, { quota: true, runFailed: true, runMissed: true });
    // The admin is subscribed but the package is not linked to them: they do not see it.
    await subscribe(a.admin, a.customerId, { quota: true });
    const quota = createPackageQuota({
      repo: createPackagesRepo(database.db),
      backupState,
      syncTasks: async () => undefined,
      evaluated: notifications.quotaChanged,
    });
    const use = async (bytes: number) => {
      await database.db.update(backupMachines).set({ usedSpaceBytes: bytes }).where(eq(backupMachines.id, id));
      await Promise.all([quota.evaluateForMachine(id), quota.evaluateForMachine(id)]);
    };
    clock.now = new Date('2026-11-25T13:00:00Z');
    await use(500);
    await use(950);
    clock.now = new Date('2026-11-25T13:05:00Z');
    await use(960);
    clock.now = new Date('2026-11-25T13:10:00Z');
    await use(1200);
    await use(1300);

    const mails = await mailsLike('quota-');
    expect(mails.map((m) => [m.kind, m.recipient])).toEqual(
      expect.arrayContaining([
        ['QUOTA_NEAR', a.superAdmin.email],
        ['QUOTA_OVER', a.superAdmin.email],
      ]),
    );
    expect(mails).toHaveLength(2);
    expect(mails.find((m) => m.kind === 'QUOTA_OVER')?.message.link?.path).toBe(`/admin/backuppackages/${pkg}`);
  });

  it('queues each daily and weekly summary once per period', async () => {
    const b = tenants.customerB;
    await subscribe(b.user, b.customerId, { summary: 'DAILY' });
    await subscribe(b.admin, b.customerId, { runWarnings: true, summary: 'WEEKLY' });
    clock.now = new Date('2026-11-26T07:00:00Z'); // a Thursday, after the summary hour
    const [x, y] = await Promise.all([notifications.summaryPass(), notifications.summaryPass()]);
    expect(x + y).toBe(2);
    expect(await notifications.summaryPass()).toBe(0);
    clock.now = new Date('2026-11-27T05:00:00Z'); // before the next day's hour
    expect(await notifications.summaryPass()).toBe(0);
    clock.now = new Date('2026-11-27T06:30:00Z');
    expect(await notifications.summaryPass()).toBe(1);

    const mails = await mailsLike('summary:');
    expect(mails.map((m) => m.eventKey).sort()).toEqual([
      `summary:daily:2026-11-26:${b.user.id}`,
      `summary:daily:2026-11-27:${b.user.id}`,
      `summary:weekly:2026-11-23:${b.admin.id}`,
    ]);
    // The user sees only machines assigned to them: none.
    const daily = mails.find((m) => m.eventKey.startsWith('summary:daily:2026-11-26'));
    expect(daily?.message.lines[0]).toBe('Machines: 0 (0 offline)');
    const weekly = mails.find((m) => m.eventKey.startsWith('summary:weekly'));
    expect(weekly?.message.subject).toBe('Weekly backup summary for the week of 2026-11-23');
    expect(weekly?.message.lines[0]).toMatch(/^Machines: [1-9]\d* \(/);
  });
});
