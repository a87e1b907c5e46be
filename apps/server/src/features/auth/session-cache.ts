import type { AuthRepo } from './repo.js';

/** A session row with its user, as the auth repository finds it. */
export type SessionWithUser = NonNullable<Awaited<ReturnType<AuthRepo['findSessionWithUser']>>>;

/**
 * What changed, so that remembered sessions drop: one session (signed out), every session of a user (their role,
 * status, password, two-factor sign-in or details changed, or they were deleted), or every session of a customer's
 * users (its status, deletion, two-factor policy, reseller settings or a role moved between its users).
 */
export type SessionsChange = { sessionId: string } | { userId: number } | { customerId: number };

/**
 * How long a resolved session is kept. Every change the portal makes to what a session carries drops it at once
 * (here and, over the bus, on every instance); the time only bounds what a change made behind the portal's back (a
 * hand edit of the database) or a bus message lost while Redis was away can leave stale.
 */
export const SESSION_CACHE_TTL_MS = 5_000;
/** Sessions remembered at most: every signed-in browser is a key, so the memory stays bounded. */
export const SESSION_CACHE_SIZE = 10_000;

export interface SessionCacheOptions {
  /** 0 turns the cache off: every request reads its session. */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
  /**
   * Whether changes made on other instances reach this one now (the bus's Redis is connected). While not, nothing
   * is remembered: a change published meanwhile would be missed.
   */
  changesArrive?: () => boolean;
}

interface Entry {
  found: SessionWithUser;
  expires: number;
}

/**
 * Resolved sessions of this process, so that a signed-in request makes no database round trip for its session
 * (issue 33 item 5). Reads go through `read`; changes drop entries through `drop`, which the auth area calls for
 * this instance and the bus delivers from the others.
 */
export function createSessionCache(options: SessionCacheOptions = {}) {
  const ttlMs = options.ttlMs ?? SESSION_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? SESSION_CACHE_SIZE;
  const now = options.now ?? Date.now;
  const changesArrive = options.changesArrive ?? (() => true);
  const entries = new Map<string, Entry>();
  // Bumped by every change: a read that was under way when a change came in may have read the row from before it,
  // so what it found is answered but not remembered.
  let generation = 0;

  const concerns = (found: SessionWithUser, change: { userId: number } | { customerId: number }) =>
    'userId' in change ? found.user.id === change.userId : found.user.customerId === change.customerId;

  return {
    /** The session and user of `id`, remembered or read with `load` (and then remembered). */
    async read(id: string, load: () => Promise<SessionWithUser | null>): Promise<SessionWithUser | null> {
      if (ttlMs <= 0) return load();
      if (!changesArrive()) {
        entries.clear();
        return load();
      }
      const entry = entries.get(id);
      if (entry && entry.expires > now()) return entry.found;
      if (entry) entries.delete(id);
      const started = generation;
      const found = await load();
      if (found && started === generation && changesArrive()) {
        // A Map keeps insertion order: the first key is the oldest entry.
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(id, { found, expires: now() + ttlMs });
      }
      return found;
    },

    /** The session was touched (its last-seen time written): a remembered copy carries the new time. */
    touched(id: string, at: Date): void {
      const entry = entries.get(id);
      if (entry) entry.found = { ...entry.found, session: { ...entry.found.session, lastSeenAt: at } };
    },

    /** Forgets the sessions a change concerns. */
    drop(change: SessionsChange): void {
      generation++;
      if ('sessionId' in change) {
        entries.delete(change.sessionId);
        return;
      }
      for (const [id, entry] of entries) if (concerns(entry.found, change)) entries.delete(id);
    },

    /** How many sessions are remembered (tests). */
    get size(): number {
      return entries.size;
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;

/** How changes travel between instances: the live channel's bus when it is shared (Redis). */
export interface SessionChangeChannel {
  publish(change: SessionsChange): Promise<void>;
  /** Whether this instance hears the others now (its Redis connection is up). */
  arriving(): boolean;
}

/**
 * The process's session cache and the changes that drop from it: this instance forgets at once, and once a shared
 * channel is connected every other instance hears of it before the change is answered. A single instance needs no
 * message. While the channel is down nothing is remembered, since the others' changes would not arrive.
 */
export function createSessionChanges(options: Omit<SessionCacheOptions, 'changesArrive'> = {}) {
  let channel: SessionChangeChannel | null = null;
  const cache = createSessionCache({ ...options, changesArrive: () => channel?.arriving() ?? true });
  return {
    cache,
    async changed(change: SessionsChange): Promise<void> {
      cache.drop(change);
      await channel?.publish(change);
    },
    /** Sends every change to the other instances too (their changes arrive through `cache.drop`). */
    connect(shared: SessionChangeChannel): void {
      channel = shared;
    },
  };
}

export type SessionChanges = ReturnType<typeof createSessionChanges>;
