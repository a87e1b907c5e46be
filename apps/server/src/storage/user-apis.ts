import { STORAGE_SERVICE_TEXTS, storageUserNotFound } from '@portal/domain';
import { generateAccessKey } from './access-key.js';
import { serviceError } from './errors.js';
import { StorageError, type StorageProvider } from './provider.js';

/**
 * How an S3 storage account's users and access keys are managed (storage_accounts.user_api): Ceph RGW's
 * admin-ops API or the AWS IAM query API. Both are reached by signed requests without a body.
 */
export type UserManagement = Pick<
  StorageProvider,
  'listUsers' | 'createUser' | 'deleteUser' | 'createAccessKey' | 'deleteAccessKey' | 'listAccessKeys'
> & {
  /** Proves the account's key may manage users. */
  check(): Promise<void>;
};

export type SignedCall = (
  method: 'GET' | 'PUT' | 'DELETE',
  path: string,
  query: Record<string, string>,
) => Promise<{ status: number; body: string }>;

const ok = (status: number) => status >= 200 && status < 300;
const ignoring = async (kind: StorageError['kind'], step: () => Promise<unknown>) => {
  try {
    await step();
  } catch (error) {
    if (!(error instanceof StorageError && error.kind === kind)) throw error;
  }
};

/** Ceph RGW's admin-ops API (`/admin/user`, `/admin/metadata/user`), which answers JSON. */
export function rgwAdminUsers(call: SignedCall): UserManagement {
  async function admin(method: 'GET' | 'PUT' | 'DELETE', path: string, query: Record<string, string>) {
    const answer = await call(method, path, { ...query, format: 'json' });
    if (!ok(answer.status)) throw serviceError(jsonCode(answer.body), answer.status, {});
    if (answer.body.trim() === '') return null;
    try {
      return JSON.parse(answer.body) as unknown;
    } catch {
      throw new StorageError('malformed', STORAGE_SERVICE_TEXTS.malformed);
    }
  }
  async function keysOf(uid: string): Promise<string[] | null> {
    try {
      const user = (await admin('GET', '/admin/user', { uid })) as {
        keys?: Array<{ user: string; access_key: string }>;
      };
      // A subuser's keys are listed with its parent's; they are not the user's own.
      return (user.keys ?? []).filter((k) => k.user === uid).map((k) => k.access_key);
    } catch (error) {
      if (error instanceof StorageError && error.kind === 'notFound') return null;
      throw error;
    }
  }
  const users: UserManagement = {
    async check() {
      await users.listUsers();
    },
    async listUsers() {
      const answer = await admin('GET', '/admin/metadata/user', {});
      if (!Array.isArray(answer)) throw new StorageError('malformed', STORAGE_SERVICE_TEXTS.malformed);
      return answer.filter((u): u is string => typeof u === 'string').sort();
    },
    async createUser(name) {
      await ignoring('conflict', () =>
        admin('PUT', '/admin/user', { uid: name, 'display-name': name, 'generate-key': 'false' }),
      );
    },
    async deleteUser(name) {
      // A user who owns buckets is removed (with them) only when asked to purge its data.
      await ignoring('notFound', () => admin('DELETE', '/admin/user', { uid: name, 'purge-data': 'true' }));
    },
    async createAccessKey(userName) {
      if ((await keysOf(userName)) === null) throw new StorageError('notFound', storageUserNotFound(userName));
      // The portal makes the key itself, so it need not pick the new one out of the user's keys.
      const key = generateAccessKey();
      await admin('PUT', '/admin/user', {
        key: '',
        uid: userName,
        'key-type': 's3',
        'access-key': key.keyId,
        'secret-key': key.secret,
      });
      return key;
    },
    async deleteAccessKey(userName, keyId) {
      if (!(await keysOf(userName))?.includes(keyId)) return;
      await admin('DELETE', '/admin/user', { key: '', uid: userName, 'access-key': keyId });
    },
    async listAccessKeys(userName) {
      const keys = await keysOf(userName);
      if (keys === null) throw new StorageError('notFound', storageUserNotFound(userName));
      return keys;
    },
  };
  return users;
}

function jsonCode(body: string): string {
  try {
    return String((JSON.parse(body) as { Code?: unknown }).Code ?? '');
  } catch {
    return '';
  }
}

/**
 * The AWS IAM query API (Wasabi, AWS and other services with IAM), called with GET. IAM makes the keys
 * itself. Not tested against a real IAM here: Ceph RGW 16 has no IAM users (405 to a POSTed CreateUser,
 * its bucket list to a GET), which is 'unsupported'.
 */
export function iamUsers(call: SignedCall): UserManagement {
  async function iam(action: string, params: Record<string, string> = {}): Promise<string> {
    const answer = await call('GET', '/', { Action: action, Version: '2010-05-08', ...params });
    if (answer.status === 405 || answer.status === 501)
      throw new StorageError('unsupported', STORAGE_SERVICE_TEXTS.iamUnsupported, 'userApi');
    if (!ok(answer.status)) throw serviceError(xmlValues(answer.body, 'Code')[0] ?? '', answer.status, {});
    // A service without the IAM query API may answer something else entirely (RGW: its bucket list).
    if (!answer.body.includes(`<${action}Response`))
      throw new StorageError('unsupported', STORAGE_SERVICE_TEXTS.iamUnsupported, 'userApi');
    return answer.body;
  }
  async function keysOf(userName: string): Promise<string[]> {
    return xmlValues(await iam('ListAccessKeys', { UserName: userName, MaxItems: '1000' }), 'AccessKeyId');
  }
  const users: UserManagement = {
    async check() {
      await iam('ListUsers', { MaxItems: '1' });
    },
    async listUsers() {
      const names: string[] = [];
      let marker = '';
      do {
        const body = await iam('ListUsers', { MaxItems: '1000', ...(marker ? { Marker: marker } : {}) });
        names.push(...xmlValues(body, 'UserName'));
        marker = xmlValues(body, 'IsTruncated')[0] === 'true' ? (xmlValues(body, 'Marker')[0] ?? '') : '';
      } while (marker);
      return names.sort();
    },
    async createUser(name) {
      await ignoring('conflict', () => iam('CreateUser', { UserName: name }));
    },
    async deleteUser(name) {
      // IAM removes a user only without keys.
      await ignoring('notFound', async () => {
        for (const keyId of await keysOf(name)) await iam('DeleteAccessKey', { UserName: name, AccessKeyId: keyId });
        await iam('DeleteUser', { UserName: name });
      });
    },
    async createAccessKey(userName) {
      const body = await iam('CreateAccessKey', { UserName: userName });
      const keyId = xmlValues(body, 'AccessKeyId')[0];
      const secret = xmlValues(body, 'SecretAccessKey')[0];
      if (!keyId || !secret) throw new StorageError('malformed', STORAGE_SERVICE_TEXTS.malformed);
      return { keyId, secret };
    },
    async deleteAccessKey(userName, keyId) {
      await ignoring('notFound', () => iam('DeleteAccessKey', { UserName: userName, AccessKeyId: keyId }));
    },
    listAccessKeys: keysOf,
  };
  return users;
}

/** The texts of every `<name>` element of an XML answer (IAM's answers are flat enough for this). */
export function xmlValues(xml: string, name: string): string[] {
  const values: string[] = [];
  for (const match of xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g')))
    values.push(
      (match[1] ?? '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&'),
    );
  return values;
}

/** An account without a user API: every user call says so. */
export function noUsers(): UserManagement {
  const refuse = async (): Promise<never> => {
    throw new StorageError('unsupported', STORAGE_SERVICE_TEXTS.noUserApi, 'userApi');
  };
  return {
    check: refuse,
    listUsers: refuse,
    createUser: refuse,
    deleteUser: refuse,
    createAccessKey: refuse,
    deleteAccessKey: refuse,
    listAccessKeys: refuse,
  };
}
