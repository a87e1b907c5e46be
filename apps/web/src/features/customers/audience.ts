import { type AdminAudience, MESSAGES, PAGES } from '@portal/domain';
import type { Crumb } from '../../ui';

const TEXT = MESSAGES.customer;

/**
 * Where an audience's customer pages live: the provider's in the admin area (002 §2.2), a reseller's
 * under /admin/mycustomers in the normal shell (002 §6), reached from the dashboard.
 */
export function customerPagesOf(audience: AdminAudience): { listTitle: string; listHref: string; crumbs: Crumb[] } {
  return audience === 'provider'
    ? {
        listTitle: TEXT.customersTitle,
        listHref: PAGES.providerCustomers,
        crumbs: [{ label: TEXT.adminAreaCrumb, href: PAGES.providerCustomers }],
      }
    : {
        listTitle: TEXT.myCustomersTitle,
        listHref: PAGES.resellerCustomers,
        crumbs: [{ label: TEXT.dashboardCrumb, href: PAGES.dashboard }],
      };
}
