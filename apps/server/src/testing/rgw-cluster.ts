import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Starting and stopping a throw-away Ceph RGW with the project's scripts (PLATFORM.md), for the server's tests
 * (testing/rgw.ts) and the S3 tampering journey (e2e/tests/tampering-s3.spec.ts). No Vitest here: Playwright
 * imports it too.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const RGW_SCRIPTS = { up: join(root, 'scripts/rgw-up.sh'), down: join(root, 'scripts/rgw-down.sh') };

/** Where one cluster lives: its folder (state, logs, `admin.env`) and its loopback ports. */
export interface RgwCluster {
  dir: string;
  s3Port: number;
  monPort: number;
}

const MISSING =
  'Ceph RGW is not installed: apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common (.ci/run installs it)';

/** Throws the install line when a Ceph binary the scripts run is not on PATH. */
export function requireCeph(): void {
  const onPath = (binary: string) =>
    (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, binary)));
  if (!['radosgw', 'ceph-mon', 'ceph-osd', 'radosgw-admin'].every(onPath)) throw new Error(MISSING);
}

const run = promisify(execFile);

/** Starts the cluster (scripts/rgw-up.sh); a failure throws with the script's output. */
export async function startRgwCluster(cluster: RgwCluster): Promise<void> {
  requireCeph();
  try {
    await run('bash', [RGW_SCRIPTS.up], {
      env: {
        ...process.env,
        RGW_DIR: cluster.dir,
        RGW_PORT: String(cluster.s3Port),
        RGW_MON_PORT: String(cluster.monPort),
      },
    });
  } catch (error) {
    throw new Error(`Ceph RGW did not start: ${(error as { stderr?: string }).stderr ?? error}`);
  }
}

/** Stops and wipes the cluster (scripts/rgw-down.sh), whether it started or not. */
export function stopRgwCluster(dir: string): void {
  execFileSync('bash', [RGW_SCRIPTS.down], { env: { ...process.env, RGW_DIR: dir }, stdio: 'ignore' });
}

/** A port nothing listens on now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** What scripts/rgw-up.sh wrote to `{dir}/admin.env`: RGW_ENDPOINT and the portal-admin user's key. */
export function rgwAdminEnv(dir: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(join(dir, 'admin.env'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
