import {
  type Actor,
  MFA_PENDING_MINUTES,
  MFA_TEXTS,
  SESSION_DEFAULTS,
  THROTTLE,
  throttleDelaySeconds,
} from '@portal/domain';
import { badRequest, throttledOn } from '../../http/errors.js';
import type { AuditRepo } from '../audit/repo.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { AuthRepo, MfaPolicySubject, UserWithCustomer } from './repo.js';
import { createSessionChanges, type SessionChanges } from './session-cache.js';
import { newToken, sha256 } from './tokens.js';

/** A signed-in user's current password checked: right, wrong, or not checked while the throttle waits. */
export type PasswordCheck = { kind: 'right' } | { kind: 'wrong' } | { kind: 'throttled'; waitSeconds: number };

export interface SessionPolicy {
  idleMinutes: number;
  maxHours: number;
  /** Whether the user must have two-factor sign-in (issue 18): without it, they set it up before anything else. */
  mfaRequired?: (user: MfaPolicySubject) => boolean;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

export interface SignedIn {
  sessionId: string;
  csrfToken: string;
  user: UserWithCustomer;
  actor: Actor;
  /** The user must set up two-factor sign-in before anything else: only the enrolment answers. */
  mfaEnrolmentRequired: boolean;
}

/** A half-signed-in session (issue 18): the password was right, the two-factor code is still to come. */
export interface MfaPending {
  sessionId: string;
  csrfToken: string;
  user: UserWithCustomer;
}

export type ResolvedSession = { kind: 'signedIn'; session: SignedIn } | { kind: 'mfaPending'; pending: MfaPending };

/** How a two-factor code was accepted. */
export type SecondFactor = 'totp' | 'recovery';

/** Checks a user's two-factor code and uses it up; null when refused (features/mfa makes it). */
export type SecondFactorCheck = (userId: number, code: string) => Promise<SecondFactor | null>;

export type SecondFactorOutcome =
  | { kind: 'verified'; factor: SecondFactor }
  | { kind: 'failed' }
  | { kind: 'throttled'; waitSeconds: number };

/** A refused code: its field carries the message; the throttle's wait says how long. */
export const codeRefused = (outcome: { kind: 'failed' } | { kind: 'throttled'; waitSeconds: number }) =>
  outcome.kind === 'throttled' ? throttledOn(outcome.waitSeconds, 'code') : badRequest(MFA_TEXTS.codeInvalid, 'code');

export type CredentialsOutcome =
  | { kind: 'verified'; user: UserWithCustomer }
  | { kind: 'failed' }
  | { kind: 'throttled'; waitSeconds: number }
  | { kind: 'suspended' };

export type SignInOutcome =
  | { kind: 'signedIn'; token: string; session: SignedIn }
  | { kind: 'mfaPending'; token: string }
  | { kind: 'failed' }
  | { kind: 'throttled'; waitSeconds: number }
  | { kind: 'suspended' };

export function actorOf(user: UserWithCustomer): Actor {
  const isProvider = user.role === 'ROLE_BOLT_ADMIN_USER';
  return {
    userId: user.id,
    role: user.role,
    customerId: user.customerId,
    resellerEnabled: isProvider || user.resellerEnabled === true,
    boltCustomer: !isProvider && user.customerId !== null && user.parentResellerCustomerId === null,
    readOnly: user.readOnly,
  };
}

/** Whether the user's account lets them in at all (inactive users and shut customers do not). */
export function accountOpen(user: UserWithCustomer): boolean {
  if (user.status !== 'ACTIVE') return false;
  if (user.customerId === null) return user.role === 'ROLE_BOLT_ADMIN_USER';
  return !user.customerBeingDeleted && user.customerStatus !== 'SUSPENDED' && user.customerStatus !== 'BLOCKED';
}

const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
const addressKey = (ip: string) => `address:${ip}`;
/** Two-factor failures count per user, apart from the password's key, which a right password clears. */
const mfaKey = (userId: number) => `mfa:${userId}`;

export function createAuthService(deps: {
  auth: AuthRepo;
  audit: AuditRepo;
  policy: SessionPolicy;
  /** Checks and uses up a two-factor code (features/mfa). */
  secondFactor: SecondFactorCheck;
  /** Resolved sessions remembered in the process, and how their changes reach every instance (session-cache.ts). */
  sessions?: SessionChanges;
  now?: () => Date;
}) {
  const { auth, audit, policy } = deps;
  const now = deps.now ?? (() => new Date());
  const sessions = deps.sessions ?? createSessionChanges({ ttlMs: 0 });
  // Writing last-seen on every request would make each page view a write; a minute's slack is
  // far below the idle timeout.
  const touchSlackMs = 60_000;

  async function throttleWait(keys: string[], at: Date): Promise<number> {
    const rows = await auth.failuresFor(keys);
    let wait = 0;
    for (const row of rows) {
      if (at.getTime() - row.lastFailureAt.getTime() > THROTTLE.windowSeconds * 1000) continue;
      const free = row.key.startsWith('address:') ? THROTTLE.freeAttemptsPerAddress : THROTTLE.freeAttemptsPerAccount;
      const delayMs = throttleDelaySeconds(row.failures, free) * 1000;
      const remaining = row.lastFailureAt.getTime() + delayMs - at.getTime();
      wait = Math.max(wait, Math.ceil(remaining / 1000));
    }
    return wait;
  }

  /** The throttle's wait for these keys, audited when there is one. */
  async function throttledFor(keys: string[], at: Date, client: ClientInfo, email?: string): Promise<number> {
    const wait = await throttleWait(keys, at);
    if (wait > 0) {
      await audit.record({ type: 'SIGN_IN_THROTTLED', email, ipAddress: client.ip, detail: { waitSeconds: wait } });
    }
    return wait;
  }

  async function recordFailures(keys: string[], at: Date): Promise<void> {
    const windowStart = new Date(at.getTime() - THROTTLE.windowSeconds * 1000);
    for (const key of keys) await auth.recordFailure(key, at, windowStart);
  }

  /** Whether the account is open; a closed one is audited as a failed sign-in. */
  async function openAccount(user: UserWithCustomer, client: ClientInfo, email = user.email): Promise<boolean> {
    if (accountOpen(user)) return true;
    await audit.record({
      type: 'SIGN_IN_FAILED',
      userId: user.id,
      customerId: user.customerId,
      email,
      ipAddress: client.ip,
      detail: { reason: 'account closed' },
    });
    return false;
  }

  const mfaEnrolmentRequired = (user: UserWithCustomer) => !user.mfaEnabled && policy.mfaRequired?.(user) === true;

  const signedInAs = (sessionId: string, csrfToken: string, user: UserWithCustomer): SignedIn => ({
    sessionId,
    csrfToken,
    user,
    actor: actorOf(user),
    mfaEnrolmentRequired: mfaEnrolmentRequired(user),
  });

  /** A new session; `mfaPending` makes it the short-lived half of a two-factor sign-in. */
  async function startSession(
    user: UserWithCustomer,
    client: ClientInfo,
    mfaPending = false,
  ): Promise<{ token: string; sessionId: string; csrfToken: string }> {
    const token = newToken();
    const at = now();
    const sessionId = sha256(token);
    const csrfToken = newToken();
    const lifetimeMs = mfaPending ? MFA_PENDING_MINUTES * 60_000 : policy.maxHours * 3_600_000;
    await auth.insertSession({
      id: sessionId,
      userId: user.id,
      csrfToken,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + lifetimeMs),
      ipAddress: client.ip,
      userAgent: client.userAgent?.slice(0, 255) ?? null,
      mfaPending,
    });
    return { token, sessionId, csrfToken };
  }

  const auditSignIn = (user: UserWithCustomer, client: ClientInfo, email = user.email) =>
    audit.record({
      type: 'SIGN_IN_SUCCEEDED',
      userId: user.id,
      customerId: user.customerId,
      email,
      ipAddress: client.ip,
    });

  const service = {
    /**
     * The caller a personal API token stands for (issue 18): its owner, with no session and no CSRF token, and
     * held to the same two-factor enrolment requirement as a session would be.
     */
    tokenCaller: (user: UserWithCustomer): SignedIn => signedInAs('', '', user),

    /** The user signs in with a second factor: they have it on, or must set it up before anything else. */
    needsSecondFactor: (user: UserWithCustomer): boolean => user.mfaEnabled || mfaEnrolmentRequired(user),

    /**
     * Checks an e-mail and password with the sign-in throttle and audit trail, without starting a
     * session: sign-in and machine linking (the agent signs in as its user) both go through here. A user
     * with two-factor sign-in is not signed in yet: the caller asks for the code (user.mfaEnabled), and
     * the sign-in is audited once the code is right.
     */
    async verifyCredentials(email: string, password: string, client: ClientInfo): Promise<CredentialsOutcome> {
      const at = now();
      const keys = [accountKey(email), addressKey(client.ip)];
      const wait = await throttledFor(keys, at, client, email);
      if (wait > 0) return { kind: 'throttled', waitSeconds: wait };
      const user = await auth.findUserByEmail(email);
      const valid = await verifyPassword(user?.passwordHash ?? null, password);
      if (!user || !valid) {
        await recordFailures(keys, at);
        await audit.record({
          type: 'SIGN_IN_FAILED',
          userId: user?.id ?? null,
          customerId: user?.customerId ?? null,
          email,
          ipAddress: client.ip,
        });
        return { kind: 'failed' };
      }
      await auth.clearFailures(accountKey(email));
      if (!(await openAccount(user, client, email))) return { kind: 'suspended' };
      if (!user.mfaEnabled) await auditSignIn(user, client, email);
      return { kind: 'verified', user };
    },

    /**
     * Checks a one-time code that stands for a user (a machine linking code) with the per-address part
     * of the sign-in throttle: every unknown code counts as a failed sign-in from the caller's address,
     * so guessing codes is slowed down exactly like guessing passwords. `ownerOf` answers the user id
     * of a live code, or null.
     */
    async verifyOneTimeCode(ownerOf: () => Promise<number | null>, client: ClientInfo): Promise<CredentialsOutcome> {
      const at = now();
      const keys = [addressKey(client.ip)];
      const wait = await throttledFor(keys, at, client);
      if (wait > 0) return { kind: 'throttled', waitSeconds: wait };
      const userId = await ownerOf();
      const user = userId === null ? null : await auth.findUserById(userId);
      if (!user) {
        await recordFailures(keys, at);
        await audit.record({ type: 'SIGN_IN_FAILED', ipAddress: client.ip, detail: { reason: 'one-time code' } });
        return { kind: 'failed' };
      }
      if (!(await openAccount(user, client))) return { kind: 'suspended' };
      return { kind: 'verified', user };
    },

    async signIn(email: string, password: string, client: ClientInfo): Promise<SignInOutcome> {
      const outcome = await service.verifyCredentials(email, password, client);
      if (outcome.kind !== 'verified') return outcome;
      const { user } = outcome;
      if (user.mfaEnabled) return { kind: 'mfaPending', token: (await startSession(user, client, true)).token };
      const started = await startSession(user, client);
      return {
        kind: 'signedIn',
        token: started.token,
        session: signedInAs(started.sessionId, started.csrfToken, user),
      };
    },

    /**
     * Checks a two-factor code of a user with the sign-in throttle (its own key per user, and the
     * caller's address) and audit trail, and uses it up: the second step of sign-in, and what turning
     * two-factor sign-in off or making new recovery codes asks for.
     */
    async verifySecondFactor(user: UserWithCustomer, code: string, client: ClientInfo): Promise<SecondFactorOutcome> {
      const at = now();
      const keys = [mfaKey(user.id), addressKey(client.ip)];
      const wait = await throttledFor(keys, at, client, user.email);
      if (wait > 0) return { kind: 'throttled', waitSeconds: wait };
      const factor = await deps.secondFactor(user.id, code);
      const who = { userId: user.id, customerId: user.customerId, email: user.email, ipAddress: client.ip };
      if (factor === null) {
        await recordFailures(keys, at);
        await audit.record({ type: 'MFA_CODE_FAILED', ...who });
        return { kind: 'failed' };
      }
      await auth.clearFailures(mfaKey(user.id));
      if (factor === 'recovery') await audit.record({ type: 'MFA_RECOVERY_CODE_USED', ...who });
      return { kind: 'verified', factor };
    },

    /**
     * The second step of a two-factor sign-in: a right code replaces the half-signed-in session with a
     * whole one under a new token (the half one's token is never a signed-in session's).
     */
    async completeSignIn(pending: MfaPending, code: string, client: ClientInfo): Promise<SignInOutcome> {
      const outcome = await service.verifySecondFactor(pending.user, code, client);
      if (outcome.kind !== 'verified') return outcome;
      await auth.deleteSession(pending.sessionId);
      await sessions.changed({ sessionId: pending.sessionId });
      await auditSignIn(pending.user, client);
      const started = await startSession(pending.user, client);
      return {
        kind: 'signedIn',
        token: started.token,
        session: signedInAs(started.sessionId, started.csrfToken, pending.user),
      };
    },

    /**
     * The session of a cookie token, or null when unknown, expired or idle too long (it is then removed).
     * `touch: false` checks without counting as activity (the live channel's periodic checks).
     */
    async resolve(token: string | undefined, options: { touch?: boolean } = {}): Promise<SignedIn | null> {
      const found = await service.resolveAny(token, options);
      return found?.kind === 'signedIn' ? found.session : null;
    },

    /** Like resolve, and a half-signed-in session (issue 18) is answered as such rather than as none. */
    async resolveAny(token: string | undefined, options: { touch?: boolean } = {}): Promise<ResolvedSession | null> {
      if (!token || token.length > 100) return null;
      const id = sha256(token);
      const found = await sessions.cache.read(id, () => auth.findSessionWithUser(id));
      if (!found) return null;
      const at = now();
      const { session, user } = found;
      const idleLimit = at.getTime() - policy.idleMinutes * 60_000;
      if (
        session.expiresAt.getTime() <= at.getTime() ||
        session.lastSeenAt.getTime() <= idleLimit ||
        !accountOpen(user)
      ) {
        await auth.deleteSession(id);
        // Every instance sees the expiry or the closed account itself; only this copy must go.
        sessions.cache.drop({ sessionId: id });
        return null;
      }
      if (options.touch !== false && at.getTime() - session.lastSeenAt.getTime() > touchSlackMs) {
        await auth.touchSession(id, at);
        sessions.cache.touched(id, at);
      }
      if (session.mfaPending)
        return { kind: 'mfaPending', pending: { sessionId: id, csrfToken: session.csrfToken, user } };
      return { kind: 'signedIn', session: signedInAs(id, session.csrfToken, user) };
    },

    /** Drops a half-signed-in session (signing out of the second step). */
    async dropPending(pending: MfaPending): Promise<void> {
      await auth.deleteSession(pending.sessionId);
      await sessions.changed({ sessionId: pending.sessionId });
    },

    async signOut(session: SignedIn, client: ClientInfo): Promise<void> {
      await auth.deleteSession(session.sessionId);
      await sessions.changed({ sessionId: session.sessionId });
      await audit.record({
        type: 'SIGNED_OUT',
        userId: session.user.id,
        customerId: session.user.customerId,
        email: session.user.email,
        ipAddress: client.ip,
      });
    },

    /**
     * Whether `password` is the signed-in user's current one (changing the password or the sign-in e-mail, turning
     * two-factor sign-in off), under the sign-in throttle of their account and address: a session, or a stolen one,
     * guesses no faster than the sign-in form allows.
     */
    async checkCurrentPassword(userId: number, password: string, client: ClientInfo): Promise<PasswordCheck> {
      const user = await auth.findUserById(userId);
      if (!user) return { kind: 'wrong' };
      const at = now();
      const keys = [accountKey(user.email), addressKey(client.ip)];
      const wait = await throttledFor(keys, at, client, user.email);
      if (wait > 0) return { kind: 'throttled', waitSeconds: wait };
      if (await verifyPassword(user.passwordHash, password)) return { kind: 'right' };
      await recordFailures(keys, at);
      return { kind: 'wrong' };
    },

    async changePassword(
      session: SignedIn,
      input: { currentPassword: string; password: string },
      client: ClientInfo,
    ): Promise<'changed' | Exclude<PasswordCheck, { kind: 'right' }>> {
      const check = await service.checkCurrentPassword(session.user.id, input.currentPassword, client);
      if (check.kind !== 'right') return check;
      const { user } = session;
      await auth.updatePassword(user.id, await hashPassword(input.password), now());
      await auth.deleteSessionsOfUser(user.id, session.sessionId);
      await sessions.changed({ userId: user.id });
      await audit.record({
        type: 'PASSWORD_CHANGED',
        userId: user.id,
        customerId: user.customerId,
        email: user.email,
        ipAddress: client.ip,
      });
      return 'changed';
    },

    /**
     * Creates a single-use reset token for an existing, open account and returns it for mailing.
     * Unknown addresses return null, and the caller answers the same either way.
     */
    async requestReset(email: string, client: ClientInfo): Promise<{ token: string; user: UserWithCustomer } | null> {
      const user = await auth.findUserByEmail(email);
      if (!user || !accountOpen(user)) return null;
      const at = now();
      // A few links an hour are plenty for a person and stop the form being used to flood a mailbox.
      if ((await auth.countRecentResetTokens(user.id, new Date(at.getTime() - 3_600_000))) >= 3) return null;
      const token = newToken();
      await auth.insertResetToken({
        tokenHash: sha256(token),
        userId: user.id,
        createdAt: at,
        expiresAt: new Date(at.getTime() + SESSION_DEFAULTS.resetTokenLifetimeMinutes * 60_000),
      });
      await audit.record({
        type: 'PASSWORD_RESET_REQUESTED',
        userId: user.id,
        customerId: user.customerId,
        email: user.email,
        ipAddress: client.ip,
      });
      return { token, user };
    },

    async resetPassword(token: string, password: string, client: ClientInfo): Promise<boolean> {
      const userId = await auth.consumeResetToken(sha256(token), now());
      if (userId === null) return false;
      const user = await auth.findUserById(userId);
      if (!user) return false;
      await auth.updatePassword(userId, await hashPassword(password), now());
      await auth.deleteSessionsOfUser(userId);
      await sessions.changed({ userId });
      // A reset is how a taken-over account is won back: a token the taker made must stop working too.
      const tokensRevoked = await auth.deleteApiTokensOfUser(userId);
      await auth.clearFailures(accountKey(user.email));
      await audit.record({
        type: 'PASSWORD_RESET',
        userId,
        customerId: user.customerId,
        email: user.email,
        ipAddress: client.ip,
        ...(tokensRevoked > 0 ? { detail: { apiTokensRevoked: tokensRevoked } } : {}),
      });
      return true;
    },
  };
  return service;
}
export type AuthService = ReturnType<typeof createAuthService>;
