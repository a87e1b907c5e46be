import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

export const signUpKeys = {
  all: ['signup'] as const,
  options: () => [...signUpKeys.all, 'options'] as const,
};

/** The package templates a new customer may ask for. */
export function useSignUpOptions() {
  return useQuery({
    queryKey: signUpKeys.options(),
    queryFn: () => getResult(routeCall(ROUTES.signUp.options, {})),
  });
}
