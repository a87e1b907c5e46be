/**
 * The run loop against the real server's live channel (apps/server: createTestApp + listen), with a machine and
 * credential made by the server's own fixtures (the link route is tested in link.test.ts and e2e.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type AgentToServer, INTERRUPTED_ACTION_MESSAGES, PANEL_MESSAGES, type ServerToAgent } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { logFiles } from '../../server/src/db/schema/index.js';
import { defaultLiveHandlers } from '../../server/src/features/live/channel.js';
import { createMachineCredentials } from '../../server/src/features/machine-auth/credentials.js';
import { createTestApp, type TestApp } from '../../server/src/testing/app.js';
import { backupFixtures } from '../../server/src/testing/backup-fixtures.js';
import { createTenants } from '../../server/src/testing/fixtures.js';
import { Agent, withMachineCredential } from './agent.js';
import { AgentChannel, channelUrl } from './channel.js';
import { readConnectionState, readStoredTasks } from './config.js';
import { AGENT_LOG_FILE, LogFile, logDirOf, uploadLogFiles } from './logs.js';
import { leaveStaleCheckLock, makeTask } from './testing.js';

let t: TestApp;
let base: string;
let machineId: number;
let token: string;
const events: AgentToServer[] = [];
const agents: Agent[] = [];
const dirs: string[] = [];
const logs: string[] = [];

async function eventually<T>(check: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function newAgent(
  options: { stateDir?: string; reconnectDelay?: (attempt: number) => number; panelRoot?: string } = {},
) {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'agent-run-'));
  dirs.push(stateDir);
  const agent = new Agent({
    config: { server: base, machineId, token, stateDir },
    name: 'test-machine',
    log: (text) => logs.push(text),
    reconnectDelay: options.reconnectDelay ?? (() => 100),
    resticCacheDir: null,
    ...(options.panelRoot ? { panelRoot: options.panelRoot } : {}),
  });
  agents.push(agent);
  return { agent, stateDir };
}

const send = (message: ServerToAgent) => t.app.live.sendToMachine(machineId, message);
const repliesTo = (requestId: string) =>
  events.find((e): e is Extract<AgentToServer, { type: 'reply' }> => e.type === 'reply' && e.requestId === requestId);

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      live: {
        handlers: {
          ...defaultLiveHandlers,
          async onAgentEvent(_machine, event) {
            events.push(event);
          },
        },
      },
    },
  );
  const tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  machineId = await fixtures.machine(pkg);
  const credential = await createMachineCredentials(t.database.db).issue(machineId);
  if (!credential) throw new Error('no credential');
  token = credential.token;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // Opening the database and hashing the fixtures' passwords takes over 10 s on a busy machine.
}, 60_000);

afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop(100)));
  events.length = 0;
});

afterAll(async () => {
  await t?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('agent run against the live channel', () => {
  it('says hello, holds and persists the tasks, answers commands, and records the connection', async () => {
    const { agent, stateDir } = newAgent();
    agent.start();
    const hello = await eventually(() => events.find((e) => e.type === 'hello'));
    expect(hello).toMatchObject({ name: 'test-machine', osFamily: 'LINUX', clientVersion: '0.1.0', taskVersions: {} });
    expect(t.app.live.hasLocalAgent(machineId)).toBe(true);
    expect(readConnectionState(stateDir)).toMatchObject({ connected: true, lastError: null });

    const task = makeTask({ id: 5, version: 3, scheduleCron: '0 3 * * *' });
    expect(await send({ type: 'tasks', tasks: [task], timeZone: 'Europe/Berlin' })).toBe(true);
    await eventually(() => agent.scheduler.nextRun(5));
    expect(readStoredTasks(stateDir)).toEqual({ tasks: [task], timeZone: 'Europe/Berlin' });

    // tree
    const tree = mkdtempSync(join(tmpdir(), 'agent-tree-'));
    dirs.push(tree);
    writeFileSync(join(tree, '.secret'), 'x');
    writeFileSync(join(tree, 'visible'), 'x');
    await send({
      type: 'treeItems',
      requestId: 'tree-1',
      path: tree,
      includeHidden: true,
      backupType: 'FILES_AND_FOLDERS',
    });
    const reply = await eventually(() => repliesTo('tree-1'));
    expect(reply.success).toBe(true);
    const items = (reply.payload as { treeItems: Array<{ text: string; hidden: boolean }> }).treeItems;
    expect(items.map((i) => [i.text, i.hidden])).toEqual([
      ['.secret', true],
      ['visible', false],
    ]);
    await send({
      type: 'treeItems',
      requestId: 'tree-2',
      path: join(tree, 'gone'),
      includeHidden: true,
      backupType: 'FILES_AND_FOLDERS',
    });
    const missing = await eventually(() => repliesTo('tree-2'));
    expect((missing.payload as { treeItems: Array<{ missing: boolean }> }).treeItems[0]?.missing).toBe(true);

    // run now without repository settings: started, then FAILED with a clear message
    await send({ type: 'startTask', requestId: 'start-1', taskId: 5 });
    const started = await eventually(() => repliesTo('start-1'));
    expect(started.success).toBe(true);
    const runKey = (started.payload as { runKey: string }).runKey;
    expect(runKey).toMatch(/^[0-9a-f-]{36}$/);
    const finished = await eventually(() => events.find((e) => e.type === 'runFinished' && e.runKey === runKey));
    expect(finished).toMatchObject({ status: 'FAILED', failureMessage: expect.stringContaining('repository') });
    expect(events.find((e) => e.type === 'runStarted')).toMatchObject({
      runKey,
      taskId: 5,
      manual: true,
      requestId: 'start-1',
    });

    await send({ type: 'startTask', requestId: 'start-2', taskId: 99 });
    expect(await eventually(() => repliesTo('start-2'))).toMatchObject({
      success: false,
      messages: [expect.stringContaining('not known')],
    });
    await send({ type: 'cancelRun', requestId: 'cancel-1', taskId: 5, runId: 1 });
    expect(await eventually(() => repliesTo('cancel-1'))).toMatchObject({ success: false });
    await send({ type: 'uploadLogFiles', requestId: 'logs-1', includeUpdaterLogs: false });
    expect(await eventually(() => repliesTo('logs-1'))).toMatchObject({
      success: true,
      messages: [],
      payload: { uploaded: ['agent.log'] },
    });
    await send({ type: 'refreshStorage', requestId: 'storage-1' });
    expect(await eventually(() => repliesTo('storage-1'))).toMatchObject({ success: false });
    expect(logs.join('\n')).not.toContain(token);
  });

  it("answers a cPanel task's tree with the accounts, a panel it does not have with a message, and backs accounts up (issue 14)", async () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-panel-root-'));
    dirs.push(root);
    for (const [path, content] of [
      ['var/cpanel/users/ana', 'USER=ana\n'],
      ['home/ana/public_html/index.html', 'ana\n'],
    ] as const) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const { agent } = newAgent({ panelRoot: root });
    agent.start();
    await eventually(() => events.find((e) => e.type === 'hello'));

    await send({ type: 'treeItems', requestId: 'panel-1', path: '', includeHidden: true, backupType: 'CPANEL' });
    const accounts = await eventually(() => repliesTo('panel-1'));
    expect(accounts.success).toBe(true);
    const items = (accounts.payload as { treeItems: Array<{ value: string; type: string }> }).treeItems;
    expect(items.map((i) => [i.value, i.type])).toEqual([['ana', 'CPANEL_ACCOUNT']]);
    await send({ type: 'treeItems', requestId: 'panel-2', path: '', includeHidden: true, backupType: 'DIRECT_ADMIN' });
    expect(await eventually(() => repliesTo('panel-2'))).toMatchObject({
      success: false,
      messages: [PANEL_MESSAGES.notInstalled('DIRECT_ADMIN', root)],
    });

    // A run of the task goes through the panel: one snapshot tagged with the account.
    const repo = join(root, 'repo');
    await send({ type: 'repository', settings: { repository: repo, password: 'panel-password' } });
    const task = makeTask({
      id: 8,
      type: 'CPANEL',
      backupItems: [{ path: 'ana', name: 'ana', type: 'CPANEL_ACCOUNT', missing: false }],
    });
    await send({ type: 'tasks', tasks: [task], timeZone: 'UTC' });
    await eventually(() => agent.scheduler.nextRun(8));
    await send({ type: 'startTask', requestId: 'panel-run', taskId: 8 });
    const runKey = ((await eventually(() => repliesTo('panel-run'))).payload as { runKey: string }).runKey;
    const finished = await eventually(
      () => events.find((e) => e.type === 'runFinished' && e.runKey === runKey),
      60_000,
    );
    expect(finished).toMatchObject({ status: 'FINISHED_SUCCESS' });
    const snapshots = JSON.parse(
      execFileSync('restic', ['--no-cache', 'snapshots', '--json'], {
        env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: 'panel-password' },
        encoding: 'utf8',
      }),
    ) as Array<{ tags: string[] }>;
    expect(snapshots.map((s) => s.tags)).toEqual([['task-8', 'account-ana']]);
  }, 90_000);

  it('measures the repository past a stale lock, and writes why a measurement failed to the message log', async () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-usage-'));
    dirs.push(root);
    const repo = join(root, 'repo');
    const env = { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: 'usage-password' };
    execFileSync('restic', ['--no-cache', 'init'], { env, stdio: 'ignore' });
    execFileSync('restic', ['--no-cache', 'backup', import.meta.dirname], { env, stdio: 'ignore' });
    // A check killed while it held its exclusive lock: a refresh must not wait for or fail on it.
    await leaveStaleCheckLock(repo, 'usage-password');
    const { agent } = newAgent();
    agent.start();
    await eventually(() => events.find((e) => e.type === 'hello'));
    await send({ type: 'repository', settings: { repository: repo, password: 'usage-password' } });
    await send({ type: 'refreshStorage', requestId: 'usage-1' });
    const measured = await eventually(() => repliesTo('usage-1'), 30_000);
    expect(measured.messages).toEqual([]);
    const stats = JSON.parse(
      execFileSync('restic', ['--no-cache', '--no-lock', 'stats', '--json', '--mode', 'raw-data'], {
        env,
        encoding: 'utf8',
      }),
    ) as { total_size: number };
    expect(stats.total_size).toBeGreaterThan(0);
    expect(measured).toMatchObject({ success: true, payload: { usedSpaceBytes: stats.total_size } });
    // The usage event follows the reply as its own frame: waited for, not assumed to have come with it.
    expect(await eventually(() => events.find((e) => e.type === 'usage'))).toEqual({
      type: 'usage',
      usedSpaceBytes: stats.total_size,
    });

    // The wrong password: the reply says why, and so does an ERROR in the machine's message log.
    await send({ type: 'repository', settings: { repository: repo, password: 'not-the-password' } });
    await send({ type: 'refreshStorage', requestId: 'usage-2' });
    const failed = await eventually(() => repliesTo('usage-2'), 30_000);
    expect(failed).toMatchObject({
      success: false,
      messages: [expect.stringMatching(/^The storage usage could not be read: .*password/)],
    });
    await eventually(() => events.some((e) => e.type === 'messages'));
    expect(events.filter((e) => e.type === 'messages')).toEqual([
      {
        type: 'messages',
        runKey: null,
        taskId: null,
        messages: [{ type: 'ERROR', text: failed.messages[0], time: expect.any(String) }],
      },
    ]);
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(1);
  }, 60_000);

  it('reconnects after the server closes, delivering what was queued offline in order after hello', async () => {
    const delays: number[] = [];
    const { agent } = newAgent({
      reconnectDelay: (attempt) => {
        delays.push(attempt);
        return 400;
      },
    });
    agent.start();
    await eventually(() => events.find((e) => e.type === 'hello'));
    events.length = 0;
    await t.app.live.disconnectMachine(machineId);
    await eventually(() => !agent.channel.connected);
    for (const n of [1, 2, 3]) agent.emit({ type: 'usage', usedSpaceBytes: n });
    expect(agent.outbox.pending().length).toBe(3);
    await eventually(() => events.filter((e) => e.type === 'usage').length === 3);
    expect(events.map((e) => (e.type === 'usage' ? e.usedSpaceBytes : e.type))).toEqual(['hello', 1, 2, 3]);
    expect(delays[0]).toBe(1);
    // The portal's receipt for the last event may still be on its way when the event is recorded.
    await eventually(() => agent.outbox.pending().length === 0);
  });

  it('reports a run its last process left unfinished as interrupted, and says in hello which runs it holds', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'agent-run-'));
    const at = '2026-11-23T10:00:00.000Z';
    const started = (runKey: string, actionType: 'BACKUP_RUN' | 'BACKUP_RESTORE' = 'BACKUP_RUN'): AgentToServer => ({
      type: 'runStarted',
      runKey,
      taskId: 7,
      startedAt: at,
      manual: false,
      actionType,
    });
    const finished: AgentToServer = {
      type: 'runFinished',
      runKey: 'finished-offline',
      status: 'FINISHED_SUCCESS',
      finishedAt: at,
      exitCodeResult: 'SUCCESS',
      failureMessage: null,
      snapshotId: 'a'.repeat(64),
      bytesAdded: 1,
      bytesTotal: 2,
    };
    // What a killed agent leaves: one run started and finished offline, a run and a restore cut off mid-way.
    const queued = [
      started('finished-offline'),
      finished,
      started('cut-off'),
      started('restore-cut-off', 'BACKUP_RESTORE'),
    ];
    writeFileSync(join(stateDir, 'outbox.jsonl'), `${queued.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const { agent } = newAgent({ stateDir });
    agent.start();
    const hello = await eventually(() => events.find((e) => e.type === 'hello'));
    expect(hello).toMatchObject({
      runningRunKeys: expect.arrayContaining(['finished-offline', 'cut-off', 'restore-cut-off']),
    });
    const interrupted = await eventually(() => events.find((e) => e.type === 'runFinished' && e.runKey === 'cut-off'));
    expect(interrupted).toMatchObject({
      status: 'FAILED',
      exitCodeResult: 'IO_OR_INTERRUPT_EXCEPTION',
      failureMessage: INTERRUPTED_ACTION_MESSAGES.backup,
      snapshotId: null,
    });
    const restoreEnd = await eventually(() =>
      events.find((e) => e.type === 'runFinished' && e.runKey === 'restore-cut-off'),
    );
    expect(restoreEnd).toMatchObject({ status: 'FAILED', failureMessage: INTERRUPTED_ACTION_MESSAGES.restore });
    // In order, after hello; the run that finished offline keeps its own outcome.
    await eventually(() => agent.outbox.pending().length === 0);
    expect(events.filter((e) => e.type !== 'hello').map((e) => [e.type, 'runKey' in e ? e.runKey : null])).toEqual([
      ['runStarted', 'finished-offline'],
      ['runFinished', 'finished-offline'],
      ['runStarted', 'cut-off'],
      ['runStarted', 'restore-cut-off'],
      ['runFinished', 'cut-off'],
      ['runFinished', 'restore-cut-off'],
    ]);
    expect(agent.accountedRunKeys()).toEqual([]);
  });

  it('keeps its schedule offline after a restart and backs off while the portal is unreachable', async () => {
    const { agent: first, stateDir } = newAgent();
    first.start();
    await eventually(() => events.find((e) => e.type === 'hello'));
    await send({ type: 'tasks', tasks: [makeTask({ id: 8, scheduleCron: '*/5 * * * *' })], timeZone: 'UTC' });
    await eventually(() => first.scheduler.nextRun(8));
    await first.stop(100);
    agents.splice(agents.indexOf(first), 1);

    // A port nothing listens on: the portal is unreachable.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const attempts: number[] = [];
    const offline = new Agent({
      config: { server: `http://127.0.0.1:${port}`, machineId, token, stateDir },
      log: (text) => logs.push(text),
      reconnectDelay: (attempt) => {
        attempts.push(attempt);
        return 20;
      },
    });
    agents.push(offline);
    offline.start();
    expect(offline.scheduler.nextRun(8)).not.toBeNull();
    await eventually(() => attempts.length >= 3);
    expect(attempts.slice(0, 3)).toEqual([1, 2, 3]);
    expect(readConnectionState(stateDir)).toMatchObject({
      connected: false,
      lastError: expect.stringMatching(/ECONNREFUSED/),
    });
    offline.emit({ type: 'usage', usedSpaceBytes: 9 });
    expect(JSON.parse(readFileSync(join(stateDir, 'outbox.jsonl'), 'utf8').trim().split('\n').at(-1) ?? '')).toEqual({
      type: 'usage',
      usedSpaceBytes: 9,
    });
  });
});

describe('log files (issue #5)', () => {
  it('keeps its own log in the state dir and uploads it, with updater logs only when asked', async () => {
    const { agent, stateDir } = newAgent();
    agent.start();
    await eventually(() => events.find((e) => e.type === 'hello'));
    const dir = logDirOf(stateDir);
    const own = readFileSync(join(dir, AGENT_LOG_FILE), 'utf8');
    expect(own).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT.* connected to ${base} as machine ${machineId}$`, 'm'));
    expect(own).not.toContain(token);
    expect(statSync(join(dir, AGENT_LOG_FILE)).mode & 0o777).toBe(0o600);
    writeFileSync(join(dir, 'updater-install.log'), 'updater says hi\n');
    writeFileSync(join(dir, 'notes.txt'), 'not a log\n');

    await send({ type: 'uploadLogFiles', requestId: 'logs-plain', includeUpdaterLogs: false });
    expect(await eventually(() => repliesTo('logs-plain'))).toMatchObject({
      success: true,
      payload: { uploaded: [AGENT_LOG_FILE] },
    });
    await send({ type: 'uploadLogFiles', requestId: 'logs-updater', includeUpdaterLogs: true });
    expect(await eventually(() => repliesTo('logs-updater'))).toMatchObject({
      success: true,
      payload: { uploaded: [AGENT_LOG_FILE, 'updater-install.log'] },
    });
    const stored = await t.database.db
      .select({ fileName: logFiles.fileName, content: logFiles.content })
      .from(logFiles)
      .where(eq(logFiles.backupMachineId, machineId));
    expect(stored.map((f) => f.fileName).sort()).toEqual([AGENT_LOG_FILE, 'updater-install.log']);
    const uploaded = stored.find((f) => f.fileName === AGENT_LOG_FILE)?.content ?? '';
    expect(uploaded).toContain(`connected to ${base} as machine ${machineId}`);
    expect(uploaded).toContain('uploading the log files (with updater logs)');
    expect(uploaded).not.toContain(token);
    expect(stored.find((f) => f.fileName === 'updater-install.log')?.content).toBe('updater says hi\n');
  });

  it('reports the portal’s refusal of an upload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-logs-'));
    dirs.push(dir);
    new LogFile(dir).write('a line');
    const refused = await uploadLogFiles({ server: base, machineId, token: 'wrong', dir, includeUpdaterLogs: false });
    expect(refused).toEqual({ uploaded: [], failures: [`${AGENT_LOG_FILE}: HTTP 401: Please sign in.`] });
    // A port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await uploadLogFiles({
      server: `http://127.0.0.1:${port}`,
      machineId,
      token,
      dir,
      includeUpdaterLogs: false,
    });
    expect(unreachable.failures).toEqual([`${AGENT_LOG_FILE}: ECONNREFUSED`]);
  });
});

describe('channel helpers', () => {
  it('derives the WebSocket URL and inserts the machine credential into a REST repository URL', () => {
    expect(channelUrl('https://portal.example.com')).toBe('wss://portal.example.com/ws/agent/connect');
    expect(channelUrl('http://10.0.0.1:8080/portal/')).toBe('ws://10.0.0.1:8080/portal/ws/agent/connect');
    expect(withMachineCredential('rest:https://store.example.com/restic/12/', 12, 'tok/en')).toBe(
      'rest:https://12:tok%2Fen@store.example.com/restic/12/',
    );
    expect(withMachineCredential('rest:http://a:b@host/x/', 12, 't')).toBe('rest:http://a:b@host/x/');
    expect(withMachineCredential('/srv/repo', 12, 't')).toBe('/srv/repo');
  });

  it('refuses to send while disconnected', async () => {
    const channel = new AgentChannel({
      server: 'http://127.0.0.1:9',
      machineId: 1,
      token: 'x',
      onConnected: () => {},
      onDisconnected: () => {},
      onMessage: () => {},
    });
    await expect(channel.send({ type: 'usage', usedSpaceBytes: 1 })).rejects.toThrow('not connected');
  });
});
