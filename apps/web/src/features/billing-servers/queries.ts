import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

export const billingServerKeys = {
  all: ['billingServers'] as const,
  list: () => [...billingServerKeys.all, 'list'] as const,
};

/** The provider's billing host servers (001 §2); also the choices of the billing server change. */
export function useBillingServers(enabled = true) {
  return useQuery({
    queryKey: billingServerKeys.list(),
    queryFn: () => getResult(routeCall(ROUTES.billing.servers, {})),
    enabled,
  });
}
