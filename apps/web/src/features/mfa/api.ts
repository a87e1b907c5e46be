import { type MfaCodeInput, type MfaPasswordAndCodeInput, ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { call, getResult, routeCall } from '../../app/api';
import { type Refresh, useApiMutation } from '../../ui';
import { profileKeys } from '../profile/queries';

const mfaKeys = { status: () => [...profileKeys.all, 'mfa'] as const };

/** Each change shows at once in the section and in the account activity that records it. */
const REFRESH: readonly Refresh[] = [{ queryKey: profileKeys.all, afterMs: 0 }];

export const useMfaStatus = () =>
  useQuery({ queryKey: mfaKeys.status(), queryFn: () => getResult(routeCall(ROUTES.mfa.status, {})) });

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
