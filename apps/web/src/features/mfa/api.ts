import { type MfaCodeInput, type MfaPasswordAndCodeInput, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';
import { type Refresh, useApiMutation } from '../../ui';
import { profileKeys } from '../profile/queries';

const mfaKeys = { status: () => [...profileKeys.all, 'mfa'] as const };

/** Each change shows at once in the section and in the account activity that records it. */
const REFRESH: readonly Refresh[] = [{ queryKey: profileKeys.all, afterMs: 0 }];

export const useMfaStatus = () => useRouteQuery(mfaKeys.status(), ROUTES.mfa.status, {});

export const useStartMfa = () => useApiMutation({ request: () => call(ROUTES.mfa.start, {}, {}), refreshes: () => [] });

export const useConfirmMfa = () =>
  useApiMutation({ request: (values: MfaCodeInput) => call(ROUTES.mfa.confirm, {}, values), refreshes: () => REFRESH });

export const useDisableMfa = () =>
  useApiMutation({
    request: (values: MfaPasswordAndCodeInput) => call(ROUTES.mfa.disable, {}, values),
    refreshes: () => REFRESH,
  });

export const useRegenerateRecoveryCodes = () =>
  useApiMutation({
    request: (values: MfaPasswordAndCodeInput) => call(ROUTES.mfa.regenerateRecoveryCodes, {}, values),
    refreshes: () => REFRESH,
  });

export const useMfaSecondStep = () =>
  useApiMutation({ request: (values: MfaCodeInput) => call(ROUTES.mfa.secondStep, {}, values), refreshes: () => [] });
