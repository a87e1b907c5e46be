import { type AccountMfaPolicy, type CustomerAccountEditPayload, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';
import { USERS_LIST_REFRESH } from '../users/mutations';
import { accountKeys } from './queries';

/**
 * PUT /admin/account (001 §2): the page shows the account the server answered with at once (or asks
 * for it when none came back), and the users list follows after 500 ms, as a new super admin changes
 * the roles it shows.
 */
export const useEditAccount = () =>
  useApiMutation({
    request: (payload: CustomerAccountEditPayload) => call(ROUTES.account.edit, {}, payload),
    onApplied: ({ envelope }, _payload, client) => {
      if (envelope.result) client.setQueryData(accountKeys.details(), envelope.result);
    },
    refreshes: (_payload, { envelope }) => [
      ...(envelope.result ? [] : [{ queryKey: accountKeys.details(), afterMs: 0 }]),
      USERS_LIST_REFRESH,
    ],
  });

/** PUT /admin/account/mfa/policy (ours, issue 18): the page shows the account the server answered with. */
export const useSetMfaPolicy = () =>
  useApiMutation({
    request: (payload: AccountMfaPolicy) => call(ROUTES.account.mfaPolicy, {}, payload),
    onApplied: ({ envelope }, _payload, client) => {
      if (envelope.result) client.setQueryData(accountKeys.details(), envelope.result);
    },
    refreshes: (_payload, { envelope }) => (envelope.result ? [] : [{ queryKey: accountKeys.details(), afterMs: 0 }]),
  });
