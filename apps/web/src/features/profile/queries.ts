import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

export const profileKeys = {
  all: ['profile'] as const,
  details: () => [...profileKeys.all, 'details'] as const,
  activity: () => [...profileKeys.all, 'activity'] as const,
};

export function useProfile() {
  return useQuery({ queryKey: profileKeys.details(), queryFn: () => getResult(routeCall(ROUTES.profile.get, {})) });
}
