/** Suspending a customer reaches its connected agents at once: their tasks stop running (000 §4 step 1). */
import { ROUTES, type ServerToAgent, withQuery } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';
import { addCustomer, signedIn } from './testing.js';

let t: TestApp;
let tenants: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
});
afterAll(() => t?.close());

const taskLists = (commands: ServerToAgent[]) =>
  commands.filter((c): c is Extract<ServerToAgent, { type: 'tasks' }> => c.type === 'tasks');

describe('customer status and the agents (issue #6)', () => {
  it('sends each connected agent its tasks as not runnable on suspension, and runnable again on reactivation', async () => {
    const db = t.database.db;
    const customer = await addCustomer(db, { status: 'ACTIVE' });
    const fixtures = backupFixtures(db);
    const packageId = await fixtures.package(customer.customerId);
    const machineId = await fixtures.machine(packageId);
    const taskId = await createBackupStateService({ db }).createTask(fixtures.task(machineId));
    const credential = await createMachineCredentials(db).issue(machineId);
    if (!credential) throw new Error('no credential');
    const base = await listenOnLoopback(t.app);
    const agent = await connectTestAgent(t.app, base, credential);
    try {
      const provider = await signedIn(t.app, tenants.providerAdmin.email);
      const latestRunnable = () =>
        taskLists(agent.commands())
          .at(-1)
          ?.tasks.find((task) => task.id === taskId)?.runnable;
      expect(latestRunnable()).toBeUndefined();

      const changeStatus = ROUTES.customers.provider.changeStatus.build({ customerId: customer.customerId });
      for (const [status, runnable] of [
        ['SUSPENDED', false],
        ['ACTIVE', true],
      ] as const) {
        const changed = await provider.json('PUT', withQuery(changeStatus, { status }));
        expect(changed.statusCode, changed.body).toBe(200);
        await eventually(() => latestRunnable() === runnable);
      }
    } finally {
      await agent.client.stop();
    }
  });
});
