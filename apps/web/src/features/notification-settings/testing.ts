/** Test-only: a user row of the notification settings table (not imported by the app). */
import type { NotificationUserRow } from '@portal/domain';

/** Ann Lee (user 7): notified of nothing, about all her machines. */
export const ANN: NotificationUserRow = {
  userId: 7,
  name: 'Ann Lee',
  email: 'ann@x.test',
  roleName: 'User',
  runFailed: false,
  runWarnings: false,
  runMissed: false,
  machineOffline: false,
  quota: false,
  verification: false,
  summary: 'NONE',
  allMachines: true,
  machines: [],
};
