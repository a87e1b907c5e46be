import { type AdminAudience, type CustomerList, ROUTES } from '@portal/domain';
import { routeCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';

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
  return useRouteQuery(customerKeys.detail(audience, customerId), ROUTES.customers[audience].detail, { customerId });
}
