import { type AuditRow, auditKindName, auditSubjectText } from '@portal/domain';
import type { AuditRecord } from './repo.js';

/** The wire fields of a record: every column is already whitelisted when written, so this only shapes them. */
export function presentAuditRow(row: AuditRecord): AuditRow {
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
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    ipAddress: row.ipAddress,
    detail: row.detail,
  };
}

export const AUDIT_CSV_HEADER = [
  'Id',
  'Time',
  'Kind',
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
    row.kind,
    row.kindName,
    row.outcome,
    row.httpStatus,
    row.userId,
    row.email,
    row.name,
    row.actorCustomerId,
    row.customerId,
    auditSubjectText(row),
    row.ipAddress,
    row.detail ? JSON.stringify(row.detail) : null,
  ];
}
