import {
  type AdminAudience,
  type CustomerDetail,
  type CustomerList,
  type CustomerPluginSettingsPayload,
  type CustomerStatus,
  ROUTES,
  TIMINGS,
} from '@portal/domain';
import { type ApiResult, call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { dashboardKeys } from '../dashboard/queries';
import { customerKeys } from './queries';

/** 002 §9: the customers-to-make-resellers list refreshes 500 ms after an action, the others 2000 ms. */
const refreshDelay = (list: CustomerList) =>
  list === 'customersToMakeResellers' ? TIMINGS.tableRefreshMs : TIMINGS.customerListRefreshMs;

/** Every customer list, and the dashboard's (which show the customer's status), after the delays of 002 §9. */
const CUSTOMER_CHANGE_REFRESHES: readonly Refresh[] = [
  ...(Object.keys(ROUTES.customers.lists) as CustomerList[]).map((list) => ({
    queryKey: customerKeys.list(list),
    afterMs: refreshDelay(list),
  })),
  { queryKey: dashboardKeys.lists(), afterMs: TIMINGS.customerListRefreshMs },
];

interface CustomerVariables {
  customerId: number;
}

/**
 * A change to one customer: its page shows the customer the server answered with at once, and the lists
 * refresh after the delays of 002 §9 (also after the page was left, e.g. after a deletion).
 */
function useCustomerMutation<V extends CustomerVariables>(
  audience: AdminAudience,
  request: (variables: V) => Promise<ApiResult<CustomerDetail | null>>,
) {
  return useApiMutation({
    request,
    onApplied: ({ envelope }, { customerId }, client) => {
      if (envelope.result) client.setQueryData(customerKeys.detail(audience, customerId), envelope.result);
    },
    refreshes: () => CUSTOMER_CHANGE_REFRESHES,
  });
}

/** PUT …/customers/{id}?status= (002 §4.1, §7.3): answers the changed customer. */
export const useChangeCustomerStatus = (audience: AdminAudience) =>
  useCustomerMutation(audience, ({ customerId, status }: CustomerVariables & { status: CustomerStatus }) =>
    call(ROUTES.customers[audience].changeStatus, { customerId }, undefined, { status }),
  );

/** DELETE …/customers/{id} (002 §4.1): the deletion goes on in the background. */
export const useDeleteCustomer = (audience: AdminAudience) =>
  useCustomerMutation(audience, ({ customerId }: CustomerVariables) =>
    call(ROUTES.customers[audience].remove, { customerId }),
  );

/** PUT /boltadmin/customers/{id}/plugins (002 §7.3, provider only): answers the changed customer. */
export const useSaveCustomerPlugins = () =>
  useCustomerMutation(
    'provider',
    ({ customerId, settings }: CustomerVariables & { settings: CustomerPluginSettingsPayload }) =>
      call(ROUTES.customers.plugins, { customerId }, settings),
  );

/** PUT /boltadmin/customers/{id}/makereseller, empty body (002 §4.5): answers the new reseller. */
export const useMakeReseller = () =>
  useCustomerMutation('provider', ({ customerId }: CustomerVariables) =>
    call(ROUTES.customers.makeReseller, { customerId }),
  );
