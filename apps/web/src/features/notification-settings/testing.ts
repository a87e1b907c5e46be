/** Test-only: a user row of the notification settings table (not imported by the app). */
import { defaultNotificationChoices, type NotificationUserRow } from '@portal/domain';

/** Ann Lee (user 7), a plain user as the defaults leave her: notified of nothing, about all her machines. */
export const ANN: NotificationUserRow = {
  userId: 7,
  name: 'Ann Lee',
  email: 'ann@x.test',
  roleName: 'User',
  ...defaultNotificationChoices('ROLE_CUSTOMER_USER'),
  machines: [],
};
