import { ROUTES, type StorageAccountPayload, TIMINGS } from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { storageAccountKeys } from './queries';

const LIST_REFRESH: Refresh = { queryKey: storageAccountKeys.list(), afterMs: TIMINGS.tableRefreshMs };
const accountRefresh = (id: number): Refresh => ({ queryKey: storageAccountKeys.account(id), afterMs: 0 });

/** GET .../setDefaultStorageAccount?storageAccountId= (001 §7): the list and every account page change. */
export const useSetDefaultStorageAccount = () =>
  useApiMutation({
    request: (storageAccountId: number) => call(ROUTES.storageAccounts.setDefault, {}, undefined, { storageAccountId }),
    refreshes: () => [LIST_REFRESH, { queryKey: storageAccountKeys.all, afterMs: TIMINGS.tableRefreshMs }],
  });

/** The account dialog's two calls: add, or edit one account (an empty secret keeps the stored one). */
export type StorageAccountSave =
  | { mode: 'add'; payload: StorageAccountPayload }
  | { mode: 'edit'; storageAccountId: number; payload: StorageAccountPayload };

export const useSaveStorageAccount = () =>
  useApiMutation({
    request: (save: StorageAccountSave) =>
      save.mode === 'add'
        ? call(ROUTES.storageAccounts.add, {}, save.payload)
        : call(ROUTES.storageAccounts.edit, { storageAccountId: save.storageAccountId }, save.payload),
    refreshes: (save) => (save.mode === 'add' ? [LIST_REFRESH] : [LIST_REFRESH, accountRefresh(save.storageAccountId)]),
  });

/** Test connection of the form as it stands (`savedId`: the account it edits, whose secret stands in). */
export const useTestStorageAccount = () =>
  useApiMutation({
    request: ({ payload, savedId }: { payload: StorageAccountPayload; savedId: number | null }) =>
      call(ROUTES.storageAccounts.testConnection, {}, { ...payload, id: savedId }),
    refreshes: () => [],
  });

export const useDeleteStorageUser = (storageAccountId: number) =>
  useApiMutation({
    request: (username: string) => call(ROUTES.storageAccounts.deleteUser, { storageAccountId }, { username }),
    refreshes: () => [
      { queryKey: storageAccountKeys.users(storageAccountId), afterMs: TIMINGS.tableRefreshMs },
      { queryKey: storageAccountKeys.accessKeys(storageAccountId), afterMs: TIMINGS.tableRefreshMs },
    ],
  });

export const useDeletePolicyPrincipal = (storageAccountId: number) =>
  useApiMutation({
    request: (body: { bucketName: string; principalName: string }) =>
      call(ROUTES.storageAccounts.deletePrincipal, { storageAccountId }, body),
    refreshes: () => [{ queryKey: storageAccountKeys.buckets(storageAccountId), afterMs: TIMINGS.tableRefreshMs }],
  });

export const useDeleteStorageAccount = () =>
  useApiMutation({
    request: (storageAccountId: number) => call(ROUTES.storageAccounts.remove, { storageAccountId }),
    refreshes: () => [LIST_REFRESH],
  });
