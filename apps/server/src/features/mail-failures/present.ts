import { type MailFailureRow, mailKindName } from '@portal/domain';
import type { MailFailureRecord } from './repo.js';

/** The fields a failed mail shows: what, to whom, why and when; never the mail's body (it may hold a link). */
export function presentMailFailure(row: MailFailureRecord): MailFailureRow {
  const givenUp = row.status === 'FAILED';
  return {
    id: row.id,
    kind: row.kind,
    kindName: mailKindName(row.kind),
    recipient: row.recipient,
    subject: row.message.subject,
    status: givenUp ? 'FAILED' : 'QUEUED',
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: givenUp ? null : row.nextAttemptAt.toISOString(),
  };
}
