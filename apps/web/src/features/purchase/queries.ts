import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

export const purchaseKeys = {
  all: ['purchase'] as const,
  /** The templates on offer to the caller's customer (GET /admin/packagetemplates). */
  templates: () => [...purchaseKeys.all, 'templates'] as const,
};

/** The templates the caller's customer may buy, with their billing prices or the reseller's pricing link. */
export function useTemplatesOnOffer(enabled = true) {
  return useRouteQuery(purchaseKeys.templates(), ROUTES.purchase.templates, {}, { enabled });
}
