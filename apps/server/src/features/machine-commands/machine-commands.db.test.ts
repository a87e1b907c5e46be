/** Machine commands (issue #5): upload of log files, log file download, storage refresh; agents' log uploads. */
import { LOG_FILES, MESSAGES, ROUTES, type ServerToAgent, withQuery } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupMachines, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInClients } from '../../testing/envelope.js';
import { createTenants, fixtureEmails, type Tenants } from '../../testing/fixtures.js';
import { useStartedStompClients } from '../../testing/stomp.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';

let t: TestApp;
let tenants: Tenants;
let base = '';
let clients: Record<string, TestClient>;
/** customerB's machine (its agent connects in the tests), an offline one beside it, customerA's machine. */
let ref = { customerId: 0, packageId: 0, machineId: 0 };
let offlineRef = { customerId: 0, packageId: 0, machineId: 0 };
let otherTenantRef = { customerId: 0, packageId: 0, machineId: 0 };
let credential: MachineCredential;
let offlineCredential: MachineCredential;
const started = useStartedStompClients();

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const packageId = await fixtures.package(tenants.customerB.customerId);
  ref = { customerId: tenants.customerB.customerId, packageId, machineId: await fixtures.machine(packageId) };
  offlineRef = { ...ref, machineId: await fixtures.machine(packageId) };
  const packageA = await fixtures.package(tenants.customerA.customerId);
  otherTenantRef = {
    customerId: tenants.customerA.customerId,
    packageId: packageA,
    machineId: await fixtures.machine(packageA),
  };
  const credentials = createMachineCredentials(t.database.db);
  const issued = await credentials.issue(ref.machineId);
  const issuedOffline = await credentials.issue(offlineRef.machineId);
  if (!issued || !issuedOffline) throw new Error('no credential');
  credential = issued;
  offlineCredential = issuedOffline;
  clients = await signedInClients(t.app, fixtureEmails(tenants));
  base = await listenOnLoopback(t.app);
});

afterAll(async () => {
  await t?.close();
});

const as = (key: string) => {
  const client = clients[key];
  if (!client) throw new Error(key);
  return client;
};

async function connectAgent() {
  const agent = await connectTestAgent(t.app, base, credential);
  started.push(agent.client);
  return agent;
}

const commandOf = <T extends ServerToAgent['type']>(commands: ServerToAgent[], type: T) =>
  commands.filter((c): c is Extract<ServerToAgent, { type: T }> => c.type === type);

const basic = (c: MachineCredential) => `Basic ${Buffer.from(`${c.machineId}:${c.token}`).toString('base64')}`;

/** An agent's upload of one log file, as the agent sends it. */
const upload = (
  fileName: string,
  content: string,
  options: { as?: MachineCredential; machineId?: number; lastModified?: Date; contentType?: string } = {},
) =>
  t.app.inject({
    method: 'PUT',
    url: withQuery(ROUTES.machineCommands.agentLogUpload.build({ machineId: options.machineId ?? ref.machineId }), {
      fileName,
      lastModified: options.lastModified?.toISOString(),
    }),
    headers: {
      authorization: basic(options.as ?? credential),
      'content-type': options.contentType ?? 'text/plain; charset=utf-8',
    },
    payload: content,
  });

const listOf = async (at = ref) => {
  const response = await as('provider').json('GET', ROUTES.machineCommands.logFiles.build(at));
  expect(response.statusCode).toBe(200);
  return response.json().result as Array<{ fileName: string; lastModified: string }>;
};

describe('request upload of log files (001 §7 uploadlogfiles)', () => {
  it('sends uploadLogFiles with the updater flag to the connected agent', async () => {
    const agent = await connectAgent();
    const withUpdater = await as('provider').json(
      'POST',
      withQuery(ROUTES.machineCommands.uploadLogFiles.build(ref), { uploadupdaterfiles: true }),
    );
    expect(withUpdater.statusCode).toBe(200);
    expect(withUpdater.json()).toMatchObject({ status: 'OK', messages: [] });
    const plain = await as('provider').json(
      'POST',
      withQuery(ROUTES.machineCommands.uploadLogFiles.build(ref), { uploadupdaterfiles: false }),
    );
    expect(plain.statusCode).toBe(200);
    // Without the query parameter the checkbox's default, false (001 §5).
    const bare = await as('provider').json('POST', ROUTES.machineCommands.uploadLogFiles.build(ref));
    expect(bare.statusCode).toBe(200);
    await eventually(() => commandOf(agent.commands(), 'uploadLogFiles').length === 3);
    const sent = commandOf(agent.commands(), 'uploadLogFiles');
    expect(sent.map((c) => c.includeUpdaterLogs)).toEqual([true, false, false]);
    expect(sent[0]?.requestId).toBe(withUpdater.json().result.requestId);
    expect(new Set(sent.map((c) => c.requestId)).size).toBe(3);
  });

  it('answers an offline machine at once with a clear error', async () => {
    const response = await as('provider').json(
      'POST',
      withQuery(ROUTES.machineCommands.uploadLogFiles.build(offlineRef), { uploadupdaterfiles: true }),
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      status: 'ERROR',
      responseSummaryCode: 'MACHINE_OFFLINE',
      messages: [{ message: MESSAGES.liveChannel.machineOffline }],
    });
  });

  it('answers 404 when the customer or package of the path is not the machine’s', async () => {
    const agent = await connectAgent();
    for (const wrong of [
      { ...ref, customerId: tenants.customerA.customerId },
      { ...ref, packageId: otherTenantRef.packageId },
      { ...ref, machineId: otherTenantRef.machineId },
    ]) {
      const response = await as('provider').json(
        'POST',
        withQuery(ROUTES.machineCommands.uploadLogFiles.build(wrong), { uploadupdaterfiles: false }),
      );
      expect(response.statusCode).toBe(404);
      expect(response.json().messages[0].message).toBe(MESSAGES.backupMachine.notFound);
    }
    expect(commandOf(agent.commands(), 'uploadLogFiles')).toEqual([]);
  });

  it('is for provider admins only, and validates the flag', async () => {
    for (const key of ['superB', 'adminB', 'userB', 'reseller']) {
      const command = await as(key).json(
        'POST',
        withQuery(ROUTES.machineCommands.uploadLogFiles.build(ref), { uploadupdaterfiles: true }),
      );
      expect(command.statusCode).toBe(403);
      const list = await as(key).json('GET', ROUTES.machineCommands.logFiles.build(ref));
      expect(list.statusCode).toBe(403);
    }
    const bad = await as('provider').json(
      'POST',
      withQuery(ROUTES.machineCommands.uploadLogFiles.build(ref), { uploadupdaterfiles: 'maybe' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages[0]).toMatchObject({ fieldName: 'uploadupdaterfiles' });
  });
});

describe('log files: the agent’s upload and the provider’s download', () => {
  it('refuses an upload without this machine’s own credential, and stores nothing', async () => {
    const none = await t.app.inject({
      method: 'PUT',
      url: withQuery(ROUTES.machineCommands.agentLogUpload.build({ machineId: ref.machineId }), {
        fileName: 'agent.log',
      }),
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Basic/);
    const wrongToken = await upload('agent.log', 'x', { as: { ...credential, token: 'not-the-token' } });
    expect(wrongToken.statusCode).toBe(401);
    // Another machine's valid credential may not upload for this machine.
    const otherMachine = await upload('agent.log', 'x', { as: offlineCredential });
    expect(otherMachine.statusCode).toBe(403);
    expect(otherMachine.json().status).toBe('ERROR');
    // A session cookie is no credential here.
    const browser = await as('provider').request({
      method: 'PUT',
      url: withQuery(ROUTES.machineCommands.agentLogUpload.build({ machineId: ref.machineId }), {
        fileName: 'agent.log',
      }),
      headers: { 'content-type': 'text/plain', 'x-csrf-token': as('provider').csrf },
      payload: 'x',
    });
    expect(browser.statusCode).toBe(401);
    expect(await listOf()).toEqual([]);
  });

  it('stores, replaces, lists and downloads a file with attachment headers', async () => {
    const first = await upload('agent.log', 'line 1\nline 2\n', { lastModified: new Date('2026-11-20T08:00:00.000Z') });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'OK' });
    expect(await listOf()).toEqual([{ fileName: 'agent.log', lastModified: '2026-11-20T08:00:00.000Z' }]);

    const replaced = await upload('agent.log', 'line 3 é\n', { lastModified: new Date('2026-11-21T09:30:00.000Z') });
    expect(replaced.statusCode).toBe(200);
    expect(await listOf()).toEqual([{ fileName: 'agent.log', lastModified: '2026-11-21T09:30:00.000Z' }]);

    const download = await as('provider').request({
      method: 'GET',
      url: withQuery(ROUTES.machineCommands.logFiles.build(ref), { filename: 'agent.log' }),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="agent.log"; filename*=UTF-8''agent.log`,
    );
    expect(download.headers['cache-control']).toBe('no-store');
    expect(download.body).toBe('line 3 é\n');

    // Another machine's files are not this machine's, and the other tenant's path finds nothing.
    expect(await listOf(offlineRef)).toEqual([]);
    const elsewhere = await as('provider').json(
      'GET',
      withQuery(ROUTES.machineCommands.logFiles.build(offlineRef), { filename: 'agent.log' }),
    );
    expect(elsewhere.statusCode).toBe(404);
    const wrongCustomer = await as('provider').json(
      'GET',
      withQuery(ROUTES.machineCommands.logFiles.build({ ...ref, customerId: tenants.customerA.customerId }), {
        filename: 'agent.log',
      }),
    );
    expect(wrongCustomer.statusCode).toBe(404);
  });

  it('quotes an unusual name safely in the download', async () => {
    const name = 'odd "name" é.log';
    expect((await upload(name, 'odd\n')).statusCode).toBe(200);
    const download = await as('provider').request({
      method: 'GET',
      url: withQuery(ROUTES.machineCommands.logFiles.build(ref), { filename: name }),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="odd _name_ _.log"; filename*=UTF-8''odd%20%22name%22%20%C3%A9.log`,
    );
    expect(download.body).toBe('odd\n');
  });

  it('answers an unknown file with a 404 envelope and a bad name with 400', async () => {
    const unknown = await as('provider').json(
      'GET',
      withQuery(ROUTES.machineCommands.logFiles.build(ref), { filename: 'never-uploaded.log' }),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      status: 'ERROR',
      messages: [{ message: MESSAGES.backupMachine.logFileNotFound }],
    });
    for (const bad of ['../etc/passwd', 'a\\b', '..', 'x'.repeat(LOG_FILES.fileNameMax + 1)]) {
      const download = await as('provider').json(
        'GET',
        withQuery(ROUTES.machineCommands.logFiles.build(ref), { filename: bad }),
      );
      expect(download.statusCode).toBe(400);
      expect(download.json().messages[0]).toMatchObject({ fieldName: 'filename' });
      const uploaded = await upload(bad, 'x');
      expect(uploaded.statusCode).toBe(400);
      expect(uploaded.json().messages[0]).toMatchObject({ fieldName: 'fileName' });
    }
    expect((await listOf()).map((f) => f.fileName)).not.toContain('..');
    const badTime = await t.app.inject({
      method: 'PUT',
      url: `${withQuery(ROUTES.machineCommands.agentLogUpload.build({ machineId: ref.machineId }), { fileName: 'agent.log' })}&lastModified=yesterday`,
      headers: { authorization: basic(credential), 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().messages[0]).toMatchObject({ fieldName: 'lastModified' });
    // The longest valid name fits, spaces and all.
    const longest = `${'a b '.repeat(LOG_FILES.fileNameMax / 4 - 1)}.log`;
    expect(longest).toHaveLength(LOG_FILES.fileNameMax);
    expect((await upload(longest, 'x')).statusCode).toBe(200);
    expect((await listOf()).map((f) => f.fileName)).toContain(longest);
  });

  it('takes text/plain only, caps the size, and drops NUL characters', async () => {
    const json = await upload('agent.log', '{"a":1}', { contentType: 'application/json' });
    expect(json.statusCode).toBe(400);
    expect(json.json().messages[0].message).toBe(MESSAGES.backupMachine.logFilePlainText);
    const tooLarge = await upload('big.log', 'x'.repeat(LOG_FILES.maxBytes + 1));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().status).toBe('ERROR');
    expect((await upload('full.log', 'y'.repeat(LOG_FILES.maxBytes))).statusCode).toBe(200);
    expect((await upload('nul.log', 'a\u0000b\n')).statusCode).toBe(200);
    const nul = await as('provider').request({
      method: 'GET',
      url: withQuery(ROUTES.machineCommands.logFiles.build(ref), { filename: 'nul.log' }),
    });
    expect(nul.body).toBe('ab\n');
    expect((await listOf()).map((f) => f.fileName)).not.toContain('big.log');
  });

  it(`keeps the ${LOG_FILES.maxFilesPerMachine} most recently uploaded files of a machine`, async () => {
    const names = Array.from(
      { length: LOG_FILES.maxFilesPerMachine + 2 },
      (_, i) => `keep-${String(i).padStart(2, '0')}.log`,
    );
    for (const name of names) {
      t.clock.advanceMinutes(1);
      expect((await upload(name, name, { machineId: offlineRef.machineId, as: offlineCredential })).statusCode).toBe(
        200,
      );
    }
    const kept = (await listOf(offlineRef)).map((f) => f.fileName);
    expect(kept).toEqual(names.slice(2));
    // Uploading an old name again makes it the newest: the now oldest one goes.
    t.clock.advanceMinutes(1);
    await upload(names[2] ?? '', 'again', { machineId: offlineRef.machineId, as: offlineCredential });
    t.clock.advanceMinutes(1);
    await upload('newest.log', 'new', { machineId: offlineRef.machineId, as: offlineCredential });
    const after = (await listOf(offlineRef)).map((f) => f.fileName);
    expect(after).toHaveLength(LOG_FILES.maxFilesPerMachine);
    expect(after).toContain(names[2]);
    expect(after).toContain('newest.log');
    expect(after).not.toContain(names[3]);
  });
});

describe('refresh storage space (001 §7 PUT …?refresh=true)', () => {
  const refresh = (
    key: string,
    at = ref,
    path = withQuery(ROUTES.machines.action.build({ packageId: at.packageId, machineId: at.machineId }), {
      refresh: true,
    }),
  ) => as(key).json('PUT', path);

  it('sends refreshStorage to the online agent for each of the three admin roles', async () => {
    const agent = await connectAgent();
    for (const key of ['provider', 'superB', 'adminB']) {
      const response = await refresh(key);
      expect(response.statusCode, key).toBe(200);
      expect(response.json()).toMatchObject({ status: 'OK', result: null, messages: [] });
    }
    await eventually(() => commandOf(agent.commands(), 'refreshStorage').length === 3);
    const requestIds = commandOf(agent.commands(), 'refreshStorage').map((c) => c.requestId);
    expect(new Set(requestIds).size).toBe(3);
  });

  it('answers an offline machine at once with a clear error', async () => {
    const response = await refresh('adminB', offlineRef);
    expect(response.statusCode).toBe(409);
    expect(response.json().messages[0].message).toBe(MESSAGES.liveChannel.machineOffline);
  });

  it('hides other tenants’ machines (404), refuses customer users (403), lets a reseller reach its customers', async () => {
    const agent = await connectAgent();
    const otherTenant = await refresh('adminA', ref);
    expect(otherTenant.statusCode).toBe(404);
    expect(otherTenant.json().messages[0].message).toBe(MESSAGES.backupMachine.notFound);
    expect((await refresh('adminB', otherTenantRef)).statusCode).toBe(404);
    // The reseller is customerA's parent, not customerB's.
    expect((await refresh('reseller', ref)).statusCode).toBe(404);
    expect((await refresh('reseller', otherTenantRef)).statusCode).toBe(409);
    expect((await refresh('userB')).statusCode).toBe(403);
    // The machine is not in the path's package.
    expect((await refresh('adminB', { ...ref, packageId: otherTenantRef.packageId })).statusCode).toBe(404);
    expect(commandOf(agent.commands(), 'refreshStorage')).toEqual([]);
  });

  it('refuses read-only admins, the provider’s included (403), and sends nothing', async () => {
    const agent = await connectAgent();
    const readOnly = (id: number, value: boolean) =>
      t.database.db.update(users).set({ readOnly: value }).where(eq(users.id, id));
    const ids = [tenants.customerB.admin.id, tenants.customerB.superAdmin.id, tenants.providerAdmin.id];
    for (const id of ids) await readOnly(id, true);
    try {
      for (const key of ['adminB', 'superB', 'provider']) {
        const response = await refresh(key);
        expect(response.statusCode, key).toBe(403);
        expect(response.json().messages[0].message).toBe(MESSAGES.forbidden);
      }
    } finally {
      for (const id of ids) await readOnly(id, false);
    }
    expect((await refresh('adminB')).statusCode).toBe(200);
    await eventually(() => commandOf(agent.commands(), 'refreshStorage').length === 1);
  });

  it('refuses an action path without exactly one action, and sends nothing', async () => {
    const agent = await connectAgent();
    const path = ROUTES.machines.action.build({ packageId: ref.packageId, machineId: ref.machineId });
    for (const query of ['', '?refresh=true&delete=true', '?refresh=true&status=SUSPENDED', '?other=1']) {
      const response = await refresh('adminB', ref, `${path}${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().messages[0]).toMatchObject({
        fieldName: '',
        message: MESSAGES.backupMachine.actionNeeded,
      });
    }
    const notTrue = await refresh('adminB', ref, `${path}?refresh=false`);
    expect(notTrue.statusCode).toBe(400);
    expect(notTrue.json().messages[0]).toMatchObject({ fieldName: 'refresh' });
    expect(commandOf(agent.commands(), 'refreshStorage')).toEqual([]);
  });

  it('records the usage the agent reports after a refresh', async () => {
    const agent = await connectAgent();
    expect((await refresh('adminB')).statusCode).toBe(200);
    await eventually(() => commandOf(agent.commands(), 'refreshStorage').length === 1);
    const [command] = commandOf(agent.commands(), 'refreshStorage');
    if (!command) throw new Error('no command');
    await agent.send({ type: 'reply', requestId: command.requestId, success: true, messages: [], payload: {} });
    expect(await agent.send({ type: 'usage', usedSpaceBytes: 123_456 })).toBe(true);
    await eventually(async () => {
      const [row] = await t.database.db
        .select({ used: backupMachines.usedSpaceBytes })
        .from(backupMachines)
        .where(eq(backupMachines.id, ref.machineId));
      return row?.used === 123_456;
    });
  });
});
