/**
 * A cPanel run's data (issue 14) through the app on the real database, with the real restic: the agent backs up
 * each hosting account as a snapshot of its own (done here with restic as the agent does it, tags and all) and
 * reports them all with the run; the run's tree, downloads and archive deletion span every account's snapshot.
 * A run reported by an older agent (one snapshot, no accounts) reads as that one snapshot.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type AgentToServer, agentToServerSchema, ROUTES, withQuery } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupSnapshots, runAccountSnapshots, taskActions } from '../../db/schema/index.js';
import { runFinished } from '../../testing/agent-events.js';
import { createTestApp, repositoryPasswordOf, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInAs } from '../../testing/envelope.js';
import { createTenants } from '../../testing/fixtures.js';
import { useTempDir } from '../../testing/suite.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { type AgentEventService, createAgentEventService } from '../agent-events/service.js';
import { createBackupStateService } from '../backup-state/service.js';
import { eventually } from '../live/testing.js';
import { repositoryDir } from '../local-storage/paths.js';

const tmp = useTempDir('panel');
let t: TestApp;
let root = '';
let repo = '';
let password = '';
let owner: TestClient;
let events: AgentEventService;
let machine = { id: 0, customerId: 0, backupPackageId: 0 };
let taskId = 0;
/** The panel run (every account reported) and a run an older agent reported (its first account's only). */
let panelRun = { machineId: 0, taskId: 0, runId: 0 };
let olderRun = { machineId: 0, taskId: 0, runId: 0 };
const made: Record<string, string> = {};

function restic(args: string[]): string {
  return execFileSync('restic', ['--no-cache', ...args], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: password },
    encoding: 'utf8',
  });
}
const snapshotIds = () => (JSON.parse(restic(['snapshots', '--json'])) as Array<{ id: string }>).map((s) => s.id);

function write(path: string, content: string | Buffer) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** One account's backup as the agent makes it: its paths, tagged with the task and the account. */
function backUpAccount(account: string, paths: string[]): string {
  const before = new Set(snapshotIds());
  restic(['backup', '--tag', `task-${taskId},account-${account}`, ...paths.map((p) => join(root, p))]);
  const id = snapshotIds().find((s) => !before.has(s));
  if (!id) throw new Error(`no snapshot of ${account}`);
  return id;
}

/** A run as the agent reports it: started, then finished with its snapshot(s). */
async function reportRun(
  runKey: string,
  finished: Pick<Extract<AgentToServer, { type: 'runFinished' }>, 'snapshotId' | 'accountSnapshots'>,
): Promise<{ machineId: number; taskId: number; runId: number }> {
  const startedAt = t.clock.now.toISOString();
  const started = agentToServerSchema.parse({ type: 'runStarted', runKey, taskId, startedAt, manual: true });
  await events.handle(machine, started);
  const body = runFinished(runKey, { finishedAt: t.clock.now.toISOString(), bytesTotal: 100, ...finished });
  await events.handle(machine, agentToServerSchema.parse(body));
  const [run] = await t.database.db
    .select({ id: taskActions.id })
    .from(taskActions)
    .where(eq(taskActions.runKey, runKey));
  if (!run) throw new Error(`run ${runKey} not recorded`);
  return { machineId: machine.id, taskId, runId: run.id };
}

const tree = async (run: typeof panelRun, path: string) => {
  const response = await owner.json('GET', withQuery(ROUTES.restore.snapshotTree.build(run), { path }));
  expect(response.statusCode).toBe(200);
  return response.json().result.elements as Array<{ path: string; name: string; type: string }>;
};

/** Initiates a download of the run and redeems it with the form POST, answering the unzipped folder. */
async function download(run: typeof panelRun, body: unknown): Promise<string> {
  const initiated = await owner.json('POST', ROUTES.restore.initiateDownload.build(run), body);
  expect(initiated.statusCode).toBe(200);
  const response = await owner.request({
    method: 'POST',
    url: ROUTES.restore.download.build({ ...run, download: initiated.json().result.downloadId }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: new URLSearchParams({ _csrf: owner.csrf }).toString(),
  });
  expect(response.statusCode).toBe(200);
  const dir = mkdtempSync(join(tmp, 'zip-'));
  writeFileSync(join(dir, 'download.zip'), response.rawPayload);
  execFileSync('unzip', ['-q', '-t', join(dir, 'download.zip')]);
  execFileSync('unzip', ['-q', join(dir, 'download.zip'), '-d', join(dir, 'out')]);
  return join(dir, 'out');
}
const filesIn = (dir: string) =>
  execFileSync('find', ['.', '-type', 'f'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').sort();
/** Where a file of the panel's root is in the zip: under its account's folder, at its full path. */
const inZip = (account: string, path: string) => `./${account}${join(root, path)}`;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: join(tmp, 'data') });
  const tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const backupState = createBackupStateService({ db: t.database.db });
  const packageId = await fixtures.package(tenants.customerA.customerId);
  const machineId = await fixtures.machine(packageId);
  machine = { id: machineId, customerId: tenants.customerA.customerId, backupPackageId: packageId };
  taskId = (await backupState.createTask({ ...fixtures.task(machineId, { name: 'Hosting' }), type: 'CPANEL' })) ?? 0;
  events = createAgentEventService({ repo: createAgentEventsRepo(t.database.db), backupState, now: () => t.clock.now });

  password = (await repositoryPasswordOf(t, machineId)) ?? '';
  repo = repositoryDir(t.config.dataDir, null, machineId);
  mkdirSync(join(repo, '..'), { recursive: true });
  restic(['init']);

  root = join(tmp, 'server');
  write('var/cpanel/users/ana', 'USER=ana\n');
  write('home/ana/public_html/index.html', '<h1>Ana</h1>\n');
  write('home/ana/big.bin', randomBytes(300_000));
  write('var/cpanel/users/bob', 'USER=bob\n');
  write('home/bob/mail/inbox', 'hello bob\n');
  made.ana = backUpAccount('ana', ['home/ana', 'var/cpanel/users/ana']);
  made.bob = backUpAccount('bob', ['home/bob', 'var/cpanel/users/bob']);
  panelRun = await reportRun('panel-1', {
    snapshotId: made.ana,
    accountSnapshots: [
      { account: 'ana', snapshotId: made.ana },
      { account: 'bob', snapshotId: made.bob },
    ],
  });
  made.older = backUpAccount('ana', ['home/ana', 'var/cpanel/users/ana']);
  olderRun = await reportRun('older-1', { snapshotId: made.older });

  owner = await signedInAs(t.app, tenants.customerA.superAdmin.email);
}, 180_000);

afterAll(() => t?.close());

describe("a panel run's snapshots", () => {
  it('are kept with the run: one run and one archive, each account’s snapshot under the run’s own', async () => {
    const [run] = await t.database.db.select().from(taskActions).where(eq(taskActions.id, panelRun.runId));
    expect(run).toMatchObject({ resticSnapshotId: made.ana, bytesTotal: 100, snapshotsAvailable: true });
    const archives = await t.database.db.select().from(backupSnapshots).where(eq(backupSnapshots.backupTaskId, taskId));
    expect(archives.map((a) => a.resticSnapshotId)).toEqual([made.ana]);
    const accounts = await t.database.db
      .select()
      .from(runAccountSnapshots)
      .where(eq(runAccountSnapshots.backupTaskId, taskId));
    expect(accounts.map((a) => [a.runSnapshotId, a.account, a.resticSnapshotId]).sort()).toEqual([
      [made.ana, 'ana', made.ana],
      [made.ana, 'bob', made.bob],
    ]);
  });

  it('show each account as a top-level folder holding its own snapshot', async () => {
    expect(await tree(panelRun, '/')).toEqual([
      { path: '/ana', name: 'ana', type: 'DIRECTORY', size: 0 },
      { path: '/bob', name: 'bob', type: 'DIRECTORY', size: 0 },
    ]);
    const top = (await tree(panelRun, '/bob'))[0];
    expect(top).toMatchObject({ path: `/bob/${root.split('/')[1]}`, type: 'DIRECTORY' });
    expect(await tree(panelRun, `/ana${join(root, 'home/ana/public_html')}`)).toEqual([
      { path: `/ana${join(root, 'home/ana/public_html/index.html')}`, name: 'index.html', type: 'FILE', size: 13 },
    ]);
    expect(await tree(panelRun, `/bob${join(root, 'home')}`)).toEqual([
      { path: `/bob${join(root, 'home/bob')}`, name: 'bob', type: 'DIRECTORY', size: 0 },
    ]);
    expect(await tree(panelRun, '/carl')).toEqual([]);
  });

  it('download as one zip with every account’s files under its folder, byte for byte', async () => {
    const out = await download(panelRun, { downloadAllItems: true });
    expect(filesIn(out)).toEqual(
      [
        inZip('ana', 'home/ana/big.bin'),
        inZip('ana', 'home/ana/public_html/index.html'),
        inZip('ana', 'var/cpanel/users/ana'),
        inZip('bob', 'home/bob/mail/inbox'),
        inZip('bob', 'var/cpanel/users/bob'),
      ].sort(),
    );
    for (const [account, path] of [
      ['ana', 'home/ana/big.bin'],
      ['ana', 'home/ana/public_html/index.html'],
      ['bob', 'home/bob/mail/inbox'],
    ] as const) {
      expect(readFileSync(join(out, inZip(account, path))).equals(readFileSync(join(root, path)))).toBe(true);
    }
  });

  it('download chosen items of both accounts from their own snapshots; an item of no account is refused', async () => {
    const out = await download(panelRun, {
      backedUpItemsToDownload: [
        { path: `/ana${join(root, 'home/ana/big.bin')}`, name: 'big.bin', type: 'FILE' },
        { path: '/bob', name: 'bob', type: 'DIRECTORY' },
      ],
    });
    expect(filesIn(out)).toEqual(
      [
        inZip('ana', 'home/ana/big.bin'),
        inZip('bob', 'home/bob/mail/inbox'),
        inZip('bob', 'var/cpanel/users/bob'),
      ].sort(),
    );
    const big = readFileSync(join(out, inZip('ana', 'home/ana/big.bin')));
    expect(big.equals(readFileSync(join(root, 'home/ana/big.bin')))).toBe(true);
    expect(readFileSync(join(out, inZip('bob', 'home/bob/mail/inbox')), 'utf8')).toBe('hello bob\n');
    const refused = await owner.json('POST', ROUTES.restore.initiateDownload.build(panelRun), {
      backedUpItemsToDownload: [{ path: '/carl/home', name: 'home', type: 'DIRECTORY' }],
    });
    expect(refused.statusCode).toBe(400);
  });

  it('of a run an older agent reported are its one snapshot, as before', async () => {
    const [run] = await t.database.db.select().from(taskActions).where(eq(taskActions.id, olderRun.runId));
    expect(run).toMatchObject({ resticSnapshotId: made.older, snapshotsAvailable: true });
    expect(await tree(olderRun, '/')).toEqual([
      { path: `/${root.split('/')[1]}`, name: root.split('/')[1], type: 'DIRECTORY', size: 0 },
    ]);
    const out = await download(olderRun, { downloadAllItems: true });
    expect(readFileSync(join(out, join(root, 'home/ana/public_html/index.html')), 'utf8')).toBe('<h1>Ana</h1>\n');
  });

  it('are all removed from the repository when the run’s archive is deleted', async () => {
    const [archive] = await t.database.db
      .select()
      .from(backupSnapshots)
      .where(eq(backupSnapshots.backupTaskId, taskId));
    const at = { machineId: panelRun.machineId, taskId, snapshotId: archive?.id ?? 0 };
    const path = withQuery(ROUTES.restore.deleteArchive.build(at), { archivedelete: true });
    expect((await owner.json('PUT', path)).statusCode).toBe(200);
    const row = async () =>
      (
        await t.database.db
          .select()
          .from(backupSnapshots)
          .where(eq(backupSnapshots.id, archive?.id ?? 0))
      )[0];
    await eventually(async () => (await row())?.storageStatus === 'DELETED', 60_000);
    const left = snapshotIds();
    expect(left).not.toContain(made.ana);
    expect(left).not.toContain(made.bob);
    expect(left).toContain(made.older);
    const [run] = await t.database.db.select().from(taskActions).where(eq(taskActions.id, panelRun.runId));
    expect(run?.snapshotsAvailable).toBe(false);
  }, 90_000);
});
