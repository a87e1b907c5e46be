import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

/** Query keys of a customer's storage locations: the list (fetched once), one location, the account choices. */
export const storageLocationKeys = {
  all: ['storageLocations'] as const,
  customer: (customerId: number) => [...storageLocationKeys.all, customerId] as const,
  list: (customerId: number) => [...storageLocationKeys.customer(customerId), 'list'] as const,
  detail: (customerId: number, storageLocationId: number) =>
    [...storageLocationKeys.customer(customerId), 'detail', storageLocationId] as const,
  accounts: (customerId: number) => [...storageLocationKeys.customer(customerId), 'accounts'] as const,
};

/** Every location of the customer (001 §9: fetched once, 10 a page in the browser). */
export function useStorageLocations(customerId: number) {
  return useRouteQuery(storageLocationKeys.list(customerId), ROUTES.storageLocations.list, { customerId });
}

export function useStorageLocation(customerId: number, storageLocationId: number) {
  return useRouteQuery(storageLocationKeys.detail(customerId, storageLocationId), ROUTES.storageLocations.detail, {
    customerId,
    storageLocationId,
  });
}

/** The accounts the Create dialog offers; asked for when the dialog opens. */
export function useStorageAccountChoices(customerId: number, enabled: boolean) {
  return useRouteQuery(
    storageLocationKeys.accounts(customerId),
    ROUTES.storageLocations.accountChoices,
    { customerId },
    { enabled },
  );
}
