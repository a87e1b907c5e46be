import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, type RgwCluster, stopRgwCluster } from './rgw-cluster.js';

/** Where this run's cluster lives: chosen here, handed to the test files (testing/rgw.ts). */
export interface RgwPlace extends RgwCluster {
  /** Made by the test file that starts the cluster; the others wait for `ready` beside it. */
  lockDir: string;
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
    stopRgwCluster(place.dir);
    rmSync(parent, { recursive: true, force: true });
  };
}
