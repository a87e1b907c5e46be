import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupTasks, mailOutbox } from '../../db/schema/index.js';
import { runFailed } from '../../testing/agent-events.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { giveResellerSmtp, mailParts } from '../../testing/mail.js';
import { startTestSmtpServer, type TestSmtpServer, testSmtpCertificate } from '../../testing/smtp.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, listenOnLoopback } from '../live/testing.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';
import { createNotificationEvents } from './service.js';

/**
 * Backup alerts end to end (issue 17): the event in the running app, the outbox, the delivery job and a real
 * SMTP server (the reseller's, with STARTTLS and a login) — one mail for a failed run and one for a missed
 * run, however often the event is reported, in the reseller's brand.
 */
const LOGIN = { user: 'alerts@reseller.test', password: 'alerts smtp secret' };
let t: TestApp;
let tenants: Tenants;
let smtp: TestSmtpServer;
let base = '';
const db = () => t.database.db;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ users: { [LOGIN.user]: LOGIN.password } });
  t = await createTestApp({ SMTP_CA_FILE: testSmtpCertificate().file, ALLOW_PRIVATE_ENDPOINTS: 'true' });
  tenants = await createTenants(db());
  base = await listenOnLoopback(t.app);
  await giveResellerSmtp(t, tenants.reseller.customerId, smtp, {
    login: LOGIN,
    brandName: 'Alert Reseller Backup',
    from: 'alerts@reseller.test',
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Every due mail delivered, twice over (a second pass must find nothing left to send). */
async function deliverAll() {
  await t.app.mailDelivery.runOnce();
  await t.app.mailDelivery.runOnce();
}

describe('backup alerts by mail (issue 17)', () => {
  it("mails the customer's super admin once for a failed run, in the reseller's brand through its server", async () => {
    const a = tenants.customerA;
    const fixtures = backupFixtures(db());
    const machineId = await fixtures.machine(await fixtures.package(a.customerId), { name: 'alert-laptop' });
    const taskId = (await createBackupStateService({ db: db() }).createTask(
      fixtures.task(machineId, { name: 'Alert documents' }),
    )) as number;
    const issued = await createMachineCredentials(db()).issue(machineId);
    if (!issued) throw new Error('no credential');
    const agent = await connectTestAgent(t.app, base, issued);
    try {
      await agent.send({
        type: 'runStarted',
        taskId,
        runKey: 'alert-run',
        startedAt: new Date().toISOString(),
        manual: false,
      });
      const finished = runFailed('alert-run');
      // The agent reports the end twice (a reconnect): still one event.
      await agent.send(finished);
      await agent.send(finished);
    } finally {
      await agent.client.stop();
    }
    await deliverAll();

    const received = await smtp.waitFor((m) => m.to.includes(a.superAdmin.email));
    const { parsed, text, html } = await mailParts(received.raw);
    expect(parsed.subject).toBe('Backup failed: Alert documents on alert-laptop');
    expect(received).toMatchObject({ from: 'alerts@reseller.test', user: LOGIN.user, secure: true });
    expect(text).toContain('Fatal: unable to open repository');
    expect(text).toContain(`/backupmachines/${machineId}/backuptasks/${taskId}`);
    expect(html).toContain('Alert Reseller Backup');
    expect(smtp.mails().filter((m) => m.to.includes(a.superAdmin.email))).toHaveLength(1);
    const [row] = await db().select().from(mailOutbox).where(like(mailOutbox.eventKey, 'run-failed:%'));
    expect(row?.status).toBe('SENT');
  });

  it('mails once for a missed run, even when two detections mark it', async () => {
    const a = tenants.customerA;
    smtp.clear();
    const fixtures = backupFixtures(db());
    const machineId = await fixtures.machine(await fixtures.package(a.customerId), { name: 'alert-desktop' });
    // Wired as app.ts wires missed-run detection to the alerts.
    const backupState = createBackupStateService({
      db: db(),
      tasksMissed: createNotificationEvents({ db: db() }).tasksMissed,
    });
    const taskId = (await backupState.createTask(fixtures.task(machineId, { name: 'Alert mail' }))) as number;
    await db()
      .update(backupTasks)
      .set({ nextRunAt: new Date(Date.now() - 6 * 3_600_000) })
      .where(eq(backupTasks.id, taskId));
    await Promise.all([backupState.markMissedIfDue(taskId), backupState.markMissedIfDue(taskId)]);
    await deliverAll();

    const received = await smtp.waitFor((m) => m.to.includes(a.superAdmin.email));
    const { parsed } = await mailParts(received.raw);
    expect(parsed.subject).toBe('Backup missed: Alert mail on alert-desktop');
    expect(smtp.mails()).toHaveLength(1);
  });
});
