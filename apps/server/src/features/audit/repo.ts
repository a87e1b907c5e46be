import {
  AUDIT_COUNT_LIMIT,
  AUDIT_EVENT_TYPES,
  type AuditEventType,
  type AuditFilter,
  type AuditOutcome,
} from '@portal/domain';
import { and, count, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { auditEvents, users } from '../../db/schema/index.js';
import { accountOf } from './tenants.js';

/** An explicit security event (AUDIT_EVENT_TYPES) or the key of an audited route (`customers.provider.remove`). */
export type AuditKind = AuditEventType | `${string}.${string}`;

/**
 * One record. The first six fields are the call shape every feature uses (`audit.record({type, userId, customerId,
 * email, ipAddress, detail})`); the rest are optional. `customerId` is the tenant, the customer whose data it is.
 * `detail` holds whitelisted ids and names only: never a body, a password, a token or a key.
 */
export interface AuditEventInput {
  type: AuditKind;
  userId?: number | null;
  customerId?: number | null;
  email?: string | null;
  ipAddress?: string | null;
  detail?: Record<string, unknown>;
  /** The actor's name; looked up from userId in the same insert when left out. */
  name?: string | null;
  /** The actor's own customer; the tenant when left out (an event of one's own account). */
  actorCustomerId?: number | null;
  /** The tenant's reseller, else the tenant; read from the tenant's row in the same insert when left out. */
  accountCustomerId?: number | null;
  subjectType?: string | null;
  subjectId?: number | null;
  /** By default a `…_FAILED`, `…_THROTTLED` or `…_REFUSED` event is refused, any other succeeded. */
  outcome?: AuditOutcome;
  httpStatus?: number | null;
}

/**
 * Which records a reader sees: every tenant's (the provider's page), an account's (a direct customer's or a
 * reseller's account page: its own and, for a reseller, its customers'), or one tenant's (a reseller's customer).
 */
export type AuditScope = { all: true } | { accountCustomerId: number } | { customerId: number };

const defaultOutcome = (type: string): AuditOutcome =>
  /_(FAILED|THROTTLED|REFUSED)$/.test(type) ? 'refused' : 'succeeded';

export function createAuditRepo(db: Executor) {
  const matching = (scope: AuditScope, filter: Partial<AuditFilter>): SQL | undefined => {
    return and(
      'accountCustomerId' in scope ? eq(auditEvents.accountCustomerId, scope.accountCustomerId) : undefined,
      'customerId' in scope ? eq(auditEvents.customerId, scope.customerId) : undefined,
      // Within an account, the filter narrows to one of its tenants; a single tenant's scope is not widened.
      filter.customerId !== undefined && !('customerId' in scope)
        ? eq(auditEvents.customerId, filter.customerId)
        : undefined,
      filter.from ? gte(auditEvents.at, filter.from) : undefined,
      filter.to ? lte(auditEvents.at, filter.to) : undefined,
      filter.email ? eq(sql`lower(${auditEvents.email})`, filter.email.toLowerCase()) : undefined,
      filter.kind ? eq(auditEvents.type, filter.kind) : undefined,
      filter.subjectType ? eq(auditEvents.subjectType, filter.subjectType) : undefined,
      filter.subjectId ? eq(auditEvents.subjectId, filter.subjectId) : undefined,
      filter.outcome ? eq(auditEvents.outcome, filter.outcome) : undefined,
    );
  };

  return {
    async record(event: AuditEventInput): Promise<void> {
      const userId = event.userId ?? null;
      const name =
        event.name ??
        (userId === null
          ? null
          : sql`(select ${users.firstName} || ' ' || ${users.surname} from ${users} where ${users.id} = ${userId})`);
      const customerId = event.customerId ?? null;
      const accountCustomerId =
        event.accountCustomerId !== undefined || customerId === null
          ? (event.accountCustomerId ?? null)
          : accountOf(sql`${customerId}::int`);
      await db.insert(auditEvents).values({
        type: event.type,
        userId,
        customerId,
        accountCustomerId,
        actorCustomerId: event.actorCustomerId === undefined ? (event.customerId ?? null) : event.actorCustomerId,
        email: event.email ?? null,
        name,
        ipAddress: event.ipAddress ?? null,
        subjectType: event.subjectType ?? null,
        subjectId: event.subjectId ?? null,
        outcome: event.outcome ?? defaultOutcome(event.type),
        httpStatus: event.httpStatus ?? null,
        detail: event.detail ?? null,
      });
    },

    /** A user's own security events (the profile's activity list). */
    async pageForUser(userId: number, page: number, size: number) {
      const own = and(eq(auditEvents.userId, userId), inArray(auditEvents.type, [...AUDIT_EVENT_TYPES]));
      const [rows, total] = await Promise.all([
        db
          .select()
          .from(auditEvents)
          .where(own)
          .orderBy(desc(auditEvents.at), desc(auditEvents.id))
          .limit(size)
          .offset(page * size),
        db.select({ n: count() }).from(auditEvents).where(own),
      ]);
      return { rows, total: total[0]?.n ?? 0 };
    },

    /** One page, newest first, and the number of matching records up to AUDIT_COUNT_LIMIT. */
    async page(scope: AuditScope, filter: Partial<AuditFilter>, paging: { page: number; size: number }) {
      const where = matching(scope, filter);
      const capped = db.select({ one: sql`1` }).from(auditEvents).where(where).limit(AUDIT_COUNT_LIMIT).as('capped');
      const [rows, total] = await Promise.all([
        db
          .select()
          .from(auditEvents)
          .where(where)
          .orderBy(desc(auditEvents.at), desc(auditEvents.id))
          .limit(paging.size)
          .offset(paging.page * paging.size),
        db.select({ n: count() }).from(capped),
      ]);
      return { rows, total: total[0]?.n ?? 0 };
    },

    /**
     * Every matching record, newest first, in batches walked by (at, id): no offset grows with the export. The
     * cursor keeps `at` as the database's text, since a JavaScript date drops its microseconds.
     */
    async *all(scope: AuditScope, filter: Partial<AuditFilter>, batchSize = 1000) {
      let cursor: { at: string; id: number } | null = null;
      for (;;) {
        const after: SQL | undefined = cursor
          ? sql`(${auditEvents.at}, ${auditEvents.id}) < (${cursor.at}::timestamptz, ${cursor.id})`
          : undefined;
        const rows = await db
          .select({ row: auditEvents, atText: sql<string>`${auditEvents.at}::text` })
          .from(auditEvents)
          .where(and(matching(scope, filter), after))
          .orderBy(desc(auditEvents.at), desc(auditEvents.id))
          .limit(batchSize);
        for (const { row } of rows) yield row;
        const last = rows.at(-1);
        if (!last || rows.length < batchSize) return;
        cursor = { at: last.atText, id: last.row.id };
      }
    },
  };
}
export type AuditRepo = ReturnType<typeof createAuditRepo>;
export type AuditRecord = typeof auditEvents.$inferSelect;

/**
 * Deletes the records older than `before`, a batch per transaction: the only delete of the trail, which the
 * database allows only in a transaction that names itself the retention job (migration audit_immutable).
 */
export async function pruneAuditEvents(db: Db, before: Date, batchSize = 5000): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('portal.audit_prune', 'on', true)`);
      const gone = await tx
        .delete(auditEvents)
        .where(
          inArray(
            auditEvents.id,
            tx.select({ id: auditEvents.id }).from(auditEvents).where(lt(auditEvents.at, before)).limit(batchSize),
          ),
        )
        .returning({ id: auditEvents.id });
      return gone.length;
    });
    removed += n;
    if (n < batchSize) return removed;
  }
}
