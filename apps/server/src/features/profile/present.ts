import type { ActivityRow, Profile } from '@portal/domain';
import type { auditEvents } from '../../db/schema/index.js';
import type { UserWithCustomer } from '../auth/repo.js';
import { personColumns } from '../users/present.js';

export function presentProfile(user: UserWithCustomer): Profile {
  return { ...personColumns(user), companyName: user.companyName };
}

export function presentActivity(row: typeof auditEvents.$inferSelect): ActivityRow {
  return { id: row.id, at: row.at.toISOString(), type: row.type, ipAddress: row.ipAddress };
}
