import { type NotificationThresholdsPayload, type NotificationUserSettingsInput, ROUTES } from '@portal/domain';
import { call } from '../../app/api';
import { useApiMutation } from '../../ui';
import { notificationKeys } from './queries';

const R = ROUTES.notificationSettings;

/** PUT /admin/notificationsettings/thresholds: answers the saved thresholds. */
export const useSaveThresholds = () =>
  useApiMutation({
    request: (payload: NotificationThresholdsPayload) => call(R.saveThresholds, {}, payload),
    refreshes: () => [{ queryKey: notificationKeys.thresholds(), afterMs: 0 }],
  });

/** PUT /admin/notificationsettings/users/{userId}: answers the user's row as saved. */
export const useSaveUserNotifications = () =>
  useApiMutation({
    request: ({ userId, payload }: { userId: number; payload: NotificationUserSettingsInput }) =>
      call(R.saveUser, { userId }, payload),
    refreshes: () => [{ queryKey: notificationKeys.users(), afterMs: 0 }],
  });
