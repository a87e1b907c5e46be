import { ROUTES, TIMINGS } from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { customerKeys } from '../customers/queries';
import { storageLocationKeys } from './queries';

interface LocationVariables {
  customerId: number;
  storageLocationId: number;
}

/** A change to a customer's locations: its tables refresh 500 ms after (001 §9), the customer page too. */
const refreshesOf = ({ customerId }: { customerId: number }): readonly Refresh[] => [
  { queryKey: storageLocationKeys.customer(customerId), afterMs: TIMINGS.tableRefreshMs },
  { queryKey: customerKeys.detail('provider', customerId), afterMs: TIMINGS.tableRefreshMs },
];

/** POST …/storagelocations {storageAccountId} (001 §7). */
export const useCreateStorageLocation = () =>
  useApiMutation({
    request: ({ customerId, storageAccountId }: { customerId: number; storageAccountId: number }) =>
      call(ROUTES.storageLocations.create, { customerId }, { storageAccountId }),
    refreshes: refreshesOf,
  });

/**
 * DELETE …/storagelocations/{id} (001 §7). The location's own page is not read again: it is gone, and its
 * page would turn into the not-found page under a dialog still showing what the deletion left behind.
 */
export const useDeleteStorageLocation = () =>
  useApiMutation({
    request: ({ customerId, storageLocationId }: LocationVariables) =>
      call(ROUTES.storageLocations.remove, { customerId, storageLocationId }),
    refreshes: ({ customerId }: LocationVariables): readonly Refresh[] => [
      { queryKey: storageLocationKeys.list(customerId), afterMs: TIMINGS.tableRefreshMs },
      { queryKey: customerKeys.detail('provider', customerId), afterMs: TIMINGS.tableRefreshMs },
    ],
  });

/** PUT …/storagelocations/{id}/makedefault, empty body (001 §7). */
export const useMakeDefaultStorageLocation = () =>
  useApiMutation({
    request: ({ customerId, storageLocationId }: LocationVariables) =>
      call(ROUTES.storageLocations.makeDefault, { customerId, storageLocationId }),
    refreshes: refreshesOf,
  });
