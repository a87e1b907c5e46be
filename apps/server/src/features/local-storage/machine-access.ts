import { createHash } from 'node:crypto';
import type { AuthenticatedMachine, MachineCredentials } from '../machine-auth/credentials.js';
import { credentialOfAuthorization } from '../machine-auth/credentials.js';

/** How long a verified credential is trusted without asking the database again. */
export const DEFAULT_VERIFY_CACHE_MS = 3_000;
const MAX_ENTRIES = 10_000;

/**
 * Checks a machine's HTTP basic credential (`{machineId}:{token}`) with a short memory of successes:
 * restic makes a request per pack file, and a database query apiece would cost more than the upload.
 * Only successes are kept, for `ttlMs` (under 5 s), so a revoked or replaced credential stops
 * working within that time; failures are always asked again.
 */
export function createMachineAccess(deps: {
  credentials: Pick<MachineCredentials, 'verify'>;
  ttlMs?: number;
  now?: () => number;
}) {
  const ttl = Math.min(deps.ttlMs ?? DEFAULT_VERIFY_CACHE_MS, 4_000);
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { machine: AuthenticatedMachine; until: number }>();

  function sweep(at: number) {
    for (const [key, entry] of cache) if (entry.until <= at) cache.delete(key);
    // Still full of live entries (a flood of distinct valid credentials): start over rather than grow.
    if (cache.size >= MAX_ENTRIES) cache.clear();
  }

  return {
    async authenticate(authorization: string | undefined): Promise<AuthenticatedMachine | null> {
      const credential = credentialOfAuthorization(authorization);
      if (!credential) return null;
      const key = `${credential.machineId}:${createHash('sha256').update(credential.token).digest('hex')}`;
      const at = now();
      const hit = cache.get(key);
      if (hit && hit.until > at) return hit.machine;
      const machine = await deps.credentials.verify(credential);
      if (!machine) {
        cache.delete(key);
        return null;
      }
      if (cache.size >= MAX_ENTRIES) sweep(at);
      cache.set(key, { machine, until: at + ttl });
      return machine;
    },
    /** Forgets every remembered success of a machine (call it when revoking, for immediate effect). */
    forget(machineId: number): void {
      for (const key of cache.keys()) if (key.startsWith(`${machineId}:`)) cache.delete(key);
    },
  };
}
export type MachineAccess = ReturnType<typeof createMachineAccess>;
