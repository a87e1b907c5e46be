import { ROUTES } from '@portal/domain';
import { useRouteQuery } from '../../app/useRouteQuery';

export const profileKeys = {
  all: ['profile'] as const,
  details: () => [...profileKeys.all, 'details'] as const,
  activity: () => [...profileKeys.all, 'activity'] as const,
};

export function useProfile() {
  return useRouteQuery(profileKeys.details(), ROUTES.profile.get, {});
}
