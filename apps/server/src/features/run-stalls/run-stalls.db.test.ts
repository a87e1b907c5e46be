/** Stalled runs (issue 29): progress, the stall limit on the movable clock, the alert, the cancel, the running list. */
import {
  type Envelope,
  type Paged,
  ROUTES,
  type TaskActionRow,
  type TaskOverviewRow,
  withPaging,
  withQuery,
} from '@portal/domain';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, taskActions } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';

let t: TestApp;
let tenants: Tenants;
let base = '';
const ids = { packageA: 0, machineA: 0, taskA: 0 };
const as = {} as Record<'userA' | 'provider', TestClient>;

beforeAll(async () => {
  // Sessions outlive the hours the clock moves on.
  t = await createTestApp({ RUN_STALL_MINUTES: '30', SESSION_IDLE_MINUTES: '600' });
  const db = t.database.db;
  tenants = await createTenants(db);
  const fixtures = backupFixtures(db);
  await fixtures.setSuperAdmin(tenants.customerA.customerId, tenants.customerA.superAdmin.id);
  ids.packageA = await fixtures.package(tenants.customerA.customerId);
  ids.machineA = await fixtures.machine(ids.packageA, { name: 'alpha', assignedUserId: tenants.customerA.user.id });
  const state = createBackupStateService({ db, now: () => t.clock.now });
  ids.taskA = (await state.createTask(fixtures.task(ids.machineA, { name: 'Documents' }))) as number;
  as.userA = new TestClient(t.app);
  await as.userA.signIn(tenants.customerA.user.email, FIXTURE_PASSWORD);
  as.provider = new TestClient(t.app);
  await as.provider.signIn(tenants.providerAdmin.email, FIXTURE_PASSWORD);
  base = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t?.close();
});

const runOf = async (runKey: string) => {
  const [row] = await t.database.db.select().from(taskActions).where(eq(taskActions.runKey, runKey));
  if (!row) throw new Error(`no run ${runKey}`);
  return row;
};
const runsPage = async () => {
  const url = withQuery(ROUTES.tasks.customer.actions.build({ machineId: ids.machineA, taskId: ids.taskA }), {
    type: 'BACKUP_RUN',
    page: 0,
    size: 10,
  });
  return ((await as.userA.json('GET', url)).json() as Envelope<Paged<TaskActionRow>>).result?.elements ?? [];
};
const runningList = async () => {
  const response = await as.provider.json(
    'GET',
    withPaging(ROUTES.taskOverview.running.build(), { page: 0, size: 10 }),
  );
  return ((response.json() as Envelope<Paged<TaskOverviewRow>>).result?.elements ?? []).map(
    (r) => r.inProgressActionId,
  );
};
const stallMails = (runId: number) =>
  t.database.db
    .select({ kind: mailOutbox.kind, recipient: mailOutbox.recipient })
    .from(mailOutbox)
    .where(like(mailOutbox.eventKey, `run-stalled:${runId}:%`));
const cancelUrl = (runId: number) =>
  withQuery(ROUTES.tasks.customer.cancel.build({ machineId: ids.machineA, taskId: ids.taskA, actionId: runId }), {
    type: 'BACKUP_RUN',
  });

describe('stalled runs (issue 29)', () => {
  it('marks a run without progress for the limit stalled, alerts like a failed run, drops it from the running list and ends it on cancel', async () => {
    const issued = await createMachineCredentials(t.database.db).issue(ids.machineA);
    if (!issued) throw new Error('no credential');
    const agent = await connectTestAgent(t.app, base, issued);
    let runId = 0;
    try {
      await agent.send({
        type: 'runStarted',
        runKey: 'stall-1',
        taskId: ids.taskA,
        startedAt: t.clock.now.toISOString(),
        manual: false,
      });
      await eventually(async () => (await runOf('stall-1').catch(() => null)) !== null);
      runId = (await runOf('stall-1')).id;

      // Progress at 20 minutes keeps it running past the first 30.
      t.clock.advanceMinutes(20);
      const progress = {
        type: 'runProgress',
        runKey: 'stall-1',
        phase: 'TRANSFERRING_FILES',
        percentage: 25,
        currentItem: 1,
        totalItems: 4,
        bytesDone: 10,
        bytesTotal: 40,
      } as const;
      await agent.send(progress);
      await eventually(async () => (await runOf('stall-1')).transferProgressPercentage === 25);
      t.clock.advanceMinutes(29);
      expect(await t.app.runStalls.runOnce()).toBe(0);
      expect((await runsPage()).find((r) => r.id === runId)).toMatchObject({ status: 'IN_PROGRESS', stalled: false });
      expect(await runningList()).toContain(runId);

      // 31 minutes after the last progress: stalled, once, with an alert to those who get failed-run mails.
      t.clock.advanceMinutes(2);
      expect(await t.app.runStalls.runOnce()).toBe(1);
      expect(await t.app.runStalls.runOnce()).toBe(0);
      expect((await runsPage()).find((r) => r.id === runId)).toMatchObject({
        status: 'IN_PROGRESS',
        stalled: true,
        cancellable: true,
      });
      expect(await stallMails(runId)).toEqual([{ kind: 'RUN_STALLED', recipient: tenants.customerA.superAdmin.email }]);
      expect(await runningList()).not.toContain(runId);

      // Progress again: running again, listed again.
      const moved = { ...progress, percentage: 26, bytesDone: 11 };
      await agent.send(moved);
      await eventually(async () => (await runOf('stall-1')).stalledAt === null);
      expect(await runningList()).toContain(runId);

      // restic repeats an unchanged status every second while it hangs: a repeated report is no progress, so the
      // run stalls however often it comes, and a repeat does not clear the stall either.
      const events = createAgentEventsRepo(t.database.db);
      const repeat = async () =>
        (await events.recordProgress([{ ...moved, machineId: ids.machineA, reportedAt: t.clock.now }]))[0];
      for (let minute = 0; minute < 40; minute += 10) {
        t.clock.advanceMinutes(10);
        expect(await repeat()).toMatchObject({ id: runId });
      }
      expect(await t.app.runStalls.runOnce()).toBe(1);
      expect(await repeat()).toMatchObject({ id: runId });
      expect((await runOf('stall-1')).stalledAt).not.toBeNull();
    } finally {
      await agent.client.stop();
    }
    await eventually(() => !t.app.live.hasLocalAgent(ids.machineA));

    // The agent is gone: the cancel still ends the stalled run.
    const response = await as.userA.json('PUT', cancelUrl(runId));
    expect(response.statusCode).toBe(200);
    expect(await runOf('stall-1')).toMatchObject({ status: 'FAILED', failureMessage: 'Transfer cancelled' });
    expect((await runsPage()).find((r) => r.id === runId)).toMatchObject({ stalled: false, cancellable: false });
  });
});
