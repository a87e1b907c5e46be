/** Realtime restic commands (issue #5): the provider routes, the agent over the live channel, the machine queue. */
import type { AddressInfo } from 'node:net';
import {
  AGENT_CHANNEL,
  type AgentToServer,
  COMMAND_RESPONSE_TYPES,
  machineQueue,
  REALTIME_CAT_OBJECT_TYPES,
  REALTIME_COMMAND_TEXTS,
  ROUTES,
  readCommandResponse,
  resticCommandNotAllowedText,
  type ServerToAgent,
} from '@portal/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, realtimeCommands } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInAs, signedInClients } from '../../testing/envelope.js';
import { createTenants, fixtureEmails, type Tenants } from '../../testing/fixtures.js';
import { browserStomp, sessionCookieOf, useStartedStompClients } from '../../testing/stomp.js';
import { eventually, stompClient, upgradeStatus } from '../live/testing.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';

const ORIGIN = 'http://portal.test';
let t: TestApp;
let tenants: Tenants;
let base = '';
let provider: TestClient;
let customerAdmin: TestClient;
let ref = { customerId: 0, packageId: 0, machineId: 0 };
let offlineRef = { customerId: 0, packageId: 0, machineId: 0 };
let credential: MachineCredential;
const started = useStartedStompClients();

beforeAll(async () => {
  t = await createTestApp({ REALTIME_COMMAND_ALLOW_LIST: 'snapshots, version,check,cat' });
  tenants = await createTenants(t.database.db);
  await allowProviderControl(true);
  const fixtures = backupFixtures(t.database.db);
  const packageId = await fixtures.package(tenants.customerB.customerId);
  const machineId = await fixtures.machine(packageId);
  const offlineMachine = await fixtures.machine(packageId);
  ref = { customerId: tenants.customerB.customerId, packageId, machineId };
  offlineRef = { ...ref, machineId: offlineMachine };
  const issued = await createMachineCredentials(t.database.db).issue(machineId);
  if (!issued) throw new Error('no credential');
  credential = issued;
  provider = await signedInAs(t.app, tenants.providerAdmin.email);
  customerAdmin = await signedInAs(t.app, tenants.customerB.superAdmin.email);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

/** A fake agent on the live channel: collects the commands it is sent. */
async function connectAgent() {
  const client = stompClient(`${base}${AGENT_CHANNEL.endpoint}`, {
    connectHeaders: { login: String(credential.machineId), passcode: credential.token },
  });
  started.push(client);
  expect(await client.connected).toBe('connected');
  const queue = client.subscribe(AGENT_CHANNEL.commands);
  // A receipt on a later frame proves the SUBSCRIBE before it was handled.
  const sync = { type: 'reply', requestId: 'sync', success: true, messages: [] } satisfies AgentToServer;
  expect(await client.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify(sync))).toBe(true);
  await eventually(() => t.app.live.hasLocalAgent(credential.machineId));
  const commands = () => queue.messages.map((m) => JSON.parse(m.body) as ServerToAgent);
  const send = (event: AgentToServer) => client.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify(event));
  return { commands, send };
}

async function providerQueue() {
  const response = await provider.open('/');
  expect(response.statusCode).toBeLessThan(500);
  const client = browserStomp(provider, `${base}${ROUTES.live.provider.build()}`);
  started.push(client);
  expect(await client.connected).toBe('connected');
  const queue = client.subscribe(machineQueue('provider', ref.machineId));
  await client.sendWithReceipt('SUBSCRIBE', machineQueue('provider', offlineRef.machineId));
  return queue;
}

/** Beta Inc's 'Allow provider machine control', which realtime commands need (issue 29). */
async function allowProviderControl(allowed: boolean) {
  await t.database.db
    .update(customers)
    .set({ allowProviderMachineControl: allowed })
    .where(eq(customers.id, tenants.customerB.customerId));
}

/** Those of these commands that are stored, whatever the routes say. */
const storedCommands = (commandIds: string[]) =>
  t.database.db.select().from(realtimeCommands).where(inArray(realtimeCommands.commandId, commandIds));

const submit = (body: unknown, at = ref) => provider.json('PUT', ROUTES.realtimeCommands.list.build(at), body);
const list = async () => {
  const response = await provider.json('GET', ROUTES.realtimeCommands.list.build(ref));
  expect(response.statusCode).toBe(200);
  return response.json().result.elements as Array<Record<string, unknown>>;
};

describe('realtime commands routes (issue #5)', () => {
  it('lets in provider admins only: every customer role and the reseller admin are refused', async () => {
    const { adminB, userB, superA, reseller } = fixtureEmails(tenants);
    const others = [customerAdmin, ...Object.values(await signedInClients(t.app, { adminB, userB, superA, reseller }))];
    for (const client of others) {
      for (const [method, url] of [
        ['GET', ROUTES.realtimeCommands.list.build(ref)],
        ['PUT', ROUTES.realtimeCommands.list.build(ref)],
        ['PUT', ROUTES.realtimeCommands.stop.build(ref)],
        ['PUT', ROUTES.realtimeCommands.remove.build(ref)],
      ] as const) {
        const response = await client.json(method, url, method === 'GET' ? undefined : { commandId: 'x' });
        expect(response.statusCode, `${method} ${url}`).toBe(403);
      }
    }
  });

  it('validates the body with the domain form and answers field messages', async () => {
    const response = await submit({ requestId: 'v-1', baseCommand: '', commandArguments: '', commandFlags: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().messages[0]).toMatchObject({ fieldName: 'baseCommand' });
    const spaces = await submit({ requestId: 'v-2', baseCommand: 'snapshots', commandFlags: '--json  --no-lock' });
    expect(spaces.statusCode).toBe(400);
    expect(spaces.json().messages[0]).toMatchObject({ fieldName: 'commandFlags' });
  });

  it('refuses a base command outside the allow-list with a clear message', async () => {
    const response = await submit({ requestId: 'a-1', baseCommand: 'forget', commandArguments: ['--prune'] });
    expect(response.statusCode).toBe(400);
    expect(response.json().messages[0]).toMatchObject({
      fieldName: 'baseCommand',
      message: resticCommandNotAllowedText('forget', ['snapshots', 'version', 'check', 'cat']),
    });
  });

  it('answers 404 for a machine outside the path’s customer or package', async () => {
    const wrong = await submit(
      { requestId: 'n-1', baseCommand: 'snapshots' },
      { ...ref, packageId: ref.packageId + 999 },
    );
    expect(wrong.statusCode).toBe(404);
    const other = await provider.json(
      'GET',
      ROUTES.realtimeCommands.list.build({ ...ref, customerId: tenants.customerA.customerId }),
    );
    expect(other.statusCode).toBe(404);
  });

  it('refuses a command for an offline machine', async () => {
    const response = await submit({ requestId: 'o-1', baseCommand: 'snapshots' }, offlineRef);
    expect(response.statusCode).toBe(409);
    expect(response.json().messages[0].message).toMatch(/offline/);
    expect((await provider.json('GET', ROUTES.realtimeCommands.list.build(offlineRef))).json().result.elements).toEqual(
      [],
    );
  });

  it('runs a command on the agent, records and publishes its output and finish, then deletes it', async () => {
    const agent = await connectAgent();
    const queue = await providerQueue();
    const response = await submit({
      requestId: 'run-1',
      baseCommand: 'snapshots',
      commandArguments: '',
      commandFlags: '--json',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({ commandId: 'run-1', exitCode: null, commandFlags: ['--json'] });
    await eventually(() => agent.commands().some((c) => c.type === 'realtimeCommand'));
    const sent = agent.commands().find((c) => c.type === 'realtimeCommand');
    if (sent?.type !== 'realtimeCommand') throw new Error('no command');
    expect(sent).toMatchObject({ baseCommand: 'snapshots', commandArguments: [], commandFlags: ['--json'] });

    // The same command id again: 'Command with given ID already exists'.
    const again = await submit({ requestId: 'run-1', baseCommand: 'snapshots' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      responseSummaryCode: 'CANCELLABLE_COMMAND_ID_ALREADY_EXISTS',
      messages: [{ message: 'Command with given ID already exists' }],
    });

    // Deleting a running command is refused.
    const early = await provider.json('PUT', ROUTES.realtimeCommands.remove.build(ref), { commandId: 'run-1' });
    expect(early.statusCode).toBe(400);

    await agent.send({ type: 'realtimeOutput', commandId: sent.commandId, lines: ['[', ']'] });
    await agent.send({ type: 'realtimeOutput', commandId: sent.commandId, lines: ['done'] });
    const finishedAt = new Date().toISOString();
    await agent.send({ type: 'realtimeFinished', commandId: sent.commandId, exitCodeResult: 'SUCCESS', finishedAt });
    await eventually(() => queue.messages.length >= 4);
    // 001 §3: responseType and responsePayloadJson, one message per line, then the finish.
    const bodies = queue.messages.map((m) => JSON.parse(m.body));
    expect(bodies.map((b) => Object.keys(b).sort())).toEqual(
      Array(4).fill(['kind', 'responsePayloadJson', 'responseType']),
    );
    expect(bodies.map((b) => [b.responseType, JSON.parse(b.responsePayloadJson)])).toEqual([
      [COMMAND_RESPONSE_TYPES.outputLine, { commandId: 'run-1', commandOutputLine: '[', lineNumber: 1 }],
      [COMMAND_RESPONSE_TYPES.outputLine, { commandId: 'run-1', commandOutputLine: ']', lineNumber: 2 }],
      [COMMAND_RESPONSE_TYPES.outputLine, { commandId: 'run-1', commandOutputLine: 'done', lineNumber: 3 }],
      [COMMAND_RESPONSE_TYPES.finished, { commandId: 'run-1', timeFinished: finishedAt, exitCode: 'SUCCESS' }],
    ]);
    // The browser's reader (001 §7) recognises every one of them.
    expect(queue.messages.map((m) => readCommandResponse(m.body).kind)).toEqual([
      'outputLine',
      'outputLine',
      'outputLine',
      'finished',
    ]);
    const [command] = await list();
    expect(command).toMatchObject({
      commandId: 'run-1',
      baseCommand: 'snapshots',
      commandOutput: ['[', ']', 'done'],
      timeFinished: finishedAt,
      exitCode: 'SUCCESS',
    });

    // A finished command cannot be stopped, but can be deleted.
    expect(
      (await provider.json('PUT', ROUTES.realtimeCommands.stop.build(ref), { commandId: 'run-1' })).statusCode,
    ).toBe(400);
    const deleted = await provider.json('PUT', ROUTES.realtimeCommands.remove.build(ref), { commandId: 'run-1' });
    expect(deleted.statusCode).toBe(200);
    expect(await list()).toEqual([]);
    expect(
      (await provider.json('PUT', ROUTES.realtimeCommands.remove.build(ref), { commandId: 'run-1' })).statusCode,
    ).toBe(404);
  });

  it('numbers each command’s lines from 1 without a gap, as stored: the stored output is what was sent', async () => {
    const agent = await connectAgent();
    const queue = await providerQueue();
    const ids: number[] = [];
    for (const requestId of ['seq-1', 'seq-2']) {
      expect((await submit({ requestId, baseCommand: 'check' })).statusCode).toBe(200);
      await eventually(() => agent.commands().filter((c) => c.type === 'realtimeCommand').length > ids.length);
      const sent = agent.commands().filter((c) => c.type === 'realtimeCommand')[ids.length];
      if (sent?.type !== 'realtimeCommand') throw new Error('no command');
      ids.push(sent.commandId);
    }
    const [first = 0, second = 0] = ids;
    // Batches of several sizes, the two commands' lines interleaved.
    const batches: Array<[number, string[]]> = [
      [first, ['a1', 'a2', 'a3']],
      [second, ['b1']],
      [first, ['a4']],
      [second, ['b2', 'b3', 'b4', 'b5']],
      [first, ['a5', 'a6']],
    ];
    for (const [commandId, lines] of batches) await agent.send({ type: 'realtimeOutput', commandId, lines });
    await eventually(() => queue.messages.length >= 11);

    const heard = new Map<string, Array<{ line: string; lineNumber: number }>>();
    for (const message of queue.messages) {
      const read = readCommandResponse(message.body);
      if (read.kind !== 'outputLine') throw new Error(`unexpected ${message.body}`);
      heard.set(read.commandId, [
        ...(heard.get(read.commandId) ?? []),
        { line: read.commandOutputLine, lineNumber: read.lineNumber },
      ]);
    }
    const stored = await list();
    for (const [commandId, count] of [
      ['seq-1', 6],
      ['seq-2', 5],
    ] as const) {
      const lines = heard.get(commandId) ?? [];
      expect(lines.map((l) => l.lineNumber)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(stored.find((c) => c.commandId === commandId)?.commandOutput).toEqual(lines.map((l) => l.line));
    }
    for (const commandId of ids) {
      await agent.send({
        type: 'realtimeFinished',
        commandId,
        exitCodeResult: 'SUCCESS',
        finishedAt: new Date().toISOString(),
      });
    }
    for (const commandId of ['seq-1', 'seq-2']) {
      await eventually(async () => (await list()).some((c) => c.commandId === commandId && c.exitCode === 'SUCCESS'));
      const removed = await provider.json('PUT', ROUTES.realtimeCommands.remove.build(ref), { commandId });
      expect(removed.statusCode).toBe(200);
    }
  });

  it('stop sends stopRealtimeCommand; the agent’s refusal finishes the command as FATAL', async () => {
    const agent = await connectAgent();
    expect((await submit({ requestId: 'stop-1', baseCommand: 'check' })).statusCode).toBe(200);
    await eventually(() => agent.commands().some((c) => c.type === 'realtimeCommand'));
    const sent = agent.commands().find((c) => c.type === 'realtimeCommand');
    if (sent?.type !== 'realtimeCommand') throw new Error('no command');
    const stopped = await provider.json('PUT', ROUTES.realtimeCommands.stop.build(ref), { commandId: 'stop-1' });
    expect(stopped.statusCode).toBe(200);
    await eventually(() => agent.commands().some((c) => c.type === 'stopRealtimeCommand'));
    expect(agent.commands().find((c) => c.type === 'stopRealtimeCommand')).toMatchObject({ commandId: sent.commandId });
    await agent.send({
      type: 'realtimeFinished',
      commandId: sent.commandId,
      exitCodeResult: 'CANCELLATION_REQUESTED',
      finishedAt: new Date().toISOString(),
    });
    await eventually(async () => (await list()).some((c) => c.exitCode === 'CANCELLATION_REQUESTED'));

    // A command the agent refuses (its reply carries the realtime request id) is finished with the reason.
    expect((await submit({ requestId: 'refused-1', baseCommand: 'version' })).statusCode).toBe(200);
    await eventually(() => agent.commands().filter((c) => c.type === 'realtimeCommand').length === 2);
    const second = agent.commands().filter((c) => c.type === 'realtimeCommand')[1];
    if (second?.type !== 'realtimeCommand') throw new Error('no command');
    await agent.send({ type: 'reply', requestId: second.requestId, success: false, messages: ['No repository yet.'] });
    await eventually(async () => (await list()).some((c) => c.commandId === 'refused-1' && c.exitCode === 'FATAL'));
    expect((await list()).find((c) => c.commandId === 'refused-1')?.commandOutput).toEqual(['No repository yet.']);
  });

  it('speaks to provider admins only: the machine’s own customer admin hears none of it', async () => {
    const agent = await connectAgent();
    const queue = await providerQueue();
    await provider.open('/');
    await customerAdmin.open('/');
    const cookie = sessionCookieOf(customerAdmin);
    expect(await upgradeStatus(`${base}${ROUTES.live.provider.build()}`, { cookie, origin: ORIGIN })).toBe(403);
    const customer = stompClient(`${base}${ROUTES.live.customer.build()}`, { headers: { cookie, origin: ORIGIN } });
    started.push(customer);
    expect(await customer.connected).toBe('connected');
    const own = customer.subscribe(machineQueue('customer', ref.machineId));
    expect(await customer.sendWithReceipt('SUBSCRIBE', machineQueue('customer', ref.machineId))).toBe(true);

    expect((await submit({ requestId: 'tenant-1', baseCommand: 'snapshots' })).statusCode).toBe(200);
    await eventually(() => agent.commands().some((c) => c.type === 'realtimeCommand'));
    const sent = agent.commands().find((c) => c.type === 'realtimeCommand');
    if (sent?.type !== 'realtimeCommand') throw new Error('no command');
    await agent.send({ type: 'realtimeOutput', commandId: sent.commandId, lines: ['secret-ish'] });
    await agent.send({
      type: 'realtimeFinished',
      commandId: sent.commandId,
      exitCodeResult: 'SUCCESS',
      finishedAt: new Date().toISOString(),
    });
    await eventually(() => queue.messages.length >= 2);
    // Published together: had the customer queue carried them, they would be there by now.
    expect(await customer.sendWithReceipt('SUBSCRIBE', machineQueue('customer', ref.machineId))).toBe(true);
    expect(own.messages).toEqual([]);
    // Nor may the customer admin subscribe to the provider's queue on its own endpoint.
    expect(await customer.sendWithReceipt('SUBSCRIBE', machineQueue('provider', ref.machineId))).toBe(false);
    expect(
      (await provider.json('PUT', ROUTES.realtimeCommands.remove.build(ref), { commandId: 'tenant-1' })).statusCode,
    ).toBe(200);
  });

  it('stop of an unknown command is 404', async () => {
    expect(
      (await provider.json('PUT', ROUTES.realtimeCommands.stop.build(ref), { commandId: 'nope' })).statusCode,
    ).toBe(404);
    expect((await provider.json('PUT', ROUTES.realtimeCommands.stop.build(ref), {})).statusCode).toBe(400);
  });
});

describe('realtime commands: the allow-list and provider machine control (issue 29)', () => {
  it('answers the issue’s command 400 on commandFlags, naming -r; nothing is stored or sent', async () => {
    const agent = await connectAgent();
    const response = await submit({
      requestId: 'rce-1',
      baseCommand: 'snapshots',
      commandArguments: [],
      commandFlags: ['-vr', 'sftp:x@127.0.0.1:/x', '-vo', 'sftp.command=/bin/sh -c id>proof'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().messages).toEqual([
      expect.objectContaining({
        fieldName: 'commandFlags',
        message: REALTIME_COMMAND_TEXTS.flagNotAllowed('-r', 'snapshots', '-vr'),
      }),
    ]);
    for (const [body, field] of [
      [{ commandFlags: ['-vp', '/etc/passwd'] }, 'commandFlags'],
      [{ commandFlags: ['--option=rclone.program=/bin/sh'] }, 'commandFlags'],
      [{ commandFlags: ['--cache-dir', '/tmp'] }, 'commandFlags'],
      [{ commandArguments: ['--password-command=sh'] }, 'commandArguments'],
    ] as const) {
      const refused = await submit({ requestId: 'rce-2', baseCommand: 'snapshots', ...body });
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().messages[0]).toMatchObject({ fieldName: field });
    }
    // The sync frame proves the channel is up: had a command been sent, it would be there by now.
    await agent.send({ type: 'reply', requestId: 'sync-2', success: true, messages: [] });
    expect(agent.commands()).toEqual([]);
    expect(await storedCommands(['rce-1', 'rce-2'])).toEqual([]);
  });

  it('refuses cat masterkey and cat key with 400 on commandArguments', async () => {
    for (const type of ['masterkey', 'key']) {
      const response = await submit({ requestId: `cat-${type}`, baseCommand: 'cat', commandArguments: [type, 'abc'] });
      expect(response.statusCode).toBe(400);
      expect(response.json().messages[0]).toEqual(
        expect.objectContaining({
          fieldName: 'commandArguments',
          message: REALTIME_COMMAND_TEXTS.catObjectType(type, REALTIME_CAT_OBJECT_TYPES),
        }),
      );
    }
    expect(await storedCommands(['cat-masterkey', 'cat-key'])).toEqual([]);
  });

  it('without provider machine control: submit, list, stop and delete are 403 and nothing is stored or sent', async () => {
    const agent = await connectAgent();
    // One command run while control was allowed, to stop and delete once it is not.
    expect((await submit({ requestId: 'ctl-1', baseCommand: 'check' })).statusCode).toBe(200);
    await eventually(() => agent.commands().some((c) => c.type === 'realtimeCommand'));
    await allowProviderControl(false);
    try {
      const refused = await submit({ requestId: 'ctl-2', baseCommand: 'snapshots' });
      expect(refused.statusCode).toBe(403);
      expect((await provider.json('GET', ROUTES.realtimeCommands.list.build(ref))).statusCode).toBe(403);
      for (const action of [ROUTES.realtimeCommands.stop, ROUTES.realtimeCommands.remove]) {
        const response = await provider.json('PUT', action.build(ref), { commandId: 'ctl-1' });
        expect(response.statusCode).toBe(403);
      }
      await agent.send({ type: 'reply', requestId: 'sync-3', success: true, messages: [] });
      expect(agent.commands().map((c) => c.type)).toEqual(['realtimeCommand']);
      expect((await storedCommands(['ctl-1', 'ctl-2'])).map((c) => [c.commandId, c.resultCode])).toEqual([
        ['ctl-1', null],
      ]);
    } finally {
      await allowProviderControl(true);
    }
    // Allowed again: stop reaches the agent, and the finished command can be deleted.
    const stopped = await provider.json('PUT', ROUTES.realtimeCommands.stop.build(ref), { commandId: 'ctl-1' });
    expect(stopped.statusCode).toBe(200);
    await eventually(() => agent.commands().some((c) => c.type === 'stopRealtimeCommand'));
    const sent = agent.commands().find((c) => c.type === 'realtimeCommand');
    if (sent?.type !== 'realtimeCommand') throw new Error('no command');
    await agent.send({
      type: 'realtimeFinished',
      commandId: sent.commandId,
      exitCodeResult: 'CANCELLATION_REQUESTED',
      finishedAt: new Date().toISOString(),
    });
    await eventually(async () => (await list()).some((c) => c.commandId === 'ctl-1' && c.exitCode !== null));
    const removed = await provider.json('PUT', ROUTES.realtimeCommands.remove.build(ref), { commandId: 'ctl-1' });
    expect(removed.statusCode).toBe(200);
    expect(await storedCommands(['ctl-1'])).toEqual([]);
  });
});
