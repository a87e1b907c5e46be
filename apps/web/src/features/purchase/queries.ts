import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

export const purchaseKeys = {
  all: ['purchase'] as const,
  /** The templates on offer to the caller's customer (GET /admin/packagetemplates). */
  templates: () => [...purchaseKeys.all, 'templates'] as const,
};

/** The templates the caller's customer may buy, with their billing prices or the reseller's pricing link. */
export function useTemplatesOnOffer(enabled = true) {
  return useQuery({
    queryKey: purchaseKeys.templates(),
    queryFn: () => getResult(routeCall(ROUTES.purchase.templates, {})),
    enabled,
  });
}
