import {
  AUDIT_COUNT_LIMIT,
  AUDIT_EVENT_TYPES,
  type AuditEventType,
  type AuditFilter,
  type AuditOutcome,
  type ListCursor,
  type Paging,
} from '@portal/domain';
import { and, count, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../../db/client.js';
import {
  countOf,
  type KeysetOrder,
  keysetAfter,
  keysetKeyText,
  keysetOrderBy,
  selectKeysetPage,
  selectPage,
} from '../../db/paging.js';
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

/** A scope as a cursor names it: a cursor of one account's trail is refused on another's (http/cursor.ts). */
export const auditScopeKey = (scope: AuditScope) =>
  'all' in scope
    ? 'all'
    : 'accountCustomerId' in scope
      ? `account:${scope.accountCustomerId}`
      : `customer:${scope.customerId}`;

/** The trail's order, newest first: the (…, at, id) indexes of each scope and filter (migrations 0021, 0024). */
export const AUDIT_ORDER = {
  key: auditEvents.at,
  id: auditEvents.id,
  direction: 'desc',
} as const satisfies KeysetOrder;

/**
 * Where each subject kind's name is now, and whose the row is: one query per kind present in a page, by its ids
 * (never one per record). A kind without a name of its own (a run, a snapshot) is named by its id.
 */
const SUBJECT_NAMES: Record<string, (ids: SQL) => SQL> = {
  customer: (ids) => sql`select id, display_name as name, id as owner from customers where id in (${ids})`,
  user: (ids) =>
    sql`select id, first_name || ' ' || surname as name, customer_id as owner from users where id in (${ids})`,
  package: (ids) => sql`select id, name, customer_id as owner from backup_packages where id in (${ids})`,
  machine: (ids) => sql`select id, name, customer_id as owner from backup_machines where id in (${ids})`,
  task: (ids) => sql`select id, name, customer_id as owner from backup_tasks where id in (${ids})`,
  template: (ids) => sql`select id, name, owner_customer_id as owner from package_templates where id in (${ids})`,
  request: (ids) =>
    sql`select r.id, coalesce(p.name, t.name) as name, r.customer_id as owner from package_requests r
        left join backup_packages p on p.id = r.backup_package_id
        left join package_templates t on t.id = r.requested_template_id where r.id in (${ids})`,
  storageAccount: (ids) => sql`select id, name, null::int as owner from storage_accounts where id in (${ids})`,
  storageLocation: (ids) =>
    sql`select l.id, b.name || coalesce('/' || nullif(l.subfolder, ''), '') as name, l.customer_id as owner
        from storage_locations l join buckets b on b.id = l.bucket_id where l.id in (${ids})`,
  whmcsServer: (ids) =>
    sql`select id, description as name, null::int as owner from billing_servers where id in (${ids})`,
  token: (ids) =>
    sql`select k.id, k.name, u.customer_id as owner from api_tokens k join users u on u.id = k.user_id
        where k.id in (${ids})`,
};

/** A subject's name and whose row it is (null: the provider's own). */
export interface SubjectName {
  name: string;
  owner: number | null;
}

/** A record with the names the pages show: its tenant's and its subject's, as they are now. */
export type NamedAuditRecord = AuditRecord & { customerName: string | null; subjectName: string | null };

/** The name a record kept of its subject when written (detail.subjectName), the fallback once the subject is gone. */
const storedSubjectName = (row: AuditRecord): string | null =>
  typeof row.detail?.subjectName === 'string' ? row.detail.subjectName : null;

const idList = (ids: Iterable<number>) =>
  sql.join(
    [...ids].map((id) => sql`${id}::int`),
    sql`, `,
  );

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

  /** The current names of the subjects of these records, by `type:id`: one query per subject kind present. */
  async function subjectNames(refs: ReadonlyArray<{ type: string; id: number }>): Promise<Map<string, SubjectName>> {
    const byType = new Map<string, Set<number>>();
    for (const { type, id } of refs) {
      if (!SUBJECT_NAMES[type]) continue;
      const ids = byType.get(type) ?? new Set<number>();
      ids.add(id);
      byType.set(type, ids);
    }
    const found = new Map<string, SubjectName>();
    await Promise.all(
      [...byType].map(async ([type, ids]) => {
        const query = SUBJECT_NAMES[type];
        if (!query) return;
        const rows = rowsOf<{ id: number; name: string | null; owner: number | null }>(
          await db.execute(query(idList(ids))),
        );
        for (const row of rows) {
          if (row.name) found.set(`${type}:${row.id}`, { name: row.name, owner: row.owner });
        }
      }),
    );
    return found;
  }

  /**
   * The records with their tenant's and subject's names as they are now (a page's worth: a query per kind, not per
   * record). A subject's name is shown only where the subject is the record's tenant's (or to the provider, who
   * sees every tenant): a refused call may name another tenant's row, whose name is not the reader's to learn.
   * A subject gone since keeps the name it had when recorded, which was kept under the same rule.
   */
  async function named(scope: AuditScope, rows: AuditRecord[]): Promise<NamedAuditRecord[]> {
    const refs = rows.flatMap((row) =>
      row.subjectType && row.subjectId !== null ? [{ type: row.subjectType, id: row.subjectId }] : [],
    );
    const tenantIds = new Set(rows.flatMap((row) => (row.customerId === null ? [] : [row.customerId])));
    const [subjects, tenants] = await Promise.all([
      subjectNames(refs),
      tenantIds.size === 0
        ? []
        : rowsOf<{ id: number; name: string }>(
            await db.execute(sql`select id, display_name as name from customers where id in (${idList(tenantIds)})`),
          ),
    ]);
    const tenantNames = new Map(tenants.map((row) => [row.id, row.name || null]));
    return rows.map((row) => {
      const subject = subjects.get(`${row.subjectType}:${row.subjectId}`);
      const visible = subject !== undefined && ('all' in scope || subject.owner === row.customerId);
      return {
        ...row,
        customerName: row.customerId === null ? null : (tenantNames.get(row.customerId) ?? null),
        subjectName: visible ? subject.name : storedSubjectName(row),
      };
    });
  }

  return {
    /** A subject's current name and owner (what a record keeps of it when written), or null. */
    async subjectName(type: string, id: number): Promise<SubjectName | null> {
      return (await subjectNames([{ type, id }])).get(`${type}:${id}`) ?? null;
    },

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
    async pageForUser(userId: number, paging: Paging) {
      const own = and(eq(auditEvents.userId, userId), inArray(auditEvents.type, [...AUDIT_EVENT_TYPES]));
      return selectPage(
        db.select().from(auditEvents).where(own).orderBy(desc(auditEvents.at), desc(auditEvents.id)),
        () => countOf(db, auditEvents, own),
        paging,
      );
    },

    /**
     * One page, newest first: after the cursor's record (keyset) or at a page number, and the number of matching
     * records up to AUDIT_COUNT_LIMIT.
     */
    async page(scope: AuditScope, filter: Partial<AuditFilter>, paging: Paging & { cursor?: ListCursor | undefined }) {
      const where = matching(scope, filter);
      const capped = db.select({ one: sql`1` }).from(auditEvents).where(where).limit(AUDIT_COUNT_LIMIT).as('capped');
      const { rows, total, nextCursor } = await selectKeysetPage(
        db
          .select({ row: auditEvents, cursorKey: keysetKeyText(AUDIT_ORDER) })
          .from(auditEvents)
          .where(and(where, keysetAfter(AUDIT_ORDER, paging.cursor)))
          .orderBy(...keysetOrderBy(AUDIT_ORDER)),
        () => db.select({ total: count() }).from(capped),
        paging,
        (found) => ({ list: 'audit', scope: auditScopeKey(scope), id: found.row.id }),
      );
      return {
        rows: await named(
          scope,
          rows.map((found) => found.row),
        ),
        total: Math.min(total, AUDIT_COUNT_LIMIT),
        nextCursor,
      };
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
        for (const row of await named(
          scope,
          rows.map((found) => found.row),
        ))
          yield row;
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
