import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const RGW_SCRIPTS = { up: join(root, 'scripts/rgw-up.sh'), down: join(root, 'scripts/rgw-down.sh') };

/** Where this run's cluster lives: chosen here, handed to the test files (testing/rgw.ts). */
export interface RgwPlace {
  dir: string;
  /** Made by the test file that starts the cluster; the others wait for `ready` beside it. */
  lockDir: string;
  s3Port: number;
  monPort: number;
}

/**
 * The server project's globalSetup: it chooses where this run's Ceph RGW would live (a fresh folder and
 * free ports, so it never meets a cluster another run or a developer started) and hands that to the test
 * files. Nothing starts here: the first test file that needs RGW starts it (testing/rgw.ts), so runs
 * without such files pay nothing. The teardown stops and wipes it, whether the tests passed or not.
 */
export default async function setup(project: TestProject) {
  const parent = mkdtempSync(join(tmpdir(), 'portal-rgw-'));
  const place: RgwPlace = {
    dir: join(parent, 'cluster'),
    lockDir: join(parent, 'starting'),
    s3Port: await freePort(),
    monPort: await freePort(),
  };
  project.provide('rgw', place);
  return () => {
    execFileSync('bash', [RGW_SCRIPTS.down], { env: { ...process.env, RGW_DIR: place.dir }, stdio: 'ignore' });
    rmSync(parent, { recursive: true, force: true });
  };
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
