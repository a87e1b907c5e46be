import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

export const resellerSettingsKeys = {
  all: ['resellerSettings'] as const,
  /** null: the caller's own settings; an id: the provider's view of that customer's. */
  of: (customerId: number | null) => [...resellerSettingsKeys.all, customerId ?? 'own'] as const,
};

/** The settings screen's data: GET /admin/reselleradmin or /boltadmin/customers/{id}/resellersettings. */
export function useResellerSettings(customerId: number | null) {
  return useQuery({
    queryKey: resellerSettingsKeys.of(customerId),
    queryFn: () =>
      customerId === null
        ? getResult(routeCall(ROUTES.resellerSettings.own, {}))
        : getResult(routeCall(ROUTES.resellerSettings.provider, { customerId })),
  });
}
