import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

export const accountKeys = {
  all: ['account'] as const,
  details: () => [...accountKeys.all, 'details'] as const,
};

/** The customer account of the signed-in admin (GET /admin/account, 001 §2). */
export function useAccount() {
  return useQuery({ queryKey: accountKeys.details(), queryFn: () => getResult(routeCall(ROUTES.account.get, {})) });
}
