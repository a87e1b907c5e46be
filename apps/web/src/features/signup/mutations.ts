import { ROUTES, type SignUpPayload } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';

/** POST /signup: a new customer, its super admin and its package request; the visitor sees nothing else change. */
export const useSignUp = () =>
  useApiMutation({
    request: (payload: SignUpPayload) => call(ROUTES.signUp.submit, {}, payload),
    refreshes: () => [],
  });
