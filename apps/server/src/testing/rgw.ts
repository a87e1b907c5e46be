import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { createOutboundGuard } from '../net/outbound-guard.js';
import type { SecretBox } from '../secrets.js';
import type { StorageAccountConnection } from '../storage/provider.js';
import { requireCeph, rgwAdminEnv, startRgwCluster } from './rgw-cluster.js';
import type { RgwPlace } from './rgw-global-setup.js';

/**
 * Ceph's RADOS Gateway for the tests of the s3 storage provider: a real S3 service with bucket policies,
 * users and keys, on loopback (PLATFORM.md). One cluster per Vitest run, started by the first test file
 * that asks for it (the others wait for it) and stopped by the server project's globalSetup
 * (rgw-global-setup.ts) at the end of the run.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    rgw: RgwPlace;
  }
}

export interface Rgw {
  endpoint: string;
  /** The portal-admin user's key (caps users, buckets, metadata, usage, user-policy). */
  adminAccessKey: string;
  adminSecretKey: string;
  /** A storage account connection to this RGW with the admin key and the admin-ops user API. */
  connection(overrides?: Partial<StorageAccountConnection>): StorageAccountConnection;
  /** The Add storage account form for this RGW with the admin key, named `{name} {random}`. */
  accountForm(name: string): Record<string, unknown>;
}

/** The run's RGW, started on first use. Fails with a clear message when Ceph is not installed. */
export async function startedRgw(): Promise<Rgw> {
  requireCeph();
  const place = inject('rgw');
  if (!place) throw new Error('the server project has no RGW place: is testing/rgw-global-setup.ts its globalSetup?');
  const ready = join(dirname(place.lockDir), 'ready');
  const failed = join(dirname(place.lockDir), 'failed');
  let starter = false;
  try {
    mkdirSync(place.lockDir);
    starter = true;
  } catch {
    // Another test file is starting it.
  }
  if (starter) {
    try {
      await startRgwCluster(place);
      writeFileSync(ready, '');
    } catch (error) {
      writeFileSync(failed, (error as Error).message);
      throw error;
    }
  }
  for (let waited = 0; !existsSync(ready); waited += 100) {
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    if (waited > 60_000) throw new Error('Ceph RGW did not start within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const env = rgwAdminEnv(place.dir);
  const endpoint = env.RGW_ENDPOINT ?? '';
  const adminAccessKey = env.RGW_ADMIN_ACCESS_KEY ?? '';
  const adminSecretKey = env.RGW_ADMIN_SECRET_KEY ?? '';
  return {
    endpoint,
    adminAccessKey,
    adminSecretKey,
    connection: (overrides = {}) => ({
      id: 0,
      type: 'S3',
      endpoint,
      iamEndpoint: null,
      region: null,
      forcePathStyle: true,
      accessKeyId: adminAccessKey,
      secretAccessKey: adminSecretKey,
      userApi: 'RGW_ADMIN',
      requireObjectLock: false,
      ...overrides,
    }),
    accountForm: (name) => ({
      name: `${name} ${randomBytes(3).toString('hex')}`,
      type: 'S3',
      endpoint,
      forcePathStyle: true,
      userApi: 'RGW_ADMIN',
      accessKeyId: adminAccessKey,
      secretAccessKey: adminSecretKey,
    }),
  };
}

/** The guard as tests run it: loopback allowed, as ALLOW_PRIVATE_ENDPOINTS=true does. */
export const loopbackGuard = () => createOutboundGuard({ allowPrivate: true });

/** The storage account row a provider admin would add for this RGW: its admin key, the secret sealed. */
export const rgwAccountValues = (rgw: Rgw, secrets: SecretBox) => ({
  name: 'Ceph RGW',
  type: 'S3' as const,
  endpoint: rgw.endpoint,
  forcePathStyle: true,
  accessKeyId: rgw.adminAccessKey,
  secretAccessKeyEncrypted: secrets.encrypt(rgw.adminSecretKey),
  userApi: 'RGW_ADMIN' as const,
});
