import type { Executor } from '../db/client.js';
import { storageAccounts } from '../db/schema/index.js';
import { createSecretBox } from '../secrets.js';

/**
 * An S3 storage account row on a Ceph RGW with the admin-ops user API, its secret sealed with the master key as
 * the portal keeps it: for tests and benches that need the account without going through its form.
 */
export async function insertS3Account(
  db: Executor,
  masterKey: string,
  rgw: { endpoint: string; adminAccessKey: string; adminSecretKey: string },
  name = 'Ceph RGW',
): Promise<number> {
  const [account] = await db
    .insert(storageAccounts)
    .values({
      name,
      type: 'S3',
      endpoint: rgw.endpoint,
      forcePathStyle: true,
      accessKeyId: rgw.adminAccessKey,
      secretAccessKeyEncrypted: createSecretBox(masterKey).encrypt(rgw.adminSecretKey),
      userApi: 'RGW_ADMIN',
    })
    .returning({ id: storageAccounts.id });
  if (!account) throw new Error('storage account not inserted');
  return account.id;
}
