import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { RETENTION_MESSAGES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupMachines, buckets, storageLocations } from '../../db/schema/index.js';
import { createSecretBox } from '../../secrets.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { createTenants } from '../../testing/fixtures.js';
import { runRestic } from '../../testing/restic.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';
import { createRepositorySettings, withMachineCredential } from './repository-settings.js';

let t: TestApp;
let dataDir: string;
let base: string;
let bucketName: string;
let machineA: number;
let machineNoLocation: number;
let machineB: number;
let credA: MachineCredential;
let credNoLocation: MachineCredential;
let credB: MachineCredential;
let settings: ReturnType<typeof createRepositorySettings>;

const issued = async (machineId: number) => {
  const credential = await createMachineCredentials(t.database.db).issue(machineId);
  if (!credential) throw new Error('not issued');
  return credential;
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'local-storage-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  const db = t.database.db;
  const tenants = await createTenants(db);
  const fixtures = backupFixtures(db);

  const locationId = await fixtures.storageLocation(tenants.customerA.customerId);
  const pkgA = await fixtures.package(tenants.customerA.customerId, { storageLocationId: locationId });
  const [place] = await db
    .select({ bucket: buckets.name })
    .from(storageLocations)
    .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
    .where(eq(storageLocations.id, locationId));
  bucketName = place?.bucket ?? '';
  machineA = await fixtures.machine(pkgA);
  machineNoLocation = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
  machineB = await fixtures.machine(await fixtures.package(tenants.customerB.customerId));
  credA = await issued(machineA);
  credNoLocation = await issued(machineNoLocation);
  credB = await issued(machineB);

  // The app serves the REST backend itself (app.ts), under DATA_DIR.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  settings = createRepositorySettings({
    db,
    secrets: createSecretBox(t.config.masterKey ?? ''),
    publicBase: base,
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

// --- helpers -----------------------------------------------------------------------------------------

const restic = (
  args: string[],
  repository: string,
  password: string,
  onStderr?: (text: string, child: ChildProcess) => void,
) => runRestic(args, { repository, password, home: dataDir }, onStderr);

const basic = (c: MachineCredential) => `Basic ${Buffer.from(`${c.machineId}:${c.token}`).toString('base64')}`;

/** A raw request, so that paths reach the server exactly as written (fetch would normalise `..`). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    // Keep the path exactly as given.
    req.path = path;
    req.on('error', reject);
    req.end(body);
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// --- tests -------------------------------------------------------------------------------------------

describe('repository password', () => {
  it('is made once, stored only encrypted, and the same at every call', async () => {
    const [one, two] = await Promise.all([
      settings.repositorySettingsFor(machineA),
      settings.repositorySettingsFor(machineA),
    ]);
    const three = await settings.repositorySettingsFor(machineA);
    expect(one?.password).toBeTruthy();
    expect(two?.password).toBe(one?.password);
    expect(three?.password).toBe(one?.password);
    expect(one?.repository).toBe(`rest:${base}/restic/${machineA}/`);
    expect(one?.repository).not.toContain(credA.token);

    const [row] = await t.database.db
      .select({ sealed: backupMachines.repositoryPasswordEncrypted })
      .from(backupMachines)
      .where(eq(backupMachines.id, machineA));
    expect(row?.sealed).toBeTruthy();
    expect(row?.sealed).not.toContain(one?.password ?? '-');
    expect(createSecretBox(t.config.masterKey ?? '').decrypt(row?.sealed ?? '')).toBe(one?.password);

    const other = await settings.repositorySettingsFor(machineB);
    expect(other?.password).not.toBe(one?.password);
    expect(await settings.repositorySettingsFor(999_999)).toBeNull();
  });
});

describe('restic against the embedded REST backend', () => {
  let source: string;
  let repository: string;
  let password: string;
  const big = randomBytes(6 * 1024 * 1024);

  beforeAll(async () => {
    const s = await settings.repositorySettingsFor(machineA);
    if (!s) throw new Error('no settings');
    repository = withMachineCredential(s.repository, credA);
    password = s.password;
    source = join(dataDir, 'source');
    await mkdir(join(source, 'docs'), { recursive: true });
    await writeFile(join(source, 'docs', 'hello.txt'), 'hello from the portal\n');
    await writeFile(join(source, 'big.bin'), big);
  });

  it('inits, backs up, lists snapshots, restores and checks', async () => {
    const init = await restic(['init'], repository, password);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    // The repository lives in the bucket's folder, in restic's local layout.
    const repoDir = join(dataDir, 'storage', bucketName, String(machineA));
    expect(existsSync(join(repoDir, 'config'))).toBe(true);
    expect(existsSync(join(repoDir, 'data', 'ff'))).toBe(true);

    const backup = await restic(['backup', '--json', source], repository, password);
    expect(backup.code, backup.stderr).toBe(0);
    const summary = backup.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((m) => m.message_type === 'summary');
    // restic 0.14 reports the short id in its summary.
    expect(summary.snapshot_id).toMatch(/^[0-9a-f]{8,64}$/);

    const snapshots = await restic(['snapshots', '--json'], repository, password);
    expect(snapshots.code, snapshots.stderr).toBe(0);
    const list = JSON.parse(snapshots.stdout);
    expect(list).toHaveLength(1);
    expect(list[0].paths).toEqual([source]);
    expect(list[0].id.startsWith(summary.snapshot_id)).toBe(true);

    const target = join(dataDir, 'restored');
    const restore = await restic(
      ['restore', 'latest', '--target', target, '--include', join(source, 'docs', 'hello.txt')],
      repository,
      password,
    );
    expect(restore.code, restore.stderr).toBe(0);
    expect(await readFile(join(target, source, 'docs', 'hello.txt'), 'utf8')).toBe('hello from the portal\n');
    const bigRestore = await restic(['restore', 'latest', '--target', target], repository, password);
    expect(bigRestore.code, bigRestore.stderr).toBe(0);
    expect((await readFile(join(target, source, 'big.bin'))).equals(big)).toBe(true);

    const check = await restic(['check', '--read-data'], repository, password);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('no errors were found');
  });

  it('keeps another machine out of the repository (403) and refuses a wrong password (401)', async () => {
    const s = await settings.repositorySettingsFor(machineA);
    if (!s) throw new Error('no settings');
    // Machine B's own credential, on machine A's repository.
    const foreign = withMachineCredential(s.repository, credB);
    const snapshots = await restic(['snapshots'], foreign, s.password);
    expect(snapshots.code).not.toBe(0);
    const wrong = withMachineCredential(s.repository, { machineId: machineA, token: 'not-the-token' });
    expect((await restic(['snapshots'], wrong, s.password)).code).not.toBe(0);

    const config = `/restic/${machineA}/config`;
    expect((await raw('GET', config, { authorization: basic(credB) })).status).toBe(403);
    expect((await raw('HEAD', config, { authorization: basic(credB) })).status).toBe(403);
    expect((await raw('GET', `/restic/${machineA}/keys/`, { authorization: basic(credB) })).status).toBe(403);
    const blob = randomBytes(100);
    const write = await raw('POST', `/restic/${machineA}/locks/${sha(blob)}`, { authorization: basic(credB) }, blob);
    expect(write.status).toBe(403);
    const keys = await raw('GET', `/restic/${machineA}/keys/`, { authorization: basic(credA) });
    const keyName = (JSON.parse(keys.body.toString()) as string[])[0] ?? '';
    expect((await raw('DELETE', `/restic/${machineA}/keys/${keyName}`, { authorization: basic(credB) })).status).toBe(
      403,
    );

    const none = await raw('GET', config);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Basic /);
    const bad = await raw('GET', config, { authorization: basic({ machineId: machineA, token: 'wrong' }) });
    expect(bad.status).toBe(401);
    expect((await raw('GET', config, { authorization: 'Basic !!!' })).status).toBe(401);
    // No cookies are handed to machines.
    expect(none.headers['set-cookie']).toBeUndefined();
  });

  it('lists in API version 1 and 2', async () => {
    const auth = { authorization: basic(credA) };
    const v1 = await raw('GET', `/restic/${machineA}/snapshots/`, auth);
    expect(v1.status).toBe(200);
    expect(v1.headers['content-type']).toContain('application/vnd.x.restic.rest.v1');
    const names = JSON.parse(v1.body.toString()) as string[];
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^[0-9a-f]{64}$/);

    const v2 = await raw('GET', `/restic/${machineA}/data/`, { ...auth, accept: 'application/vnd.x.restic.rest.v2' });
    expect(v2.status).toBe(200);
    expect(v2.headers['content-type']).toContain('application/vnd.x.restic.rest.v2');
    const packs = JSON.parse(v2.body.toString()) as { name: string; size: number }[];
    expect(packs.length).toBeGreaterThan(0);
    const repoDir = join(dataDir, 'storage', bucketName, String(machineA));
    for (const pack of packs) {
      expect((await stat(join(repoDir, 'data', pack.name.slice(0, 2), pack.name))).size).toBe(pack.size);
    }
    expect((await raw('GET', `/restic/${machineA}/other/`, auth)).status).toBe(400);
  });

  it('answers Range requests with 206 and the exact bytes', async () => {
    const auth = { authorization: basic(credA) };
    const repoDir = join(dataDir, 'storage', bucketName, String(machineA));
    const config = await readFile(join(repoDir, 'config'));
    const size = config.length;

    const head = await raw('HEAD', `/restic/${machineA}/config`, auth);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(size));

    const part = await raw('GET', `/restic/${machineA}/config`, { ...auth, range: 'bytes=3-12' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 3-12/${size}`);
    expect(part.body.equals(config.subarray(3, 13))).toBe(true);

    const open = await raw('GET', `/restic/${machineA}/config`, { ...auth, range: 'bytes=5-' });
    expect(open.status).toBe(206);
    expect(open.body.equals(config.subarray(5))).toBe(true);

    const suffix = await raw('GET', `/restic/${machineA}/config`, { ...auth, range: 'bytes=-4' });
    expect(suffix.body.equals(config.subarray(size - 4))).toBe(true);

    const whole = await raw('GET', `/restic/${machineA}/config`, auth);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(config)).toBe(true);

    const beyond = await raw('GET', `/restic/${machineA}/config`, { ...auth, range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);

    // A data pack, read in the middle as restic does.
    const v2 = await raw('GET', `/restic/${machineA}/data/`, { ...auth, accept: 'application/vnd.x.restic.rest.v2' });
    const pack = (JSON.parse(v2.body.toString()) as { name: string; size: number }[])[0];
    if (!pack) throw new Error('no pack');
    const packBytes = await readFile(join(repoDir, 'data', pack.name.slice(0, 2), pack.name));
    const middle = await raw('GET', `/restic/${machineA}/data/${pack.name}`, { ...auth, range: 'bytes=100-199' });
    expect(middle.status).toBe(206);
    expect(middle.body.equals(packBytes.subarray(100, 200))).toBe(true);
  });

  it('sends and stores every byte as it is, whatever Accept-Encoding and Content-Encoding say (issue 29)', async () => {
    // restic's Go HTTP client asks for gzip on every request.
    const auth = { authorization: basic(credA), 'accept-encoding': 'gzip, br' };
    const repoDir = join(dataDir, 'storage', bucketName, String(machineA));
    const v2 = await raw('GET', `/restic/${machineA}/data/`, { ...auth, accept: 'application/vnd.x.restic.rest.v2' });
    expect(v2.headers['content-encoding']).toBeUndefined();
    const pack = (JSON.parse(v2.body.toString()) as { name: string; size: number }[])[0];
    if (!pack) throw new Error('no pack');
    const read = await raw('GET', `/restic/${machineA}/data/${pack.name}`, auth);
    expect(read.headers['content-encoding']).toBeUndefined();
    expect(read.headers['content-length']).toBe(String(pack.size));
    expect(read.body.equals(await readFile(join(repoDir, 'data', pack.name.slice(0, 2), pack.name)))).toBe(true);

    // A body that says it is gzip is stored as sent, never inflated: its name is the hash of the bytes sent.
    const sent = gzipSync(Buffer.from('a'.repeat(64 * 1024)));
    const url = `/restic/${machineA}/locks/${sha(sent)}`;
    const upload = { ...auth, 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' };
    expect((await raw('POST', url, upload, sent)).status).toBe(200);
    const back = await raw('GET', url, auth);
    expect(back.headers['content-encoding']).toBeUndefined();
    expect(back.body.equals(sent)).toBe(true);
    expect((await raw('DELETE', url, auth)).status).toBe(200);
  });

  it('checks uploads: content must match its name, existing objects and config are never replaced', async () => {
    const auth = { authorization: basic(credA), 'content-type': 'application/octet-stream' };
    // Larger than the app's 1 MiB body limit: streamed, not refused.
    const blob = randomBytes(3 * 1024 * 1024);
    const name = sha(blob);
    const url = `/restic/${machineA}/locks/${name}`;
    expect((await raw('POST', url, auth, blob)).status).toBe(200);
    expect((await raw('POST', url, auth, blob)).status).toBe(200);
    const other = randomBytes(1000);
    expect((await raw('POST', url, auth, other)).status).toBe(403);
    const stored = await raw('GET', url, { authorization: basic(credA) });
    expect(stored.body.equals(blob)).toBe(true);
    expect((await raw('POST', `/restic/${machineA}/locks/${sha(Buffer.from('x'))}`, auth, other)).status).toBe(400);

    expect((await raw('POST', `/restic/${machineA}/config`, auth, other)).status).toBe(403);
    expect((await raw('DELETE', `/restic/${machineA}/config`, auth)).status).toBe(403);

    expect((await raw('DELETE', url, auth)).status).toBe(200);
    expect((await raw('DELETE', url, auth)).status).toBe(404);
    expect((await raw('GET', url, auth)).status).toBe(404);
    // No temporary files are left behind.
    const repoDir = join(dataDir, 'storage', bucketName, String(machineA));
    expect((await readdir(join(repoDir, '.tmp'))).length).toBe(0);
  });

  it('lets a machine delete only its lock files: every other object stays (issue 16)', async () => {
    const auth = { authorization: basic(credA) };
    const repoDir = join(dataDir, 'storage', bucketName, String(machineA));
    const v2 = { ...auth, accept: 'application/vnd.x.restic.rest.v2' };
    for (const type of ['data', 'keys', 'snapshots', 'index']) {
      const listed = JSON.parse((await raw('GET', `/restic/${machineA}/${type}/`, v2)).body.toString()) as {
        name: string;
      }[];
      const name = listed[0]?.name ?? '';
      expect(name, type).toMatch(/^[0-9a-f]{64}$/);
      const refused = await raw('DELETE', `/restic/${machineA}/${type}/${name}`, auth);
      expect(refused.status, type).toBe(403);
      expect(refused.body.toString()).toBe(`${RETENTION_MESSAGES.deleteRefused(type)}\n`);
      const file = type === 'data' ? join(repoDir, type, name.slice(0, 2), name) : join(repoDir, type, name);
      expect(existsSync(file), type).toBe(true);
    }
    // Even a name that is not there: the answer says nothing about what exists.
    expect((await raw('DELETE', `/restic/${machineA}/snapshots/${'0'.repeat(64)}`, auth)).status).toBe(403);
  });

  it('refuses restic forget --prune run with the machine key and deletes nothing; backups still work', async () => {
    const s = await settings.repositorySettingsFor(machineA);
    if (!s) throw new Error('no settings');
    const repoDir = join(dataDir, 'storage', bucketName, String(machineA));
    const files = async () => {
      const out: string[] = [];
      for (const type of ['data', 'keys', 'snapshots', 'index']) {
        const dir = join(repoDir, type);
        for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
          if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
        }
      }
      return out.sort();
    };
    // A second snapshot, so that forgetting one would have something to remove.
    const again = await restic(['backup', source], repository, password);
    expect(again.code, again.stderr).toBe(0);
    const before = await files();
    // restic 0.14 retries a refused delete ten times over about 45 s before it gives up: the first refusal is
    // enough, and an interrupted restic removes its lock as one that gives up does.
    const forget = await restic(['forget', '--keep-last', '1', '--prune'], repository, password, (text, child) => {
      if (/returned error, retrying after/.test(text)) child.kill('SIGINT');
    });
    expect(forget.code).not.toBe(0);
    expect(forget.stderr).toMatch(/403 Forbidden/);
    expect(await files()).toEqual(before);
    // restic removed its own lock when it stopped; the next backup takes its lock and removes it again.
    expect(await readdir(join(repoDir, 'locks'))).toEqual([]);
    const backup = await restic(['backup', source], repository, password);
    expect(backup.code, backup.stderr).toBe(0);
    expect(await readdir(join(repoDir, 'locks'))).toEqual([]);
    const list = await restic(['snapshots', '--json'], repository, password);
    expect(JSON.parse(list.stdout)).toHaveLength(3);
  }, 60_000);

  it('leaves nothing behind when an upload breaks off', async () => {
    const blob = randomBytes(2 * 1024 * 1024);
    const name = sha(blob);
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${base}/restic/${machineA}/data/${name}`, {
        method: 'POST',
        headers: {
          authorization: basic(credA),
          'content-type': 'application/octet-stream',
          'content-length': String(blob.length),
        },
      });
      req.on('error', () => resolve());
      req.write(blob.subarray(0, 512 * 1024), () => setTimeout(() => req.destroy(), 200));
      req.on('close', () => resolve());
    });
    const repoDir = join(dataDir, 'storage', bucketName, String(machineA));
    for (let i = 0; i < 50 && (await readdir(join(repoDir, '.tmp'))).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await readdir(join(repoDir, '.tmp'))).toEqual([]);
    expect(existsSync(join(repoDir, 'data', name.slice(0, 2), name))).toBe(false);
  });

  it('refuses path traversal in every form', async () => {
    const auth = { authorization: basic(credA) };
    const secret = join(dataDir, 'storage', 'outside.txt');
    await writeFile(secret, 'secret');
    const attempts = [
      `/restic/${machineA}/keys/..%2F..%2F..%2Foutside.txt`,
      `/restic/${machineA}/keys/..%2f..%2fconfig`,
      `/restic/${machineA}/%2e%2e/config`,
      `/restic/${machineA}/../${machineB}/config`,
      `/restic/${machineA}/keys/../../${machineB}/config`,
      `/restic/${machineA}/data/%2e%2e%2f%2e%2e%2f%2e%2e%2foutside.txt`,
      `/restic/${machineA}%2F..%2F${machineB}/config`,
      `/restic/${machineA}/keys/..`,
      `/restic/${machineA}/keys/%00`,
      `/restic/${machineA}/data/${'a'.repeat(63)}/`,
      `/restic/0${machineA}/config`,
    ];
    for (const path of attempts) {
      const answer = await raw('GET', path, auth);
      expect([400, 403, 404], path).toContain(answer.status);
      expect(answer.body.toString(), path).not.toContain('secret');
      const write = await raw('POST', path, { ...auth, 'content-type': 'application/octet-stream' }, Buffer.from('x'));
      expect([400, 403, 404], path).toContain(write.status);
    }
    expect(await readFile(secret, 'utf8')).toBe('secret');
  });
});

describe('a package without a storage location', () => {
  it('keeps the repository in the default folder', async () => {
    const auth = { authorization: basic(credNoLocation) };
    expect((await raw('HEAD', `/restic/${machineNoLocation}/config`, auth)).status).toBe(404);
    expect((await raw('GET', `/restic/${machineNoLocation}/keys/`, auth)).status).toBe(404);
    expect((await raw('POST', `/restic/${machineNoLocation}/?create=true`, auth)).status).toBe(200);
    expect(existsSync(join(dataDir, 'storage', 'default', String(machineNoLocation), 'keys'))).toBe(true);
    const v2 = await raw('GET', `/restic/${machineNoLocation}/keys/`, {
      ...auth,
      accept: 'application/vnd.x.restic.rest.v2',
    });
    // Without config the repository is not there yet for listing.
    expect(v2.status).toBe(404);
  });
});

describe('revocation', () => {
  it('stops a revoked credential within 5 seconds', async () => {
    const auth = { authorization: basic(credNoLocation) };
    const url = `/restic/${machineNoLocation}/config`;
    expect((await raw('HEAD', url, auth)).status).toBe(404); // authenticated, nothing there yet
    await createMachineCredentials(t.database.db).revoke(machineNoLocation, new Date());
    const revokedAt = Date.now();
    let status = 0;
    while (Date.now() - revokedAt < 6_000) {
      status = (await raw('HEAD', url, auth)).status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
  });
});
