import { NOTIFICATION_LIMITS, ROUTES } from '@portal/domain';
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

const NOTIFICATION_CALLS = {
  users: routeCall(R.users, {}),
  machines: routeCall(R.machines, {}),
  failures: routeCall(ROUTES.mail.failures, {}),
};

/** One of the screen's server-paged lists, for PagedTable: its cache key, its call and the page size. */
export const notificationList = <K extends keyof typeof NOTIFICATION_CALLS>(list: K) => ({
  queryKey: notificationKeys[list](),
  call: NOTIFICATION_CALLS[list],
  size: NOTIFICATION_LIMITS.pageSize,
});

export function useThresholds() {
  return useRouteQuery(notificationKeys.thresholds(), R.thresholds, {});
}
