import {
  type AdminAudience,
  CUSTOMER_LIST_PATHS,
  type CustomerDetail,
  type CustomerList,
  ROUTES,
  TIMINGS,
} from '@portal/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getResult, routeCall } from '../../app/api';
import { dashboardKeys } from '../dashboard/queries';

/** Query keys of the customer administration: the paged lists, and one customer's page and tables. */
export const customerKeys = {
  all: ['customers'] as const,
  list: (list: CustomerList) => [...customerKeys.all, 'list', list] as const,
  customer: (audience: AdminAudience, customerId: number) =>
    [...customerKeys.all, 'customer', audience, customerId] as const,
  detail: (audience: AdminAudience, customerId: number) =>
    [...customerKeys.customer(audience, customerId), 'detail'] as const,
  packages: (audience: AdminAudience, customerId: number) =>
    [...customerKeys.customer(audience, customerId), 'packages'] as const,
  users: (audience: AdminAudience, customerId: number) =>
    [...customerKeys.customer(audience, customerId), 'users'] as const,
};

/** The list an audience's customers page shows. */
export const customersListOf = (audience: AdminAudience): CustomerList =>
  audience === 'provider' ? 'customers' : 'myCustomers';

/** The paged call of a customer list. */
export const customerListCall = (list: CustomerList) => routeCall(ROUTES.customers.lists[list], {});

/** One customer's page data for the provider or its reseller. */
export function useCustomer(audience: AdminAudience, customerId: number) {
  return useQuery({
    queryKey: customerKeys.detail(audience, customerId),
    queryFn: () => getResult(routeCall(ROUTES.customers[audience].detail, { customerId })),
  });
}

/** 002 §9: the customers-to-make-resellers list refreshes 500 ms after an action, the others 2000 ms. */
const refreshDelay = (list: CustomerList) =>
  list === 'customersToMakeResellers' ? TIMINGS.tableRefreshMs : TIMINGS.customerListRefreshMs;

/**
 * After a change to a customer: its page shows the customer the server answered with at once, and the
 * lists (and the dashboard's, which show its status) refresh after the delays of 002 §9. The timers are
 * not tied to the page, so a list still refreshes after the page was left (e.g. after a deletion).
 */
export function useCustomerChanged() {
  const client = useQueryClient();
  return useCallback(
    (audience: AdminAudience, customerId: number, changed: CustomerDetail | null) => {
      if (changed) client.setQueryData(customerKeys.detail(audience, customerId), changed);
      for (const list of Object.keys(CUSTOMER_LIST_PATHS) as CustomerList[]) {
        setTimeout(() => void client.invalidateQueries({ queryKey: customerKeys.list(list) }), refreshDelay(list));
      }
      setTimeout(
        () => void client.invalidateQueries({ queryKey: dashboardKeys.lists() }),
        TIMINGS.customerListRefreshMs,
      );
    },
    [client],
  );
}
