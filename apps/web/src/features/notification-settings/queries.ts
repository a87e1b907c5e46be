import { ROUTES } from '@portal/domain';
import { routeCall } from '../../app/api';
import { useRouteQuery } from '../../app/useRouteQuery';

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
  return useRouteQuery(notificationKeys.thresholds(), R.thresholds, {});
}
