import { type BillingServerChangePayload, type BillingServerPayload, ROUTES, TIMINGS } from '@portal/domain';
import { call } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { customerKeys } from '../customers/queries';
import { billingServerKeys } from './queries';

const LIST_REFRESH: Refresh = { queryKey: billingServerKeys.list(), afterMs: TIMINGS.tableRefreshMs };

/** The billing server dialog's two calls: add, or edit one server (empty secrets keep the stored ones). */
export type BillingServerSave =
  | { mode: 'add'; payload: BillingServerPayload }
  | { mode: 'edit'; whmcsServerId: number; payload: BillingServerPayload };

export const useSaveBillingServer = () =>
  useApiMutation({
    request: (save: BillingServerSave) =>
      save.mode === 'add'
        ? call(ROUTES.billing.addServer, {}, save.payload)
        : call(ROUTES.billing.editServer, { whmcsServerId: save.whmcsServerId }, save.payload),
    refreshes: () => [LIST_REFRESH],
  });

export const useDeleteBillingServer = () =>
  useApiMutation({
    request: (whmcsServerId: number) => call(ROUTES.billing.deleteServer, { whmcsServerId }),
    refreshes: () => [LIST_REFRESH],
  });

/** Test connection: of a saved server, or of the form as it stands (`savedId`: the server it edits). */
export type BillingServerTest =
  | { kind: 'saved'; whmcsServerId: number }
  | { kind: 'form'; payload: BillingServerPayload; savedId: number | null };

export const useTestBillingServer = () =>
  useApiMutation({
    request: (test: BillingServerTest) =>
      test.kind === 'saved'
        ? call(ROUTES.billing.testServer, { whmcsServerId: test.whmcsServerId })
        : call(ROUTES.billing.testForm, {}, { ...test.payload, id: test.savedId }),
    refreshes: () => [],
  });

/** PUT /boltadmin/customers/{id}?whmcsServerId=&paymentMethod= (002 §7.3): answers the customer. */
export const useChangeCustomerBillingServer = () =>
  useApiMutation({
    request: ({ customerId, change }: { customerId: number; change: BillingServerChangePayload }) =>
      call(ROUTES.customers.provider.changeStatus, { customerId }, undefined, { ...change }),
    refreshes: ({ customerId }) => [
      { queryKey: customerKeys.detail('provider', customerId), afterMs: 0 },
      LIST_REFRESH,
    ],
  });
