import { ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult, routeCall } from '../../app/api';

const R = ROUTES.notificationSettings;

export const notificationKeys = {
  all: ['notification-settings'] as const,
  thresholds: () => [...notificationKeys.all, 'thresholds'] as const,
  users: () => [...notificationKeys.all, 'users'] as const,
  machines: () => [...notificationKeys.all, 'machines'] as const,
  failures: () => [...notificationKeys.all, 'failures'] as const,
};

export const NOTIFICATION_CALLS = {
  users: routeCall(R.users, {}),
  machines: routeCall(R.machines, {}),
  failures: routeCall(ROUTES.mail.failures, {}),
};

export function useThresholds() {
  return useQuery({ queryKey: notificationKeys.thresholds(), queryFn: () => getResult(routeCall(R.thresholds, {})) });
}
