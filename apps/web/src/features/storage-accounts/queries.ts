import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { appendQuery, getResult, routeCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';

/** Query keys of the storage account pages: the list, and one account's detail, buckets, users and keys. */
export const storageAccountKeys = {
  all: ['storageAccounts'] as const,
  list: () => [...storageAccountKeys.all, 'list'] as const,
  account: (id: number) => [...storageAccountKeys.all, 'account', id] as const,
  detail: (id: number) => [...storageAccountKeys.account(id), 'detail'] as const,
  buckets: (id: number) => [...storageAccountKeys.account(id), 'buckets'] as const,
  users: (id: number) => [...storageAccountKeys.account(id), 'users'] as const,
  accessKeys: (id: number) => [...storageAccountKeys.account(id), 'accessKeys'] as const,
};

export function useStorageAccount(storageAccountId: number) {
  return useRouteQuery(
    storageAccountKeys.detail(storageAccountId),
    ROUTES.storageAccounts.detail,
    { storageAccountId },
    { retry: false },
  );
}

/** Every storage account by name (one page of the largest size): the destinations of an account migration. */
export function useStorageAccountChoices() {
  return useQuery({
    queryKey: [...storageAccountKeys.list(), 'choices'] as const,
    queryFn: async () => {
      const call = routeCall(ROUTES.storageAccounts.list, {});
      const page = await getResult({ ...call, path: appendQuery(call.path, 'page=0&size=200') });
      return page.elements.map(({ id, name }) => ({ id, name }));
    },
  });
}

/** The lists below an account are read once and paged in the browser (001 §7); a failure shows an empty list. */
const elementsOf =
  <T>(read: () => Promise<{ elements: T[] }>) =>
  async () =>
    (await read()).elements;

export function useBuckets(storageAccountId: number) {
  return useQuery({
    queryKey: storageAccountKeys.buckets(storageAccountId),
    queryFn: elementsOf(() => getResult(routeCall(ROUTES.storageAccounts.buckets, { storageAccountId }))),
    retry: false,
  });
}

export function useStorageUsers(storageAccountId: number) {
  return useQuery({
    queryKey: storageAccountKeys.users(storageAccountId),
    queryFn: elementsOf(() => getResult(routeCall(ROUTES.storageAccounts.users, { storageAccountId }))),
    retry: false,
  });
}

export function useAccessKeys(storageAccountId: number) {
  return useQuery({
    queryKey: storageAccountKeys.accessKeys(storageAccountId),
    queryFn: elementsOf(() => getResult(routeCall(ROUTES.storageAccounts.accessKeys, { storageAccountId }))),
    retry: false,
  });
}
