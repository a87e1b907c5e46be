import { AUDIT_TEXTS, type AuditRow, auditKindName, auditSubjectText, auditTenantText } from '@portal/domain';
import type { NamedAuditRecord } from './repo.js';

/**
 * The wire fields of a record: every column is already whitelisted when written, so this only shapes them; the
 * names are those the repository resolved for the reader. The subject's kept name travels as subjectName only.
 */
export function presentAuditRow(row: NamedAuditRecord): AuditRow {
  const { subjectName: _kept, ...detail } = row.detail ?? {};
  return {
    id: row.id,
    at: row.at.toISOString(),
    kind: row.type,
    kindName: auditKindName(row.type),
    outcome: row.outcome,
    httpStatus: row.httpStatus,
    userId: row.userId,
    email: row.email,
    name: row.name,
    actorCustomerId: row.actorCustomerId,
    customerId: row.customerId,
    customerName: row.customerName,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    subjectName: row.subjectName,
    ipAddress: row.ipAddress,
    detail: row.detail ? detail : null,
  };
}

export const AUDIT_CSV_HEADER = [
  'Id',
  'Time',
  'Event',
  'Outcome',
  'HTTP status',
  'User id',
  'E-mail',
  'Name',
  'Actor customer',
  'Tenant',
  'Subject',
  'IP address',
  'Detail',
];

export function auditCsvCells(row: AuditRow): Array<string | number | null> {
  return [
    row.id,
    row.at,
    row.kindName,
    row.outcome ? AUDIT_TEXTS.outcomes[row.outcome] : null,
    row.httpStatus,
    row.userId,
    row.email,
    row.name,
    row.actorCustomerId,
    auditTenantText(row),
    auditSubjectText(row),
    row.ipAddress,
    row.detail ? JSON.stringify(row.detail) : null,
  ];
}
