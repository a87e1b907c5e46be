/**
 * Migration throughput (issue 16: "a migration of a 10 GB, 100,000-file repository between two buckets runs
 * at ≥ 80 % of bare `rclone sync` between the same buckets, and its live output never grows the server's
 * memory with the size of the repository"): the real app, a package whose machines' repositories hold
 * BENCH_MIGRATION_MB of data in BENCH_MIGRATION_FILES files (restic's layout: data/xx/{sha256} packs, as many
 * machines as BENCH_MIGRATION_MACHINES) on one LOCAL location, copied to another by the migration's initial
 * sync (the provider admin's call, timed until the sequence has ended and its status is stored) and by bare
 * `rclone sync` of the same folders (same includes) into a third folder. Each run copies into an emptied
 * destination, bare and portal alternating; prints the medians, their ratio (bare time ÷ portal time) and the
 * server's peak RSS growth during the portal's runs (sampled every 50 ms); exits 1 when the ratio is under 80 %.
 * BENCH_MIGRATION_RUNS: runs (default 3).
 * BENCH_MIGRATION_STORE=s3: bucket → bucket on a Ceph RGW the bench starts (scripts/rgw-up.sh, RGW_OSD_STORE as
 * set there): an S3 storage account with three buckets (source, the migration's destination, bare rclone's),
 * each a location reached with its own folder access; the data is uploaded once with rclone. The default
 * memstore keeps every object in RAM with a 4 GiB cap: three copies of BENCH_MIGRATION_MB must fit under it.
 * The provider admin signs in with two-factor sign-in, as provider admins must. A call answered with anything but 2xx
 * or a sync that did not end in success fails the run, and no figures are printed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PackageMigrationDetail, ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { backupPackages, buckets, storageLocations, userMfa } from '../../apps/server/src/db/schema/index.js';
import { machineFilters, rcloneRemotes } from '../../apps/server/src/platform/rclone.js';
import type { FolderAccess } from '../../apps/server/src/storage/provider.js';
import { createTestApp } from '../../apps/server/src/testing/app.js';
import { backupFixtures } from '../../apps/server/src/testing/backup-fixtures.js';
import { TestClient } from '../../apps/server/src/testing/client.js';
import { createTenants, FIXTURE_PASSWORD } from '../../apps/server/src/testing/fixtures.js';
import { freePort, RGW_SCRIPTS, rgwAdminEnv } from '../../apps/server/src/testing/rgw-cluster.js';
import { insertS3Account } from '../../apps/server/src/testing/s3-account.js';
import { storageAccessFor } from '../../apps/server/src/testing/storage-access.js';
import { Answers } from '../answers.js';
import { enrolment, signInClient } from '../two-factor.js';

const MEGABYTES = Number(process.env.BENCH_MIGRATION_MB ?? 10_240);
const FILES = Number(process.env.BENCH_MIGRATION_FILES ?? 100_000);
const MACHINES = Number(process.env.BENCH_MIGRATION_MACHINES ?? 4);
const RUNS = Number(process.env.BENCH_MIGRATION_RUNS ?? 3);
const S3 = process.env.BENCH_MIGRATION_STORE === 's3';
const TARGET = 0.8;

const tmp = mkdtempSync(join(tmpdir(), 'portal-bench-migration-'));
const rgwDir = join(tmp, 'rgw');
const t = await createTestApp({
  DATA_DIR: join(tmp, 'data'),
  MIGRATION_JOB_INTERVAL_MS: '3600000',
  // The bench's RGW listens on loopback.
  ALLOW_PRIVATE_ENDPOINTS: 'true',
  // The test app's default is off; provider admins must use two-factor sign-in in production, so here too.
  MFA_REQUIRED_FOR_PROVIDER_ADMINS: 'true',
});
const answers = new Answers();
/** The figures, printed once every answer was right. */
const lines: string[] = [];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
let missed = false;

try {
  const db = t.database.db;
  const tenants = await createTenants(db);
  const fixtures = backupFixtures(db);
  const customerId = tenants.customerB.customerId;
  const place = S3 ? await s3Places(customerId) : await localPlaces(customerId);
  const { source, destination } = place;
  const packageId = await fixtures.package(customerId);
  await db.update(backupPackages).set({ storageLocationId: source }).where(eq(backupPackages.id, packageId));
  const machines: number[] = [];
  for (let i = 0; i < MACHINES; i += 1) machines.push(await fixtures.machine(packageId));
  // On S3 the data is written here and uploaded once; locally it is written in the source folder itself.
  const sourceFolder = S3 ? join(tmp, 'staging') : place.sourceFolder;

  // The repositories: pack files of equal size, each starting with its own bytes (no two alike).
  const fileBytes = Math.max(64, Math.floor((MEGABYTES * 1024 * 1024) / FILES));
  const block = randomBytes(fileBytes);
  const started = performance.now();
  for (let i = 0; i < FILES; i += 1) {
    const name = randomBytes(32).toString('hex');
    const dir = join(sourceFolder, String(machines[i % MACHINES]), 'data', name.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    randomBytes(32).copy(block, 0);
    writeFileSync(join(dir, name), block);
  }
  for (const machineId of machines) writeFileSync(join(sourceFolder, String(machineId), 'config'), 'config');
  if (S3) {
    await place.upload(sourceFolder);
    // The bucket holds it now; the local copy would only take disk the three buckets need.
    rmSync(sourceFolder, { recursive: true, force: true });
  }
  lines.push(
    `Migration throughput: ${MEGABYTES} MB in ${FILES} files (${fileBytes} bytes each) over ${MACHINES} machine ` +
      `repositories, ${S3 ? 'S3 → S3 (Ceph RGW, bucket → bucket)' : 'LOCAL → LOCAL'}, ${RUNS} runs each, medians (data written in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );

  // One session: the test app's clock stands still (a code of two-factor sign-in is one of its 30-second steps), so
  // the session never goes idle however long a copy takes.
  const { email } = tenants.providerAdmin;
  await db.insert(userMfa).values(enrolment(tenants.providerAdmin.id, email, t.config.masterKey));
  const provider = new TestClient(t.app);
  await signInClient(provider, email, FIXTURE_PASSWORD, t.clock.now);
  const ref = { customerId, packageId };
  const created = await provider.json('POST', ROUTES.migrations.create.build(ref), {
    destinationStorageLocationId: destination,
  });
  if (!answers.http('POST create migration', created.statusCode, created.body)) throw new Error(created.body);
  const migrationId = created.json().result.id as number;
  const one = { ...ref, migrationId };

  const bare = async () => {
    await place.emptyBare();
    const begun = performance.now();
    await rcloneSync(place.bareFrom, place.bareTo, machineFilters(machines));
    return (performance.now() - begun) / 1000;
  };

  let peakGrowth = 0;
  let storedLines = 0;
  const portal = async (run: number) => {
    await place.emptyDestination();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const begun = performance.now();
    const submitted = await provider.json('PUT', ROUTES.migrations.submit.build(one), {
      requestId: `bench-${run}-${Date.now()}`,
      type: 'SYNC',
    });
    if (!answers.http('PUT submit migration (SYNC)', submitted.statusCode, submitted.body)) return Number.NaN;
    await t.app.migrations.settled();
    const seconds = (performance.now() - begun) / 1000;
    clearInterval(sampler);
    const detail = await provider.json('GET', ROUTES.migrations.detail.build(one));
    if (!answers.http("GET the migration's detail", detail.statusCode, detail.body)) return Number.NaN;
    const state = detail.json().result as PackageMigrationDetail;
    const last = state.commandSequences.at(-1);
    const synced = state.status === 'INITIAL_SYNC_FINISHED_SUCCESS' && last?.exitCode === 'SUCCESS';
    if (!answers.outcome("the migration's sync", synced, `ended ${state.status} / ${last?.exitCode}`))
      return Number.NaN;
    if (!last) return Number.NaN;
    storedLines = last.commandOutput.length;
    peakGrowth = Math.max(peakGrowth, peak - baseline);
    return seconds;
  };

  const bareTimes: number[] = [];
  const portalTimes: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    lines.push(`  (load average ${loadavg()[0]?.toFixed(1)} before run ${run + 1})`);
    bareTimes.push(await bare());
    lines.push(`    bare rclone sync: ${bareTimes.at(-1)?.toFixed(2)} s`);
    portalTimes.push(await portal(run));
    lines.push(`    portal migration: ${portalTimes.at(-1)?.toFixed(2)} s`);
  }
  const rate = (seconds: number) => (MEGABYTES / seconds).toFixed(1);
  const bareTime = median(bareTimes);
  const portalTime = median(portalTimes);
  const ratio = bareTime / portalTime;
  const check = await place.destinationBytes();
  lines.push(
    `  bare rclone sync: ${bareTime.toFixed(2)} s (${rate(bareTime)} MB/s)  [${bareTimes.map((s) => s.toFixed(2)).join(', ')}]`,
  );
  lines.push(
    `  portal migration: ${portalTime.toFixed(2)} s (${rate(portalTime)} MB/s)  [${portalTimes.map((s) => s.toFixed(2)).join(', ')}]`,
  );
  lines.push(`  ratio (bare ÷ portal time): ${(ratio * 100).toFixed(0)} % — ${ratio >= TARGET ? 'met' : 'missed'}`);
  lines.push(
    `  server peak RSS growth during the portal's runs: ${(peakGrowth / 1024 / 1024).toFixed(1)} MiB; ` +
      `output lines kept: ${storedLines}; destination holds ${check} bytes`,
  );
  missed = ratio < TARGET;
} finally {
  await t.close();
  if (S3) execFileSync('bash', [RGW_SCRIPTS.down], { env: { ...process.env, RGW_DIR: rgwDir }, stdio: 'ignore' });
  rmSync(tmp, { recursive: true, force: true });
}
if (answers.verdict('Migration throughput')) {
  for (const line of lines) console.log(line);
  if (missed) process.exitCode = 1;
}

/** Bare `rclone sync` of two folders, each side a remote of its own as the migration names them. */
async function rcloneSync(from: FolderAccess, to: FolderAccess, filters: string[]): Promise<void> {
  const { sourcePath, destinationPath, env } = rcloneRemotes(from, to);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      'rclone',
      ['sync', sourcePath, destinationPath, '--config', '', '--create-empty-src-dirs', ...filters],
      { stdio: 'ignore', env },
    );
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`rclone exited ${code}`))));
  });
}

/** Two LOCAL locations of the customer and a third folder for bare rclone, all on the portal's disk. */
async function localPlaces(customerId: number) {
  const db = t.database.db;
  const fixtures = backupFixtures(db);
  const source = await fixtures.storageLocation(customerId);
  const destination = await fixtures.storageLocation(customerId);
  const folderOf = async (locationId: number) => {
    const [row] = await db
      .select({ bucket: buckets.name })
      .from(storageLocations)
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .where(eq(storageLocations.id, locationId));
    return join(t.config.dataDir, 'storage', row?.bucket ?? 'missing');
  };
  const onDisk = (dir: string): FolderAccess => ({ resticRepository: dir, rclonePath: dir, env: {} });
  const sourceFolder = await folderOf(source);
  const destinationFolder = await folderOf(destination);
  const bareFolder = join(tmp, 'bare-destination');
  return {
    source,
    destination,
    sourceFolder,
    bareFrom: onDisk(sourceFolder),
    bareTo: onDisk(bareFolder),
    emptyBare: async () => rmSync(bareFolder, { recursive: true, force: true }),
    emptyDestination: async () => rmSync(destinationFolder, { recursive: true, force: true }),
    destinationBytes: async () => execFileSync('du', ['-sb', destinationFolder], { encoding: 'utf8' }).split('\t')[0],
    upload: async (_staging: string) => {},
  };
}

/** A Ceph RGW started for the bench, an S3 account on it and three buckets, each a location of the customer. */
async function s3Places(customerId: number) {
  const [s3Port, monPort] = [await freePort(), await freePort()];
  execFileSync('bash', [RGW_SCRIPTS.up], {
    env: { ...process.env, RGW_DIR: rgwDir, RGW_PORT: String(s3Port), RGW_MON_PORT: String(monPort) },
    stdio: 'ignore',
  });
  const env = rgwAdminEnv(rgwDir);
  const db = t.database.db;
  const masterKey = t.config.masterKey ?? '';
  const accountId = await insertS3Account(
    db,
    masterKey,
    {
      endpoint: env.RGW_ENDPOINT ?? '',
      adminAccessKey: env.RGW_ADMIN_ACCESS_KEY ?? '',
      adminSecretKey: env.RGW_ADMIN_SECRET_KEY ?? '',
    },
    'Ceph RGW (bench)',
  );
  const access = storageAccessFor(db, t.config.dataDir, masterKey);
  const location = async (name: string) => {
    const [bucket] = await db
      .insert(buckets)
      .values({ storageAccountId: accountId, name, managed: true, customerId })
      .returning({ id: buckets.id });
    const [row] = await db
      .insert(storageLocations)
      .values({ customerId, bucketId: bucket?.id ?? 0, subfolder: null })
      .returning({ id: storageLocations.id });
    const id = row?.id ?? 0;
    const at = await access.locationAccess(id);
    await at.provider.createBucket(at.bucket);
    return { id, at };
  };
  const source = await location('bench-source');
  const destination = await location('bench-destination');
  const bareBucket = await location('bench-bare');
  const empty = (folder: typeof source) => folder.at.provider.deletePrefix(folder.at.bucket, '');
  return {
    source: source.id,
    destination: destination.id,
    sourceFolder: '',
    bareFrom: source.at.access,
    bareTo: bareBucket.at.access,
    emptyBare: () => empty(bareBucket),
    emptyDestination: () => empty(destination),
    destinationBytes: async () => String((await destination.at.provider.usage(destination.at.bucket, '')).bytes),
    upload: (staging: string) =>
      rcloneSync({ resticRepository: staging, rclonePath: staging, env: {} }, source.at.access, []),
  };
}
