import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import {
  apiTokens,
  customers,
  passwordResetTokens,
  resellerSettings,
  sessions,
  signInFailures,
  userMfa,
  users,
} from '../../db/schema/index.js';

/** What decides whether a user must use two-factor sign-in (the app's policy: role, account, demo login). */
export type MfaPolicySubject = Pick<UserWithCustomer, 'role' | 'email' | 'customerRequiresMfa'>;

/** The signed-in user with what the permission rules need to know about their customer. */
export interface UserWithCustomer {
  id: number;
  email: string;
  firstName: string;
  surname: string;
  contactNumber: string;
  passwordHash: string;
  role: (typeof users.$inferSelect)['role'];
  status: (typeof users.$inferSelect)['status'];
  readOnly: boolean;
  customerId: number | null;
  companyName: string | null;
  customerStatus: (typeof customers.$inferSelect)['status'] | null;
  customerBeingDeleted: boolean | null;
  parentResellerCustomerId: number | null;
  unpaidInvoices: number | null;
  resellerEnabled: boolean | null;
  /** Two-factor sign-in is on (a confirmed key). */
  mfaEnabled: boolean;
  /** The user's customer requires two-factor sign-in of every user (its super admin's choice); null without one. */
  customerRequiresMfa: boolean | null;
}

/**
 * Counts one event for a throttle key of sign_in_failures (a failed sign-in, a sign-up) and answers
 * the key's count, which starts again once `windowStart` has passed its last event. Inside a
 * transaction the key's row stays locked until it ends, so concurrent events of one key queue.
 */
export async function countThrottledEvent(db: Executor, key: string, at: Date, windowStart: Date): Promise<number> {
  const [row] = await db
    .insert(signInFailures)
    .values({ key, failures: 1, lastFailureAt: at })
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: {
        failures: sql`case when ${signInFailures.lastFailureAt} < ${windowStart} then 1 else ${signInFailures.failures} + 1 end`,
        lastFailureAt: at,
      },
    })
    .returning({ failures: signInFailures.failures });
  return row?.failures ?? 1;
}

export function createAuthRepo(db: Executor) {
  const userWithCustomerFields = {
    id: users.id,
    email: users.email,
    firstName: users.firstName,
    surname: users.surname,
    contactNumber: users.contactNumber,
    passwordHash: users.passwordHash,
    role: users.role,
    status: users.status,
    readOnly: users.readOnly,
    customerId: users.customerId,
    companyName: customers.companyName,
    customerStatus: customers.status,
    customerBeingDeleted: customers.beingDeleted,
    parentResellerCustomerId: customers.parentResellerCustomerId,
    unpaidInvoices: customers.unpaidInvoices,
    resellerEnabled: resellerSettings.resellerEnabled,
    mfaEnabled: sql<boolean>`${userMfa.enabledAt} is not null`,
    customerRequiresMfa: customers.requireMfa,
  };
  // Prepared: every signed-in request runs it, so neither drizzle nor PostgreSQL builds and plans it each time.
  const sessionWithUser = db
    .select({ session: sessions, user: userWithCustomerFields })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(customers, eq(customers.id, users.customerId))
    .leftJoin(resellerSettings, eq(resellerSettings.customerId, users.customerId))
    .leftJoin(userMfa, eq(userMfa.userId, users.id))
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare('auth_session_with_user');
  const selectUserWithCustomer = () =>
    db
      .select(userWithCustomerFields)
      .from(users)
      .leftJoin(customers, eq(customers.id, users.customerId))
      .leftJoin(resellerSettings, eq(resellerSettings.customerId, users.customerId))
      .leftJoin(userMfa, eq(userMfa.userId, users.id));

  return {
    async findUserByEmail(email: string): Promise<UserWithCustomer | null> {
      const rows = await selectUserWithCustomer().where(eq(sql`lower(${users.email})`, email.toLowerCase()));
      return rows[0] ?? null;
    },
    async findUserById(id: number): Promise<UserWithCustomer | null> {
      const rows = await selectUserWithCustomer().where(eq(users.id, id));
      return rows[0] ?? null;
    },
    /** The session and its user in one round trip: every signed-in request starts here. */
    async findSessionWithUser(id: string) {
      return oneOrNull(sessionWithUser.execute({ id }));
    },
    async insertSession(values: typeof sessions.$inferInsert): Promise<void> {
      await db.insert(sessions).values(values);
    },
    async touchSession(id: string, at: Date): Promise<void> {
      await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
    },
    async deleteSession(id: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.id, id));
    },
    /** Every personal API token of the user (a password reset ends them with the sessions); how many there were. */
    async deleteApiTokensOfUser(userId: number): Promise<number> {
      const removed = await db.delete(apiTokens).where(eq(apiTokens.userId, userId)).returning({ id: apiTokens.id });
      return removed.length;
    },
    async deleteSessionsOfUser(userId: number, exceptSessionId?: string): Promise<void> {
      await db
        .delete(sessions)
        .where(
          exceptSessionId
            ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId))
            : eq(sessions.userId, userId),
        );
    },
    async deleteExpiredSessions(now: Date, idleBefore: Date): Promise<void> {
      await db.delete(sessions).where(sql`${sessions.expiresAt} < ${now} or ${sessions.lastSeenAt} < ${idleBefore}`);
    },
    async failuresFor(keys: string[]) {
      if (keys.length === 0) return [];
      return db
        .select()
        .from(signInFailures)
        .where(
          sql`${signInFailures.key} in (${sql.join(
            keys.map((k) => sql`${k}`),
            sql`, `,
          )})`,
        );
    },
    /** Adds one failure per key, starting again after the window has passed. */
    async recordFailure(key: string, at: Date, windowStart: Date): Promise<void> {
      await countThrottledEvent(db, key, at, windowStart);
    },
    async clearFailures(key: string): Promise<void> {
      await db.delete(signInFailures).where(eq(signInFailures.key, key));
    },
    async updatePassword(userId: number, passwordHash: string, at: Date): Promise<void> {
      await db.update(users).set({ passwordHash, passwordChangedAt: at }).where(eq(users.id, userId));
    },
    async insertResetToken(values: typeof passwordResetTokens.$inferInsert): Promise<void> {
      await db.insert(passwordResetTokens).values(values);
    },
    async countRecentResetTokens(userId: number, since: Date): Promise<number> {
      const rows = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(passwordResetTokens)
        .where(and(eq(passwordResetTokens.userId, userId), gt(passwordResetTokens.createdAt, since)));
      return rows[0]?.n ?? 0;
    },
    /**
     * Marks a token used if it is still valid; returns its user. Done in one UPDATE so two
     * concurrent uses of the same link cannot both succeed.
     */
    async consumeResetToken(tokenHash: string, now: Date): Promise<number | null> {
      const rows = await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        )
        .returning({ userId: passwordResetTokens.userId });
      return rows[0]?.userId ?? null;
    },
    async deleteStaleResetTokens(before: Date): Promise<void> {
      await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, before));
    },
  };
}
export type AuthRepo = ReturnType<typeof createAuthRepo>;
