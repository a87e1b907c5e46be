import { type ActivityRow, type Profile, ROLE_NAMES } from '@portal/domain';
import type { auditEvents } from '../../db/schema/index.js';
import type { UserWithCustomer } from '../auth/repo.js';

export function presentProfile(user: UserWithCustomer): Profile {
  return {
    id: user.id,
    firstName: user.firstName,
    surname: user.surname,
    email: user.email,
    contactNumber: user.contactNumber,
    role: user.role,
    roleName: ROLE_NAMES[user.role],
    companyName: user.companyName,
    readOnly: user.readOnly,
  };
}

export function presentActivity(row: typeof auditEvents.$inferSelect): ActivityRow {
  return { id: row.id, at: row.at.toISOString(), type: row.type, ipAddress: row.ipAddress };
}
