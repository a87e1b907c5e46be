import {
  type BucketWithPolicyInfo,
  bucketNotFound,
  bucketPolicyUnreadable,
  compareNames,
  destinationOfUrl,
  type Elements,
  MESSAGES,
  type Paged,
  type PagingQuery,
  pageOf,
  STORAGE_ACCOUNT_FORM_LABELS,
  STORAGE_SERVICE_TEXTS,
  type StorageAccessKeyRow,
  type StorageAccountDetail,
  type StorageAccountPayload,
  type StorageAccountRow,
  type StorageAccountUserRow,
  sameDestination,
  sameOptionalDestination,
  storageUserNotFound,
} from '@portal/domain';
import type { Db } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { secretsFor } from '../../net/stored-secrets.js';
import { outsideServiceAnswer } from '../../platform/errors.js';
import type { SecretBox } from '../../secrets.js';
import { bucketPolicyFor, policyDifferences, policyPrincipals } from '../../storage/policy.js';
import {
  type PolicyGrant,
  type StorageAccountConnection,
  StorageError,
  type StorageProvider,
  type StorageProviders,
} from '../../storage/provider.js';
import {
  isUserInUse,
  presentAccessKey,
  presentBucket,
  presentPrincipal,
  presentStorageAccountDetail,
  presentStorageAccountRow,
  presentStorageUser,
  presentUnknownAccessKey,
  presentUnknownUser,
} from './present.js';
import { policyWithoutPrincipal } from './principal.js';
import {
  type BucketRecord,
  createStorageAccountsRepo,
  type StorageAccountRecord,
  type StorageAccountsRepo,
  type StorageAccountValues,
} from './repo.js';
import { connectionRefused, mapWithLimit, withinTime } from './storage-errors.js';

const TEXT = MESSAGES.storageAccountPages;

export interface StorageAccountServiceDeps {
  db: Db;
  repo: StorageAccountsRepo;
  providers: StorageProviders;
  secrets: SecretBox;
  grantsOfBucket: (bucketId: number) => Promise<PolicyGrant[]>;
  /** How long one call to the service may take (default 10 s). */
  callTimeoutMs?: number;
  /** How many buckets' policies are read at once (default 8). */
  concurrency?: number;
}

/**
 * The provider's storage accounts (001 §2, §7): list, detail, add, edit and test connection (ours), set
 * default, buckets with policy info, users, access keys, and removing a user or a policy principal.
 * Secrets are sealed with MASTER_KEY and never answered.
 */
export function createStorageAccountService(deps: StorageAccountServiceDeps) {
  const { repo, providers, secrets } = deps;
  const timeoutMs = deps.callTimeoutMs ?? 10_000;
  const concurrency = deps.concurrency ?? 8;

  async function found(id: number): Promise<StorageAccountRecord> {
    const record = await repo.byId(id);
    if (!record) throw notFound(STORAGE_SERVICE_TEXTS.accountNotFound);
    return record;
  }

  /** A call to the account's service, within the time limit; its failure answered as 502 with its reason. */
  async function atService<T>(call: (provider: StorageProvider) => Promise<T>, accountId: number): Promise<T> {
    try {
      return await withinTime(
        providers.forAccount(accountId).then((provider) => call(provider)),
        timeoutMs,
      );
    } catch (error) {
      throw outsideServiceAnswer(error);
    }
  }

  /**
   * The users at the service the portal has no row for, with their key ids: those the provider made there
   * itself (its admin user, say). Read per user, a few at a time; a user whose keys cannot be read shows none.
   */
  async function unknownUsersAtService(id: number, known: Set<string>) {
    const names = (await atService((provider) => provider.listUsers(), id)).filter((name) => !known.has(name));
    return mapWithLimit(names, concurrency, async (name) => ({
      name,
      keyIds: await atService((provider) => provider.listAccessKeys(name), id).catch(() => [] as string[]),
    }));
  }

  /** Whether an S3 form still signs its requests for the endpoints the stored secret was saved for. */
  function sameEndpoints(form: StorageAccountPayload, current: StorageAccountRecord | null): boolean {
    if (current === null) return false;
    const asked = destinationOfUrl(form.endpoint);
    const stored = current.endpoint === null ? null : destinationOfUrl(current.endpoint);
    const optional = (url: string | null) => (url ? destinationOfUrl(url) : null);
    return (
      asked !== null &&
      stored !== null &&
      sameDestination(asked, stored) &&
      sameOptionalDestination(optional(form.iamEndpoint), optional(current.iamEndpoint))
    );
  }

  /**
   * The stored values of a form. An S3 form's empty secret keeps the stored one only while the endpoint and IAM
   * endpoint are those it was saved for (else a 400 asks for it again); LOCAL needs none of them.
   */
  function valuesOf(form: StorageAccountPayload, current: StorageAccountRecord | null): StorageAccountValues {
    const s3 = form.type === 'S3';
    const secret = s3
      ? secretsFor(
          sameEndpoints(form, current),
          {
            secretAccessKey: {
              label: STORAGE_ACCOUNT_FORM_LABELS.secretAccessKey,
              given: form.secretAccessKey,
              stored: current?.secretAccessKeyEncrypted ?? null,
              required: true,
            },
          },
          (plain) => secrets.encrypt(plain),
        ).secretAccessKey
      : null;
    return {
      name: form.name,
      type: form.type,
      endpoint: s3 ? form.endpoint : null,
      iamEndpoint: s3 && form.iamEndpoint ? form.iamEndpoint : null,
      region: s3 && form.region ? form.region : null,
      forcePathStyle: s3 && form.forcePathStyle,
      accessKeyId: s3 ? form.accessKeyId : null,
      secretAccessKeyEncrypted: secret,
      userApi: s3 ? form.userApi : null,
      requireObjectLock: form.requireObjectLock,
    };
  }

  function connectionOf(id: number, values: StorageAccountValues): StorageAccountConnection {
    return {
      id,
      type: values.type,
      endpoint: values.endpoint,
      iamEndpoint: values.iamEndpoint,
      region: values.region,
      forcePathStyle: values.forcePathStyle,
      accessKeyId: values.accessKeyId,
      secretAccessKey: values.secretAccessKeyEncrypted ? secrets.decrypt(values.secretAccessKeyEncrypted) : null,
      userApi: values.userApi,
      requireObjectLock: values.requireObjectLock,
    };
  }

  /** Proves the connection works; a failure is a message on the form field it concerns. */
  async function testValues(id: number, values: StorageAccountValues): Promise<void> {
    try {
      await withinTime(providers.forConnection(connectionOf(id, values)).testConnection(), timeoutMs);
    } catch (error) {
      throw connectionRefused(error);
    }
  }

  async function checkUnique(form: StorageAccountPayload, current: StorageAccountRecord | null): Promise<void> {
    if (await repo.nameInUse(form.name, current?.id ?? null)) throw conflict(TEXT.nameTaken, 'name');
    if (current === null && form.type === 'LOCAL' && (await repo.localAccountExists())) {
      throw conflict(TEXT.localExists, 'type');
    }
  }

  /** The policy found at the service, what differs from the expected one, and the principals it names. */
  async function policyInfo(
    provider: StorageProvider,
    bucket: BucketRecord,
    atTheService: boolean,
  ): Promise<{ policy: string | null; differences: string[] }> {
    if (!atTheService) return { policy: null, differences: [bucketNotFound(bucket.name)] };
    let policy: string | null;
    try {
      policy = await withinTime(provider.getBucketPolicy(bucket.name), timeoutMs);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      return { policy: null, differences: [bucketPolicyUnreadable(error.message)] };
    }
    const grants = await deps.grantsOfBucket(bucket.id);
    // A bucket the portal did not make is consistent while the portal expects nothing of it.
    if (!bucket.managed && grants.length === 0) return { policy, differences: [] };
    return { policy, differences: policyDifferences(policy, bucketPolicyFor(bucket.name, grants)) };
  }

  return {
    async page(paging: PagingQuery): Promise<Paged<StorageAccountRow>> {
      const { rows, total } = await repo.page(paging);
      return pageOf(rows.map(presentStorageAccountRow), total, paging.size);
    },

    async detail(id: number): Promise<StorageAccountDetail> {
      return presentStorageAccountDetail(await found(id));
    },

    /** Adds an account after its connection was proven; the first account becomes the default. */
    async add(form: StorageAccountPayload): Promise<StorageAccountDetail> {
      await checkUnique(form, null);
      const values = valuesOf(form, null);
      await testValues(0, values);
      const id = await repo.insert(values, !(await repo.hasDefault()));
      return presentStorageAccountDetail(await found(id));
    },

    async edit(id: number, form: StorageAccountPayload): Promise<StorageAccountDetail> {
      const current = await found(id);
      // Its buckets, users and keys live at one kind of service; another type would lose them.
      if (form.type !== current.type) throw badRequest(TEXT.typeUnchangeable, 'type');
      await checkUnique(form, current);
      const values = valuesOf(form, current);
      await testValues(id, values);
      await repo.update(id, values);
      providers.forget(id);
      return presentStorageAccountDetail(await found(id));
    },

    async remove(id: number): Promise<void> {
      const outcome = await deps.db.transaction((tx) => createStorageAccountsRepo(tx).deleteUnused(id));
      if (outcome === 'gone') throw notFound(STORAGE_SERVICE_TEXTS.accountNotFound);
      if (outcome === 'default') throw conflict(TEXT.defaultNotRemovable);
      if (outcome === 'inUse') throw conflict(TEXT.inUseNotRemovable);
      providers.forget(id);
    },

    /** Tests the form as it stands; when it edits a saved account at its saved endpoints, an empty secret is the stored one. */
    async testConnection(form: StorageAccountPayload, savedId: number | null): Promise<void> {
      const current = savedId === null ? null : await found(savedId);
      await testValues(savedId ?? 0, valuesOf(form, current));
    },

    async setDefault(id: number): Promise<StorageAccountRow> {
      const done = await deps.db.transaction((tx) => createStorageAccountsRepo(tx).setDefault(id));
      if (!done) throw notFound(STORAGE_SERVICE_TEXTS.accountNotFound);
      return presentStorageAccountRow(await found(id));
    },

    /**
     * The account's buckets at the service joined with the portal's rows (001 §3): buckets found there are
     * recorded as unmanaged; a row whose bucket is gone is shown with that difference. Policies are read a
     * few at a time, each call within the time limit, so many buckets or a slow service cannot hang the page.
     */
    async bucketsWithPolicyInfo(id: number): Promise<Elements<BucketWithPolicyInfo>> {
      await found(id);
      const names = await atService((provider) => provider.listBuckets(), id);
      await repo.addFoundBuckets(id, names);
      const atTheService = new Set(names);
      const buckets = (await repo.buckets(id)).sort((a, b) => compareNames(a.name, b.name));
      const provider = await atService(async (p) => p, id);
      const infos = await mapWithLimit(buckets, concurrency, (bucket) =>
        policyInfo(provider, bucket, atTheService.has(bucket.name)),
      );
      const namesOf = (policy: string | null) => (policy === null ? [] : policyPrincipals(policy));
      const users = await repo.principals(id, [...new Set(infos.flatMap((info) => namesOf(info.policy)))]);
      return {
        elements: buckets.map((bucket, index) => {
          const info = infos[index] ?? { policy: null, differences: [] };
          const principals = namesOf(info.policy).map((name) => presentPrincipal(name, users.get(name)));
          return presentBucket(bucket, { ...info, principals });
        }),
      };
    },

    /** The portal's users of the account and those found at the service without a row (unmanaged). */
    async users(id: number): Promise<Elements<StorageAccountUserRow>> {
      await found(id);
      const [rows, keys] = await Promise.all([repo.users(id), repo.firstKeyIds(id)]);
      const unknown = await unknownUsersAtService(id, new Set(rows.map((user) => user.name)));
      const elements = [
        ...rows.map((user) => presentStorageUser(user, keys.get(user.id) ?? null)),
        ...unknown.map(({ name, keyIds }) => presentUnknownUser(name, keyIds[0] ?? null)),
      ];
      return { elements: elements.sort((a, b) => compareNames(a.name, b.name)) };
    },

    /** The portal's keys of the account and the keys at the service of users it has no row for (unmanaged). */
    async accessKeys(id: number): Promise<Elements<StorageAccessKeyRow>> {
      await found(id);
      const rows = await repo.accessKeys(id);
      const users = await repo.users(id);
      const unknown = await unknownUsersAtService(id, new Set(users.map((user) => user.name)));
      const foreign = unknown.flatMap(({ name, keyIds }) =>
        keyIds.map((keyId) => presentUnknownAccessKey(name, keyId)),
      );
      const elements = [...rows.map(presentAccessKey), ...foreign];
      // Key ids are codes: plain character order, as the database orders the portal's own.
      return { elements: elements.sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0)) };
    },

    /**
     * Removes a user at the service and its rows (its keys go with them). A managed user still serving a
     * storage location or machine is refused: it is removed with that location or machine, which would
     * otherwise lose its access to its backups.
     */
    async deleteUser(id: number, username: string): Promise<void> {
      const account = await found(id);
      const user = await repo.userNamed(id, username);
      if (user && isUserInUse(user)) throw conflict(TEXT.userInUse);
      if (!user) {
        const atTheService = await atService((provider) => provider.listUsers(), id);
        if (!atTheService.includes(username)) throw notFound(storageUserNotFound(username));
        // The user whose key the portal itself uses for the account would take the whole account with it.
        const keys = await atService((provider) => provider.listAccessKeys(username), id);
        if (account.accessKeyId !== null && keys.includes(account.accessKeyId)) throw conflict(TEXT.accountOwnUser);
      }
      await atService((provider) => provider.deleteUser(username), id);
      if (user) await repo.deleteUser(user.id);
    },

    /** Rewrites the bucket's policy at the service without the principal's grants; nothing to remove is fine. */
    async deletePrincipal(id: number, bucketName: string, principalName: string): Promise<void> {
      await found(id);
      const bucket = await repo.bucketNamed(id, bucketName);
      if (!bucket) throw notFound(bucketNotFound(bucketName));
      const policy = await atService((provider) => provider.getBucketPolicy(bucketName), id);
      const rewritten = policy === null ? null : policyWithoutPrincipal(policy, principalName);
      if (rewritten === null) return;
      await atService((provider) => provider.putBucketPolicy(bucketName, rewritten), id);
      await repo.setBucketPolicy(bucket.id, rewritten);
    },
  };
}
export type StorageAccountService = ReturnType<typeof createStorageAccountService>;
