// A data check's read rate (issue 32): the portal's rotating data check (features/data-checks, one slice of one, so
// it reads every pack) against bare `restic check --read-data` on the same repository, target ≥ 90 %. The repository
// (BENCH_DATA_CHECK_MB of random data, default 1024) is built once under the temporary folder and kept; the two are
// run in turn BENCH_DATA_CHECK_ROUNDS times (default 3) and the medians compared. The portal's figure is what it
// stores: bytes read over the check's duration, which includes its lock look-up and its count of the bytes read.
// A check that does not pass or read every pack fails the run, and no figures are printed.
// `npx tsx bench/data-check/read-rate.ts`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { repositoryCheckStates, repositoryDataChecks } from '../../apps/server/src/db/schema/index.js';
import { createDataCheckService } from '../../apps/server/src/features/data-checks/service.js';
import { repositoryDir } from '../../apps/server/src/features/local-storage/paths.js';
import { backupFixtures } from '../../apps/server/src/testing/backup-fixtures.js';
import { openTestDatabase } from '../../apps/server/src/testing/database.js';
import { createTenants } from '../../apps/server/src/testing/fixtures.js';
import { storageAccessFor } from '../../apps/server/src/testing/storage-access.js';
import { Answers } from '../answers.js';
import { keptUnder, resticOn } from '../restic.js';

const MB = Number(process.env.BENCH_DATA_CHECK_MB ?? 1024);
const ROUNDS = Number(process.env.BENCH_DATA_CHECK_ROUNDS ?? 3);
const TARGET = 0.9;
const PASSWORD = 'bench-data-check-password';
const ROOT = join(tmpdir(), `portal-bench-data-check-${MB}`);
const REPOSITORY = join(ROOT, 'repo');

const restic = resticOn(REPOSITORY, PASSWORD);
const answers = new Answers();

/** Random data (nothing deduplicates), backed up once; the repository is what is kept. */
const ensureRepository = () =>
  keptUnder(ROOT, () => {
    const data = join(ROOT, 'data');
    mkdirSync(data, { recursive: true });
    for (let i = 0; i < MB; i += 16) {
      writeFileSync(
        join(data, `f${i}`),
        spawnSync('head', ['-c', String(16 * 1024 * 1024), '/dev/urandom'], { maxBuffer: 32 * 1024 * 1024 }).stdout,
      );
    }
    restic(['init']);
    restic(['backup', '--host', 'bench', '.'], data);
    rmSync(data, { recursive: true, force: true });
  });

const packBytes = (repository: string) => {
  const data = join(repository, 'data');
  return readdirSync(data)
    .flatMap((sub) => readdirSync(join(data, sub)).map((id) => statSync(join(data, sub, id)).size))
    .reduce((sum, size) => sum + size, 0);
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mbps = (bytes: number, ms: number) => bytes / 1024 / 1024 / (ms / 1000);

async function main(): Promise<boolean> {
  ensureRepository();
  const bytes = packBytes(REPOSITORY);
  console.log(`repository: ${(bytes / 1024 / 1024).toFixed(0)} MiB of packs; load before: ${loadavg()[0]?.toFixed(2)}`);

  // The portal's side: a machine whose repository (a link to the kept one) is in the embedded storage's folder.
  const database = await openTestDatabase();
  const dataDir = join(ROOT, 'portal');
  rmSync(dataDir, { recursive: true, force: true });
  const tenants = await createTenants(database.db);
  const fixtures = backupFixtures(database.db);
  const machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
  const dir = repositoryDir(dataDir, null, machineId);
  mkdirSync(join(dir, '..'), { recursive: true });
  spawnSync('ln', ['-s', REPOSITORY, dir]);
  const checks = createDataCheckService({
    db: database.db,
    storage: storageAccessFor(database.db, dataDir, 'b'.repeat(64)),
    repositoryPassword: async () => PASSWORD,
    settings: { periodDays: 30, slices: 1, concurrency: 1, runTimeoutMinutes: 30 },
    alert: async () => 0,
    audit: { record: async () => {} },
    messages: { insertMessages: async () => {} },
  });
  await checks.runPending();

  const bare: number[] = [];
  const portal: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const began = performance.now();
    restic(['check', '--read-data']);
    bare.push(mbps(bytes, performance.now() - began));

    await database.db.update(repositoryCheckStates).set({ dueAt: new Date(Date.now() - 1000) });
    await checks.runPending();
    const rows = await database.db
      .select()
      .from(repositoryDataChecks)
      .where(eq(repositoryDataChecks.backupMachineId, machineId))
      .orderBy(repositoryDataChecks.id);
    const newest = rows.at(-1);
    const whole = newest?.outcome === 'PASSED' && newest.bytesRead === bytes;
    if (!answers.outcome("the portal's data check (every pack read, passed)", whole, JSON.stringify(newest))) continue;
    portal.push(mbps(newest?.bytesRead ?? 0, newest?.durationMs ?? 1));
    console.log(
      `round ${round + 1}: bare ${bare.at(-1)?.toFixed(1)} MiB/s, portal ${portal.at(-1)?.toFixed(1)} MiB/s (load ${loadavg()[0]?.toFixed(2)})`,
    );
  }
  await database.close();
  if (!answers.verdict('Data check')) return false;
  const ratio = median(portal) / median(bare);
  console.log(
    `median: bare restic check --read-data ${median(bare).toFixed(1)} MiB/s, portal data check ${median(portal).toFixed(1)} MiB/s: ${(ratio * 100).toFixed(1)} % (target ≥ ${TARGET * 100} %) ${ratio >= TARGET ? 'met' : 'NOT met'}`,
  );
  return ratio >= TARGET;
}

process.exitCode = (await main()) ? 0 : 1;
