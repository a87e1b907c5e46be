import type { Paging } from '@portal/domain';
import { and, desc, eq, isNotNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { countOf, selectPage } from '../../db/paging.js';
import { mailOutbox } from '../../db/schema/index.js';

/** A customer's mails that were given up, or failed and wait for their next attempt. */
export function createMailFailuresRepo(db: Executor) {
  const failedOf = (customerId: number) =>
    and(
      eq(mailOutbox.customerId, customerId),
      or(eq(mailOutbox.status, 'FAILED'), and(eq(mailOutbox.status, 'QUEUED'), isNotNull(mailOutbox.lastError))),
    );
  return {
    async page(customerId: number, paging: Paging) {
      return selectPage(
        db
          .select({
            id: mailOutbox.id,
            kind: mailOutbox.kind,
            recipient: mailOutbox.recipient,
            message: mailOutbox.message,
            status: mailOutbox.status,
            attempts: mailOutbox.attempts,
            lastError: mailOutbox.lastError,
            createdAt: mailOutbox.createdAt,
            nextAttemptAt: mailOutbox.nextAttemptAt,
          })
          .from(mailOutbox)
          .where(failedOf(customerId))
          .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id)),
        () => countOf(db, mailOutbox, failedOf(customerId)),
        paging,
      );
    },
  };
}
export type MailFailuresRepo = ReturnType<typeof createMailFailuresRepo>;
export type MailFailureRecord = Awaited<ReturnType<MailFailuresRepo['page']>>['rows'][number];
