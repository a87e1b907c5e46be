/**
 * A run's backed-up data through the app on the real database, with the real restic on real files: the snapshot
 * tree, downloads (initiate, then the form POST streaming the zip), archive deletion.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createWriteStream, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DOWNLOAD_ID_LIFETIME_MS, MESSAGES, ROUTES, withQuery } from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cheapResticKeys } from '../../../../agent/src/restic-test-key.js';
import { backupSnapshots, customers, downloadIds, taskActions } from '../../db/schema/index.js';
import { createTestApp, repositoryPasswordOf, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { useTempDir } from '../../testing/suite.js';
import { createBackupStateService } from '../backup-state/service.js';
import { eventually, listenOnLoopback } from '../live/testing.js';
import { repositoryDir } from '../local-storage/paths.js';
import { createRestoreRepo } from './repo.js';
import { createRestoreService } from './service.js';

const TEXT = MESSAGES.restore;
const BIG_BYTES = 160 * 1024 * 1024;
let t: TestApp;
let tenants: Tenants;
const tmp = useTempDir('restore');
let src = '';
let repo = '';
let password = '';
let httpBase = '';
let run: { machineId: number; taskId: number; runId: number };
let snapshotRowId = 0;
let resticSnapshotId = '';
let taskName = '';
/** customerA's super admin (the machine's customer), its plain user, customerB's admin, the reseller, the provider. */
let owner: TestClient;
let otherTenant: TestClient;
let reseller: TestClient;
let provider: TestClient;

function restic(args: string[]): string {
  return execFileSync('restic', ['--no-cache', ...args], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: password },
    encoding: 'utf8',
  });
}
const snapshotIds = () => (JSON.parse(restic(['snapshots', '--json'])) as Array<{ id: string }>).map((s) => s.id);

const signedIn = (email: string) => signedInAs(t.app, email);

const initiate = (client: TestClient, body: unknown, at = run) =>
  client.json('POST', ROUTES.restore.initiateDownload.build(at), body);

/** The hidden form's POST (002 §7.6): urlencoded, with the CSRF field. */
const formPost = (client: TestClient, downloadId: string, csrf: string | null = client.csrf, at = run) =>
  client.request({
    method: 'POST',
    url: ROUTES.restore.download.build({ ...at, download: downloadId }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    payload: csrf === null ? '' : new URLSearchParams({ _csrf: csrf }).toString(),
  });
/** The same form POST with the client's session, reaching another server instance. */
const formPostVia = (app: FastifyInstance, client: TestClient, downloadId: string) =>
  app.inject({
    method: 'POST',
    url: ROUTES.restore.download.build({ ...run, download: downloadId }),
    headers: {
      cookie: client.cookieHeader(),
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
    },
    payload: new URLSearchParams({ _csrf: client.csrf }).toString(),
  });
/** A download of the one small file at the top of the backed-up folder. */
const topFile = () => ({
  downloadAllItems: false,
  backedUpItemsToDownload: [{ path: join(src, 'top.txt'), name: 'top.txt', type: 'FILE' }],
});

async function downloadIdFor(client: TestClient, body: unknown): Promise<string> {
  const response = await initiate(client, body);
  expect(response.statusCode).toBe(200);
  expect(response.json().messages[0].message).toBe(MESSAGES.task.downloadStarting);
  return response.json().result.downloadId as string;
}

/** Unpacks a zip file (checking every entry's CRC) and answers its folder. */
function unzipFile(file: string): string {
  const dir = mkdtempSync(join(tmp, 'unzipped-'));
  execFileSync('unzip', ['-q', '-t', file]);
  execFileSync('unzip', ['-q', file, '-d', join(dir, 'out')]);
  return join(dir, 'out');
}
function unzip(bytes: Buffer): string {
  const file = join(mkdtempSync(join(tmp, 'zip-')), 'download.zip');
  writeFileSync(file, bytes);
  return unzipFile(file);
}
const listed = (dir: string) =>
  execFileSync('find', ['.', '-type', 'f'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').sort();
const inZip = (path: string) => path.replace(/^\//, '');

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: join(tmp, 'data') });
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const backupState = createBackupStateService({ db: t.database.db });
  const packageId = await fixtures.package(tenants.customerA.customerId);
  const machineId = await fixtures.machine(packageId);
  taskName = 'Documents & more';
  const taskId = await backupState.createTask(fixtures.task(machineId, { name: taskName }));
  if (!taskId) throw new Error('task not created');

  password = (await repositoryPasswordOf(t, machineId)) ?? '';
  repo = repositoryDir(t.config.dataDir, null, machineId);
  mkdirSync(join(repo, '..'), { recursive: true });
  restic(['init']);
  cheapResticKeys(repo, password);
  src = join(tmp, 'src');
  mkdirSync(join(src, 'docs', 'sub'), { recursive: true });
  writeFileSync(join(src, 'docs', 'a.txt'), 'alpha\n');
  writeFileSync(join(src, 'docs', 'sub', 'b.bin'), randomBytes(300_000));
  // Enough entries that restic's tar comes in many chunks, its end blocks in a later one than its last file.
  mkdirSync(join(src, 'docs', 'sub', 'many'));
  for (let i = 0; i < 300; i += 1) writeFileSync(join(src, 'docs', 'sub', 'many', `f${i}.bin`), randomBytes(4096 + i));
  writeFileSync(join(src, 'top.txt'), 'top\n');
  writeFileSync(join(src, 'big.bin'), randomBytes(BIG_BYTES));
  restic(['backup', '--tag', `task-${taskId}`, src]);
  resticSnapshotId = snapshotIds()[0] ?? '';

  run = { machineId, taskId, runId: await fixtures.backupRun({ taskId, machineId }, resticSnapshotId) };
  const [snapshot] = await t.database.db
    .insert(backupSnapshots)
    .values({ backupTaskId: taskId, taskActionId: run.runId, resticSnapshotId, status: 'FINISHED_SUCCESS' })
    .returning({ id: backupSnapshots.id });
  snapshotRowId = snapshot?.id ?? 0;

  owner = await signedIn(tenants.customerA.superAdmin.email);
  otherTenant = await signedIn(tenants.customerB.admin.email);
  reseller = await signedIn(tenants.reseller.superAdmin.email);
  provider = await signedIn(tenants.providerAdmin.email);
  httpBase = (await listenOnLoopback(t.app)).replace(/^ws:/, 'http:');
}, 180_000);

afterAll(() => t?.close());

describe('the snapshot tree of a run', () => {
  it('lists a folder’s direct children lazily, folders first', async () => {
    const docs = join(src, 'docs');
    const response = await owner.json('GET', withQuery(ROUTES.restore.snapshotTree.build(run), { path: docs }));
    expect(response.statusCode).toBe(200);
    expect(response.json().result.elements).toEqual([
      { path: join(docs, 'sub'), name: 'sub', type: 'DIRECTORY', size: 0 },
      { path: join(docs, 'a.txt'), name: 'a.txt', type: 'FILE', size: 6 },
    ]);
    const top = await owner.json('GET', ROUTES.restore.snapshotTree.build(run));
    expect(top.json().result.elements).toEqual([{ path: '/tmp', name: 'tmp', type: 'DIRECTORY', size: 0 }]);
  });

  it('refuses a relative or dotted path, and another tenant finds nothing', async () => {
    for (const path of ['docs', '/tmp/../etc', '-h']) {
      const response = await owner.json('GET', withQuery(ROUTES.restore.snapshotTree.build(run), { path }));
      expect(response.statusCode).toBe(400);
    }
    expect((await otherTenant.json('GET', ROUTES.restore.snapshotTree.build(run))).statusCode).toBe(404);
  });
});

describe('downloads (002 §7.6)', () => {
  it("needs an item unless download-all is on: 'At least one item must be selected.'", async () => {
    const response = await initiate(owner, { downloadAllItems: false, backedUpItemsToDownload: [] });
    expect(response.statusCode).toBe(400);
    expect(response.json().messages[0]).toMatchObject({
      fieldName: 'backedUpItemsToDownload',
      message: MESSAGES.task.downloadItemsRequired,
    });
  });

  it('streams everything as restic dump zips it, with the original bytes', async () => {
    const downloadId = await downloadIdFor(owner, { downloadAllItems: true });
    // Over a real connection into a file: the zip is larger than the test should hold.
    const response = await fetch(`${httpBase}${ROUTES.restore.download.build({ ...run, download: downloadId })}`, {
      method: 'POST',
      headers: { cookie: owner.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: owner.csrf }).toString(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Documents_more-\d{4}-.*\.zip"; filename\*=UTF-8''Documents_more-\d{4}-.*\.zip$/,
    );
    const file = join(mkdtempSync(join(tmp, 'all-')), 'all.zip');
    if (!response.body) throw new Error('no body');
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
      createWriteStream(file),
    );
    const out = join(unzipFile(file), inZip(src));
    expect(listed(out)).toEqual(listed(src));
    for (const file of ['docs/a.txt', 'docs/sub/b.bin', 'docs/sub/many/f299.bin', 'top.txt', 'big.bin']) {
      expect(readFileSync(join(out, file)).equals(readFileSync(join(src, file)))).toBe(true);
    }
  }, 120_000);

  it('zips only the chosen items (a folder and a file), with the original bytes', async () => {
    const items = [
      { path: join(src, 'docs', 'sub'), name: 'sub', type: 'DIRECTORY' },
      { path: join(src, 'top.txt'), name: 'top.txt', type: 'FILE' },
    ];
    const downloadId = await downloadIdFor(owner, { downloadAllItems: false, backedUpItemsToDownload: items });
    const response = await formPost(owner, downloadId);
    expect(response.statusCode).toBe(200);
    const out = join(unzip(response.rawPayload), inZip(src));
    expect(listed(out)).toEqual(
      [...listed(join(src, 'docs', 'sub')).map((file) => file.replace(/^\.\//, './docs/sub/')), './top.txt'].sort(),
    );
    for (const file of ['docs/sub/b.bin', 'docs/sub/many/f0.bin', 'docs/sub/many/f299.bin', 'top.txt']) {
      expect(readFileSync(join(out, file)).equals(readFileSync(join(src, file)))).toBe(true);
    }
  });

  it('merges the zips of several chosen folders: restic’s entries once each, a folder chosen twice or inside another included', async () => {
    const docs = join(src, 'docs');
    const items = [
      { path: join(docs, 'sub', 'many'), name: 'many', type: 'DIRECTORY' },
      { path: join(docs, 'a.txt'), name: 'a.txt', type: 'FILE' },
      { path: docs, name: 'docs', type: 'DIRECTORY' },
      { path: join(docs, 'sub', 'many'), name: 'many', type: 'DIRECTORY' },
      { path: join(src, 'top.txt'), name: 'top.txt', type: 'FILE' },
    ];
    const downloadId = await downloadIdFor(owner, { downloadAllItems: false, backedUpItemsToDownload: items });
    const response = await formPost(owner, downloadId);
    expect(response.statusCode).toBe(200);
    const file = join(mkdtempSync(join(tmp, 'merged-')), 'merged.zip');
    writeFileSync(file, response.rawPayload);
    const names = (zip: string) =>
      JSON.parse(
        execFileSync('python3', [
          '-c',
          'import json, sys, zipfile; print(json.dumps([i.filename for i in zipfile.ZipFile(sys.argv[1]).infolist()]))',
          zip,
        ]).toString(),
      ) as string[];
    const resticZip = join(mkdtempSync(join(tmp, 'restic-')), 'docs.zip');
    const fd = openSync(resticZip, 'w');
    execFileSync('restic', ['--no-cache', 'dump', '-a', 'zip', resticSnapshotId, docs], {
      env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: password },
      stdio: ['ignore', fd, 'inherit'],
    });
    closeSync(fd);
    // restic's entries of the folder, each once: those inside the folder chosen first (not the folder's own,
    // which only its parent's zip has), then the chosen file, then the rest; the other file after.
    const own = names(resticZip);
    const many = `${inZip(docs)}/sub/many/`;
    const inMany = own.filter((name) => name.startsWith(many) && name !== many);
    expect(names(file)).toEqual([
      ...inMany,
      `${inZip(docs)}/a.txt`,
      ...own.filter((name) => !inMany.includes(name) && name !== `${inZip(docs)}/a.txt`),
      inZip(join(src, 'top.txt')),
    ]);
    const out = join(unzipFile(file), inZip(src));
    expect(listed(out)).toEqual([...listed(docs).map((name) => name.replace(/^\.\//, './docs/')), './top.txt'].sort());
    for (const name of ['docs/a.txt', 'docs/sub/b.bin', 'docs/sub/many/f0.bin', 'docs/sub/many/f299.bin', 'top.txt']) {
      expect(readFileSync(join(out, name)).equals(readFileSync(join(src, name)))).toBe(true);
    }
  });

  it('ends the zip short when a restic call fails: no central directory', async () => {
    const items = [
      { path: join(src, 'docs'), name: 'docs', type: 'DIRECTORY' },
      { path: join(src, 'missing'), name: 'missing', type: 'DIRECTORY' },
    ];
    const downloadId = await downloadIdFor(owner, { downloadAllItems: false, backedUpItemsToDownload: items });
    const response = await fetch(`${httpBase}${ROUTES.restore.download.build({ ...run, download: downloadId })}`, {
      method: 'POST',
      headers: { cookie: owner.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: owner.csrf }).toString(),
    });
    const received: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream)) {
          received.push(chunk);
        }
      })(),
    ).rejects.toThrow();
    const bytes = Buffer.concat(received);
    expect(bytes.includes(Buffer.from('PK\x05\x06'))).toBe(false);
  });

  it('zips one chosen folder with restic’s own zip: the same entries, under the same names, with the original bytes', async () => {
    const folder = join(src, 'docs', 'sub');
    const downloadId = await downloadIdFor(owner, {
      downloadAllItems: false,
      backedUpItemsToDownload: [{ path: folder, name: 'sub', type: 'DIRECTORY' }],
    });
    const response = await formPost(owner, downloadId);
    expect(response.statusCode).toBe(200);
    const out = join(unzip(response.rawPayload), inZip(src));
    expect(listed(out)).toEqual(listed(folder).map((file) => file.replace(/^\.\//, './docs/sub/')));
    for (const file of ['docs/sub/b.bin', 'docs/sub/many/f0.bin', 'docs/sub/many/f299.bin']) {
      expect(readFileSync(join(out, file)).equals(readFileSync(join(src, file)))).toBe(true);
    }
  });

  it('never holds a download in memory: the server’s memory stays far below the size streamed', async () => {
    for (const body of [
      { downloadAllItems: true },
      { backedUpItemsToDownload: [{ path: join(src, 'big.bin'), name: 'big.bin', type: 'FILE' }] },
    ]) {
      const downloadId = await downloadIdFor(owner, body);
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const response = await fetch(`${httpBase}${ROUTES.restore.download.build({ ...run, download: downloadId })}`, {
        method: 'POST',
        headers: { cookie: owner.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: owner.csrf }).toString(),
      });
      expect(response.status).toBe(200);
      let received = 0;
      const reader = response.body?.getReader();
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        received += chunk.value.length;
        // Read slowly at first: a server that buffered would run ahead and hold the rest.
        if (received < 4 * 1024 * 1024) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      clearInterval(sampler);
      expect(received).toBeGreaterThan(BIG_BYTES);
      expect(peak - before).toBeLessThan(BIG_BYTES / 2);
    }
  }, 180_000);

  it('refuses the form POST without its CSRF field, and a download id used twice or by another user', async () => {
    const downloadId = await downloadIdFor(owner, topFile());
    expect((await formPost(owner, downloadId, null)).statusCode).toBe(403);
    // The same user of the same customer, but not the one the id was issued to.
    const colleague = await signedIn(tenants.customerA.admin.email);
    expect((await formPost(colleague, downloadId)).statusCode).toBe(404);
    expect((await formPost(owner, downloadId, null)).statusCode).toBe(403);
    expect((await formPost(owner, downloadId)).statusCode).toBe(200);
    const again = await formPost(owner, downloadId);
    expect(again.statusCode).toBe(404);
    expect(again.json().messages[0].message).toBe(TEXT.downloadNotValid);
    expect((await formPost(owner, 'x'.repeat(32))).statusCode).toBe(404);
    // Another tenant's user with the id in hand.
    const stolen = await downloadIdFor(owner, topFile());
    expect((await formPost(otherTenant, stolen)).statusCode).toBe(404);
    // The id names one run: the same id on another run's path is not it.
    expect((await formPost(owner, stolen, owner.csrf, { ...run, runId: run.runId + 1 })).statusCode).toBe(404);
    expect((await formPost(owner, stolen)).statusCode).toBe(200);
  });

  it('streams an id once when its two POSTs arrive together', async () => {
    const downloadId = await downloadIdFor(owner, topFile());
    const answers = await Promise.all([formPost(owner, downloadId), formPost(owner, downloadId)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 404]);
  });

  it('keeps only a hash of the id, bound to the user, the run and the chosen items', async () => {
    const downloadId = await downloadIdFor(owner, topFile());
    const rows = await t.database.db.select().from(downloadIds);
    expect(JSON.stringify(rows)).not.toContain(downloadId);
    const row = rows.find((r) => r.idHash === createHash('sha256').update(downloadId).digest('hex'));
    expect(row).toMatchObject({
      userId: tenants.customerA.superAdmin.id,
      backupMachineId: run.machineId,
      backupTaskId: run.taskId,
      taskActionId: run.runId,
      request: topFile(),
    });
    expect((await formPost(owner, downloadId)).statusCode).toBe(200);
    expect(await t.database.db.select().from(downloadIds)).toEqual(rows.filter((r) => r !== row));
  });

  it('honours an id issued by one server instance on another on the same database', async () => {
    const second = await createTestApp({ DATA_DIR: t.config.dataDir }, { database: t.database });
    try {
      const downloadId = await downloadIdFor(owner, topFile());
      const response = await formPostVia(second.app, owner, downloadId);
      expect(response.statusCode).toBe(200);
      const out = join(unzip(response.rawPayload), inZip(src));
      expect(readFileSync(join(out, 'top.txt'), 'utf8')).toBe('top\n');
      // Redeemed there, so not here.
      expect((await formPost(owner, downloadId)).statusCode).toBe(404);
    } finally {
      await second.close();
    }
  });

  it('refuses an id once DOWNLOAD_ID_LIFETIME_MS has passed, and housekeeping removes it', async () => {
    const fresh = await downloadIdFor(owner, topFile());
    const expired = await downloadIdFor(owner, topFile());
    t.clock.advanceMinutes(DOWNLOAD_ID_LIFETIME_MS / 60_000 - 1);
    expect((await formPost(owner, fresh)).statusCode).toBe(200);
    t.clock.advanceMinutes(1);
    const late = await formPost(owner, expired);
    expect(late.statusCode).toBe(404);
    expect(late.json().messages[0].message).toBe(TEXT.downloadNotValid);
    const live = await downloadIdFor(owner, topFile());
    await createRestoreRepo(t.database.db).deleteExpiredDownloads(t.clock.now);
    const left = await t.database.db.select({ idHash: downloadIds.idHash }).from(downloadIds);
    expect(left).toEqual([{ idHash: createHash('sha256').update(live).digest('hex') }]);
  });

  it('is not found for another tenant; a reseller or the provider needs the customer’s machine control', async () => {
    expect((await initiate(otherTenant, { downloadAllItems: true })).statusCode).toBe(404);
    const customerA = tenants.customerA.customerId;
    const allow = (value: boolean) =>
      t.database.db.update(customers).set({ allowProviderMachineControl: value }).where(eq(customers.id, customerA));
    await allow(false);
    expect((await initiate(reseller, { downloadAllItems: true })).statusCode).toBe(403);
    expect((await initiate(provider, { downloadAllItems: true })).statusCode).toBe(403);
    await allow(true);
    expect((await initiate(reseller, { downloadAllItems: true })).statusCode).toBe(200);
    expect((await initiate(provider, { downloadAllItems: true })).statusCode).toBe(200);
    await allow(false);
  });
});

describe('snapshot archive deletion (002 §4.2, §7.5)', () => {
  const path = () =>
    withQuery(
      ROUTES.restore.deleteArchive.build({ machineId: run.machineId, taskId: run.taskId, snapshotId: snapshotRowId }),
      { archivedelete: true },
    );
  const row = async () =>
    (await t.database.db.select().from(backupSnapshots).where(eq(backupSnapshots.id, snapshotRowId)))[0];
  /** The restore service of a server started later, on the same database and storage. */
  const restartedRestoreService = (onError?: (error: unknown) => void) =>
    createRestoreService({
      repo: createRestoreRepo(t.database.db),
      storage: storageAccessFor(t.database.db, t.config.dataDir, t.config.masterKey ?? ''),
      repositoryPassword: (machineId) => repositoryPasswordOf(t, machineId),
      onError,
    });

  /**
   * A snapshot archive of the task left BEING_DELETED, as a stopped server leaves it, and its storage status once
   * a server started later has resumed the deletions. This file's app runs the same job every minute: when its run
   * falls on this moment, the two instances' restic processes meet at the repository's lock and the one refused
   * leaves the deletion to the other (or to the next minute), so the status is read once both are done.
   */
  const resumedDeletionOf = async (taskId: number, resticSnapshotId: string, onError?: (error: unknown) => void) => {
    const [left] = await t.database.db
      .insert(backupSnapshots)
      .values({ backupTaskId: taskId, resticSnapshotId, status: 'FINISHED_SUCCESS', storageStatus: 'BEING_DELETED' })
      .returning({ id: backupSnapshots.id });
    const restarted = restartedRestoreService(onError);
    await restarted.resumeDeletions();
    await restarted.idle();
    const status = async () => {
      const [after] = await t.database.db
        .select()
        .from(backupSnapshots)
        .where(eq(backupSnapshots.id, left?.id ?? 0));
      return after?.storageStatus;
    };
    await eventually(async () => (await status()) === 'DELETED', 75_000).catch(() => undefined);
    return status();
  };

  it('is not found for another tenant and needs ?archivedelete=true', async () => {
    expect((await otherTenant.json('PUT', path())).statusCode).toBe(404);
    const plain = ROUTES.restore.deleteArchive.build({ ...run, snapshotId: snapshotRowId });
    expect((await owner.json('PUT', plain)).statusCode).toBe(400);
    expect((await row())?.storageStatus).toBe('AVAILABLE');
  });

  it('marks the archive BEING_DELETED, removes the snapshot from the repository, then DELETED; again changes nothing', async () => {
    const response = await owner.json('PUT', path());
    expect(response.statusCode).toBe(200);
    expect(response.json().messages[0].message).toBe(MESSAGES.task.archiveBeingDeleted);
    expect(['BEING_DELETED', 'DELETED']).toContain((await row())?.storageStatus);
    await eventually(async () => (await row())?.storageStatus === 'DELETED', 60_000);
    expect(snapshotIds()).not.toContain(resticSnapshotId);
    const [action] = await t.database.db.select().from(taskActions).where(eq(taskActions.id, run.runId));
    expect(action?.snapshotsAvailable).toBe(false);
    const again = await owner.json('PUT', path());
    expect(again.statusCode).toBe(200);
    expect((await row())?.storageStatus).toBe('DELETED');
    // Nothing to download from that run any more.
    expect((await initiate(owner, { downloadAllItems: true })).statusCode).toBe(409);
  }, 90_000);

  it('is taken up again by a server started later (left BEING_DELETED by a stop)', async () => {
    restic(['backup', '--tag', `task-${run.taskId}`, join(src, 'top.txt')]);
    const second = snapshotIds().find((id) => id !== resticSnapshotId) ?? '';
    expect(await resumedDeletionOf(run.taskId, second)).toBe('DELETED');
    expect(snapshotIds()).not.toContain(second);
  }, 150_000);

  it('finishes as DELETED when the machine never stored a repository (the demo’s recorded history)', async () => {
    const fixtures = backupFixtures(t.database.db);
    const backupState = createBackupStateService({ db: t.database.db });
    const machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
    const taskId = await backupState.createTask(fixtures.task(machineId, { name: 'Never backed up' }));
    const errors: unknown[] = [];
    const storageStatus = await resumedDeletionOf(taskId ?? 0, 'f'.repeat(64), (error) => errors.push(error));
    expect(errors).toEqual([]);
    expect(storageStatus).toBe('DELETED');
  }, 90_000);
});
