/**
 * End to end: the real portal server (PGlite, embedded restic REST storage under DATA_DIR), the real agent
 * CLI as child processes and the real /usr/bin/restic. A signed-in browser creates and starts a task over
 * the live channel; the backup must land in the repository and be recorded by the portal.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineQueue, newTaskForm, ROUTES, type TaskForm, withQuery } from '@portal/domain';
import type { IMessage } from '@stomp/stompjs';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/src/db/client.js';
import { backupMachines, backupTasks, taskActions, userBackupPackages } from '../../server/src/db/schema/index.js';
import { stompClient, type TestStomp } from '../../server/src/features/live/testing.js';
import { SESSION_COOKIE } from '../../server/src/http/request-context.js';
import { createTestApp, type TestApp } from '../../server/src/testing/app.js';
import { backupFixtures } from '../../server/src/testing/backup-fixtures.js';
import { TestClient } from '../../server/src/testing/client.js';
import { openTestDatabase } from '../../server/src/testing/database.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../server/src/testing/fixtures.js';
import type { AgentConfig } from './config.js';

const RESTIC = '/usr/bin/restic';
const ROOT = join(import.meta.dirname, '../../..');
const MAIN = join(import.meta.dirname, 'main.ts');
const WAIT_MS = 60_000;

let t: TestApp | undefined;
/** The portal's database, kept apart from the app so the portal can restart on it. */
let database: Database | undefined;
let port = 0;
let tenants: Tenants;
let dir: string;
let dataDir: string;
let base: string;
let configPath: string;
let config: AgentConfig;
let browser: TestStomp | undefined;
let queue: { messages: IMessage[] };

/** Every agent process started, so that each one is stopped whatever happens. */
const agents = new Set<ChildProcess>();
const agentLogs: string[] = [];
// Should the test process itself go away, its agents (detached process groups) must not outlive it.
process.once('exit', () => {
  for (const child of agents) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `node --import tsx main.ts …`, in its own process group (restic, its child, is killed with it). */
function startAgent(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, PORTAL_AGENT_CONFIG: '' },
  });
  agents.add(child);
  const log = (chunk: Buffer) => agentLogs.push(chunk.toString('utf8'));
  child.stdout?.on('data', log);
  child.stderr?.on('data', log);
  child.on('exit', () => agents.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Kills the agent's whole process group (agent and restic). */
async function killAgent(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
  await done;
}

async function stopAllAgents(): Promise<void> {
  await Promise.all([...agents].map((child) => killAgent(child, 'SIGKILL')));
}

async function cli(args: string[], input: string): Promise<{ code: number | null; output: string }> {
  const child = startAgent(args);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString('utf8');
  });
  child.stdin?.end(input);
  return { code: await exited(child), output };
}

async function eventually<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = WAIT_MS) {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out waiting for ${what}; agent log:\n${agentLogs.join('').slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function restic(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      RESTIC,
      args,
      { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The machine's repository as the agent uses it: the REST URL with its credential, the portal's password. */
function repositoryEnv(): Record<string, string> {
  const settings = JSON.parse(readFileSync(join(config.stateDir, 'repository.json'), 'utf8')) as {
    repository: string;
    password: string;
  };
  const url = new URL(base);
  const repository = `rest:${url.protocol}//${config.machineId}:${encodeURIComponent(config.token)}@${url.host}/restic/${config.machineId}/`;
  expect(settings.repository).toBe(`rest:${base}/restic/${config.machineId}/`);
  return { RESTIC_REPOSITORY: repository, RESTIC_PASSWORD: settings.password };
}

const db = () => {
  if (!t) throw new Error('no app');
  return t.database.db;
};

const runsOf = (taskId: number) => db().select().from(taskActions).where(eq(taskActions.backupTaskId, taskId));
const taskRow = async (taskId: number) => (await db().select().from(backupTasks).where(eq(backupTasks.id, taskId)))[0];

/** The reply on the browser's machine queue to a request, with its parsed payload. */
async function replyTo(requestId: string): Promise<{ success: boolean; messages: Array<{ message: string }> }> {
  const message = await eventually(`the reply to ${requestId}`, async () =>
    queue.messages.find((m) => (JSON.parse(m.body) as { requestId?: unknown }).requestId === requestId),
  );
  const body = JSON.parse(message.body) as { requestId: string; responsePayloadJson: string };
  return JSON.parse(body.responsePayloadJson);
}

async function send(command: string, body: unknown): Promise<void> {
  if (!browser) throw new Error('no browser');
  const sent = await browser.sendWithReceipt(
    'SEND',
    `/ws/inbound/backupmachines/${config.machineId}/${command}`,
    JSON.stringify(body),
  );
  expect(sent, `${command} was not accepted`).toBe(true);
}

/** Creates a task over the live channel as the browser does and returns its id. */
async function newTask(name: string, folder: string, overrides: Partial<TaskForm> = {}): Promise<number> {
  const requestId = `new-${randomUUID()}`;
  await send('newtask', {
    ...newTaskForm(requestId),
    name,
    backupScheduleDefinition: '0 2 * * *',
    backupItems: [{ path: folder, name, type: 'DIRECTORY', missing: false }],
    ...overrides,
  });
  const reply = await replyTo(requestId);
  expect(reply.success, JSON.stringify(reply)).toBe(true);
  const [task] = await db()
    .select({ id: backupTasks.id })
    .from(backupTasks)
    .where(and(eq(backupTasks.backupMachineId, config.machineId), eq(backupTasks.name, name)));
  if (!task) throw new Error(`task ${name} not stored`);
  // The agent must hold the new task before it can be started.
  await eventually(`the agent to hold task ${task.id}`, async () => {
    try {
      const stored = JSON.parse(readFileSync(join(config.stateDir, 'tasks.json'), 'utf8')) as {
        tasks: Array<{ id: number }>;
      };
      return stored.tasks.some((x) => x.id === task.id);
    } catch {
      return false;
    }
  });
  return task.id;
}

async function startTask(taskId: number): Promise<void> {
  const requestId = `start-${randomUUID()}`;
  await send('starttask', { requestId, backupTaskId: taskId });
  const reply = await replyTo(requestId);
  expect(reply.success, JSON.stringify(reply)).toBe(true);
}

function writeFiles(folder: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
}

async function waitOnline(): Promise<void> {
  await eventually('the agent to connect and receive its repository', async () => {
    const [row] = await db()
      .select({ online: backupMachines.online })
      .from(backupMachines)
      .where(eq(backupMachines.id, config.machineId));
    try {
      readFileSync(join(config.stateDir, 'repository.json'));
    } catch {
      return false;
    }
    return row?.online === true;
  });
}

/** The portal on its fixed port, data dir and database (started again by the restart test). */
async function startPortal(): Promise<TestApp> {
  const app = await createTestApp({ DATA_DIR: dataDir, PUBLIC_URL: base }, { database });
  await app.app.listen({ port, host: '127.0.0.1' });
  return app;
}

/** The browser of the machine's user, signed in, watching the machine's queue. */
async function connectBrowser(): Promise<void> {
  if (!t) throw new Error('no app');
  await browser?.stop();
  const client = new TestClient(t.app);
  await client.signIn(tenants.customerA.user.email, FIXTURE_PASSWORD);
  browser = stompClient(`${base.replace('http', 'ws')}${ROUTES.live.customer.build()}`, {
    headers: { cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}`, origin: base },
  });
  expect(await browser.connected).toBe('connected');
  queue = browser.subscribe(machineQueue('customer', config.machineId));
  // A receipt for a later subscription proves the first one is in place too (frames are handled in order).
  expect(await browser.sendWithReceipt('SUBSCRIBE', machineQueue('customer', config.machineId))).toBe(true);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-e2e-'));
  dataDir = join(dir, 'data');
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  database = await openTestDatabase();
  t = await startPortal();
  tenants = await createTenants(t.database.db);
  const packageId = await backupFixtures(t.database.db).package(tenants.customerA.customerId, { name: 'Office' });
  await t.database.db
    .insert(userBackupPackages)
    .values({ userId: tenants.customerA.user.id, backupPackageId: packageId });

  // link, as the user would on the machine
  configPath = join(dir, 'agent', 'config.json');
  const linked = await cli(
    [
      'link',
      '--server',
      base,
      '--email',
      tenants.customerA.user.email,
      '--password-stdin',
      '--name',
      'e2e-host',
      '--config',
      configPath,
    ],
    `${FIXTURE_PASSWORD}\n`,
  );
  expect(linked.code, linked.output).toBe(0);
  config = JSON.parse(readFileSync(configPath, 'utf8')) as AgentConfig;
  startAgent(['run', '--config', configPath]);
  await waitOnline();

  await connectBrowser();
}, 120_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') process.stderr.write(`agent log:\n${agentLogs.join('').slice(-8000)}\n`);
});

afterAll(async () => {
  await stopAllAgents();
  await browser?.stop();
  await t?.close();
  await database?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('a backup through the whole system', () => {
  it('creates and starts a task from the browser, backs up with restic and records the run', async () => {
    const folder = join(dir, 'documents');
    const files = {
      'report.txt': 'quarterly report\n',
      'notes/todo.md': '- back up everything\n',
      'photos/cat.bin': randomBytes(200_000),
    };
    writeFiles(folder, files);

    const taskId = await newTask('Documents', folder);
    await startTask(taskId);

    const run = await eventually('the run to finish', async () => {
      const runs = await runsOf(taskId);
      return runs.find((r) => r.status !== 'INITIATED' && r.status !== 'IN_PROGRESS');
    });
    expect(run).toMatchObject({ status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS', failureMessage: null });
    expect(run.resticSnapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(run.bytesTotal).toBeGreaterThanOrEqual(200_000);
    expect(await runsOf(taskId)).toHaveLength(1);
    expect(await taskRow(taskId)).toMatchObject({
      statusOfLastRun: 'FINISHED_SUCCESS',
      displayStatus: 'LAST_SUCCEEDED',
    });

    // The data is in the machine's repository under DATA_DIR …
    const snapshotsDir = join(dataDir, 'storage', 'default', String(config.machineId), 'snapshots');
    expect(readdirSync(snapshotsDir)).toEqual([run.resticSnapshotId]);
    // … and restic, through the portal's REST backend with the machine credential, restores it.
    const env = repositoryEnv();
    const snapshots = await restic(['--no-cache', 'snapshots', '--json'], env);
    expect(snapshots.code, snapshots.stderr).toBe(0);
    const list = JSON.parse(snapshots.stdout) as Array<{
      id: string;
      hostname: string;
      tags?: string[];
      paths: string[];
    }>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: run.resticSnapshotId, hostname: 'e2e-host', tags: [`task-${taskId}`] });
    expect(list[0]?.paths).toEqual([folder]);
    const target = join(dir, 'restored');
    const restored = await restic(['--no-cache', 'restore', run.resticSnapshotId ?? '', '--target', target], env);
    expect(restored.code, restored.stderr).toBe(0);
    for (const [name, content] of Object.entries(files)) {
      expect(readFileSync(join(target, folder, name)).equals(Buffer.from(content))).toBe(true);
    }
    // After the run the agent indexes the new snapshot's files in the background (its searches read the index).
    const indexes = join(config.stateDir, 'file-index');
    await eventually('the snapshot’s file index', async () =>
      existsSync(indexes)
        ? readdirSync(indexes).some((folder) => existsSync(join(indexes, folder, `${run.resticSnapshotId}.gz`)))
        : false,
    );
  });
});

describe('faults', () => {
  it('fails a run whose agent was killed, once, when the agent comes back; the task runs again', async () => {
    const folder = join(dir, 'large');
    writeFiles(folder, { 'a.bin': randomBytes(12 * 1024 * 1024), 'b.bin': randomBytes(12 * 1024 * 1024) });
    // 2 MB/s: the 24 MB take several seconds to upload.
    const taskId = await newTask('Large', folder, {
      uploadBandwidthUnlimited: false,
      uploadBandwidthLimit: 2,
      uploadBandwidthLimitUnit: 'MEGA_BYTES_PER_SECOND',
    });
    await startTask(taskId);
    const killed = await eventually('the run to transfer', async () => {
      const [run] = await runsOf(taskId);
      return run?.status === 'IN_PROGRESS' && run.phase === 'TRANSFERRING_FILES' ? run : undefined;
    });
    const [running] = [...agents];
    if (!running) throw new Error('no agent running');
    await killAgent(running, 'SIGKILL');
    expect((await runsOf(taskId))[0]?.status).toBe('IN_PROGRESS');

    startAgent(['run', '--config', configPath]);
    const failed = await eventually(
      'the killed run to be failed',
      async () => {
        const [run] = await runsOf(taskId);
        return run?.status === 'FAILED' ? run : undefined;
      },
      20_000,
    );
    expect(failed).toMatchObject({ id: killed.id, runKey: killed.runKey, exitCodeResult: 'IO_OR_INTERRUPT_EXCEPTION' });
    expect(failed.timeFinished).not.toBeNull();
    expect(await runsOf(taskId)).toHaveLength(1);
    expect(await taskRow(taskId)).toMatchObject({ statusOfLastRun: 'FAILED', displayStatus: 'LAST_FAILED' });

    // The task is no longer busy: it runs again, and the second run is recorded as a run of its own.
    await startTask(taskId);
    const second = await eventually('the second run to finish', async () => {
      const runs = await runsOf(taskId);
      return runs.find((r) => r.id !== killed.id && r.status !== 'INITIATED' && r.status !== 'IN_PROGRESS');
    });
    expect(second).toMatchObject({ status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS' });
    expect(second.runKey).not.toBe(killed.runKey);
    const runs = await runsOf(taskId);
    expect(runs).toHaveLength(2);
    expect(runs.find((r) => r.id === killed.id)?.status).toBe('FAILED');
    expect(await taskRow(taskId)).toMatchObject({
      statusOfLastRun: 'FINISHED_SUCCESS',
      displayStatus: 'LAST_SUCCEEDED',
    });
  }, 120_000);
});

describe('portal restart', () => {
  it('records the outcome of a run that was under way while the portal restarted, once; the agent reconnects', async () => {
    const folder = join(dir, 'restart');
    writeFiles(folder, { 'a.bin': randomBytes(10 * 1024 * 1024), 'b.bin': randomBytes(10 * 1024 * 1024) });
    const taskId = await newTask('Restart', folder, {
      uploadBandwidthUnlimited: false,
      uploadBandwidthLimit: 2,
      uploadBandwidthLimitUnit: 'MEGA_BYTES_PER_SECOND',
    });
    await startTask(taskId);
    // Bytes done, not the phase alone: restic 0.14 does not retry its first look at the repository (the
    // config file), so a portal gone before restic has opened the repository fails the run for a true reason.
    const running = await eventually('the run to transfer', async () => {
      const [run] = await runsOf(taskId);
      return run?.status === 'IN_PROGRESS' && run.phase === 'TRANSFERRING_FILES' && run.progressBytesDone > 0
        ? run
        : undefined;
    });

    // The portal goes away mid-run (its storage too: restic retries) and comes back on the same database.
    await t?.close();
    t = undefined;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    t = await startPortal();

    const finished = await eventually('the run to be recorded as finished', async () => {
      const [run] = await runsOf(taskId);
      return run && run.status !== 'IN_PROGRESS' && run.status !== 'INITIATED' ? run : undefined;
    });
    // The failure message beside the status, so a failure says why.
    expect({ status: finished.status, failureMessage: finished.failureMessage }).toEqual({
      status: 'FINISHED_SUCCESS',
      failureMessage: null,
    });
    expect(finished).toMatchObject({ id: running.id, runKey: running.runKey });
    expect(finished.resticSnapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(await runsOf(taskId)).toHaveLength(1);
    expect(await taskRow(taskId)).toMatchObject({
      statusOfLastRun: 'FINISHED_SUCCESS',
      displayStatus: 'LAST_SUCCEEDED',
    });
    await waitOnline();
    // Commands reach the agent through the new portal.
    await connectBrowser();
    await startTask(taskId);
    await eventually('the run after the restart to finish', async () => {
      const runs = await runsOf(taskId);
      return runs.length === 2 && runs.every((r) => r.status === 'FINISHED_SUCCESS');
    });
  }, 180_000);
});

describe('log files through the whole system (issue #5)', () => {
  it('the provider asks for the log files; the agent uploads its own log, which then downloads from the portal', async () => {
    await waitOnline();
    const [machine] = await db()
      .select({ packageId: backupMachines.backupPackageId })
      .from(backupMachines)
      .where(eq(backupMachines.id, config.machineId));
    if (!machine || !t) throw new Error('no machine');
    const ref = { customerId: tenants.customerA.customerId, packageId: machine.packageId, machineId: config.machineId };
    const provider = new TestClient(t.app);
    await provider.signIn(tenants.providerAdmin.email, FIXTURE_PASSWORD);

    const asked = await provider.json(
      'POST',
      withQuery(ROUTES.machineCommands.uploadLogFiles.build(ref), { uploadupdaterfiles: false }),
    );
    expect(asked.statusCode, asked.body).toBe(200);
    const listed = await eventually('the agent’s log file at the portal', async () => {
      const files = (await provider.json('GET', ROUTES.machineCommands.logFiles.build(ref))).json().result as Array<{
        fileName: string;
      }>;
      return files.some((f) => f.fileName === 'agent.log') ? files : undefined;
    });
    expect(listed.map((f) => f.fileName)).toEqual(['agent.log']);

    const download = await provider.request({
      method: 'GET',
      url: withQuery(ROUTES.machineCommands.logFiles.build(ref), { filename: 'agent.log' }),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="agent\.log"/);
    expect(download.body).toContain(`connected to ${base} as machine ${config.machineId}`);
    expect(download.body).toContain('uploading the log files');
    expect(download.body).not.toContain(config.token);
    // What the portal holds is the agent's file as it was at the upload.
    const onDisk = readFileSync(join(config.stateDir, 'logs', 'agent.log'), 'utf8');
    expect(onDisk.startsWith(download.body)).toBe(true);
  });
});

describe('unlink (issue #5)', () => {
  it('gives up the credential: the running agent is cut off, the config file is gone, and a retry is harmless', async () => {
    await waitOnline();
    const unlinked = await cli(['unlink', '--config', configPath], '');
    expect(unlinked.code, unlinked.output).toBe(0);
    expect(unlinked.output).toContain(`Unlinked: machine ${config.machineId}`);
    expect(existsSync(configPath)).toBe(false);
    const [machine] = await db()
      .select({ credentialHash: backupMachines.credentialHash, revokedAt: backupMachines.credentialRevokedAt })
      .from(backupMachines)
      .where(eq(backupMachines.id, config.machineId));
    expect(machine).toMatchObject({ credentialHash: null });
    expect(machine?.revokedAt).not.toBeNull();
    await eventually(
      'the machine to go offline',
      async () => {
        const [row] = await db()
          .select({ online: backupMachines.online })
          .from(backupMachines)
          .where(eq(backupMachines.id, config.machineId));
        return row?.online === false;
      },
      10_000,
    );

    // The answer lost, the user tries again with the old file: the portal no longer knows it, which is done too.
    writeFileSync(configPath, JSON.stringify(config), { mode: 0o600 });
    const again = await cli(['unlink', '--config', configPath], '');
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('no longer knew this credential');
  });
});
