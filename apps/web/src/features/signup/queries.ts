import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

export const signUpKeys = {
  all: ['signup'] as const,
  options: () => [...signUpKeys.all, 'options'] as const,
};

/** The package templates a new customer may ask for. */
export function useSignUpOptions() {
  return useRouteQuery(signUpKeys.options(), ROUTES.signUp.options, {});
}
