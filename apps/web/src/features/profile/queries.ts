import { ROUTES } from '@portal/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

export const profileKeys = {
  all: ['profile'] as const,
  details: () => [...profileKeys.all, 'details'] as const,
  activity: () => [...profileKeys.all, 'activity'] as const,
};

export function useProfile() {
  return useQuery({ queryKey: profileKeys.details(), queryFn: () => getResult(routeCall(ROUTES.profile.get, {})) });
}

export function useInvalidateProfile() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: profileKeys.all });
}
