import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

export const billingServerKeys = {
  all: ['billingServers'] as const,
  list: () => [...billingServerKeys.all, 'list'] as const,
};

/** The provider's billing host servers (001 §2); also the choices of the billing server change. */
export function useBillingServers(enabled = true) {
  return useRouteQuery(billingServerKeys.list(), ROUTES.billing.servers, {}, { enabled });
}
