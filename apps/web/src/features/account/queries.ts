import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

export const accountKeys = {
  all: ['account'] as const,
  details: () => [...accountKeys.all, 'details'] as const,
};

/** The customer account of the signed-in admin (GET /admin/account, 001 §2). */
export function useAccount() {
  return useRouteQuery(accountKeys.details(), ROUTES.account.get, {});
}
