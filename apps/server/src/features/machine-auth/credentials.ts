import { ID_MAX } from '@portal/domain';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { backupMachines } from '../../db/schema/index.js';
import { newToken, sha256 } from '../auth/tokens.js';

/**
 * A machine's own credential (DESIGN §5): issued once when the machine is linked, shown to the agent
 * only then, stored as a SHA-256 hash, revocable. The agent presents it as `{machineId}:{token}` (the
 * STOMP CONNECT login/passcode, and HTTP basic auth of the restic REST backend).
 */
export interface MachineCredential {
  machineId: number;
  token: string;
}

/** The machine a verified credential belongs to, with what callers check next. */
export interface AuthenticatedMachine {
  id: number;
  customerId: number;
  backupPackageId: number;
}

/** Parses `{machineId}:{token}`; null for anything else. */
export function parseMachineCredential(
  login: string | undefined,
  passcode: string | undefined,
): MachineCredential | null {
  if (!login || !passcode || passcode.length > 200 || !/^[1-9][0-9]{0,9}$/.test(login)) return null;
  const machineId = Number(login);
  return Number.isSafeInteger(machineId) && machineId <= ID_MAX ? { machineId, token: passcode } : null;
}

/** `Authorization: Basic base64(user:password)` → its two halves; null for anything else. */
export function parseBasicAuth(header: string | undefined): { user: string; password: string } | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,1024})\s*$/i.exec(header);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** An agent's HTTP credential (`Authorization: Basic base64(machineId:token)`), or null. */
export function credentialOfAuthorization(header: string | undefined): MachineCredential | null {
  const basic = parseBasicAuth(header);
  return basic ? parseMachineCredential(basic.user, basic.password) : null;
}

/** What is stored of a credential, and compared: the SHA-256 of its token. */
export const credentialHashOf = (credential: MachineCredential) => sha256(credential.token);

/**
 * Whether the machine row's credential is the one hashed to `hash` and usable: not revoked, the machine not being
 * deleted. `hash` may be a column of another relation (the live channel checks many connects in one statement).
 */
export function credentialAccepted(hash: string | SQL): SQL {
  return and(
    eq(backupMachines.credentialHash, hash),
    isNull(backupMachines.credentialRevokedAt),
    eq(backupMachines.beingDeleted, false),
  ) as SQL;
}

export function createMachineCredentials(db: Executor) {
  return {
    /** Issues a new credential, replacing (and so revoking) any earlier one. */
    async issue(machineId: number): Promise<MachineCredential | null> {
      const token = newToken();
      const rows = await db
        .update(backupMachines)
        .set({ credentialHash: sha256(token), credentialRevokedAt: null })
        .where(eq(backupMachines.id, machineId))
        .returning({ id: backupMachines.id });
      return rows.length > 0 ? { machineId, token } : null;
    },

    /** Revokes the machine's credential: later checks fail; the live channel closes its connection. */
    async revoke(machineId: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(backupMachines)
        .set({ credentialHash: null, credentialRevokedAt: at })
        .where(eq(backupMachines.id, machineId))
        .returning({ id: backupMachines.id });
      return rows.length > 0;
    },

    /** The machine an HTTP request's basic credential names, when that credential is valid (see verify). */
    async verifyAuthorization(header: string | undefined): Promise<AuthenticatedMachine | null> {
      const credential = credentialOfAuthorization(header);
      return credential ? this.verify(credential) : null;
    },

    /** The machine when the credential is its current one and the machine is not being deleted. */
    async verify(credential: MachineCredential): Promise<AuthenticatedMachine | null> {
      return oneOrNull(
        db
          .select({
            id: backupMachines.id,
            customerId: backupMachines.customerId,
            backupPackageId: backupMachines.backupPackageId,
          })
          .from(backupMachines)
          .where(and(eq(backupMachines.id, credential.machineId), credentialAccepted(credentialHashOf(credential)))),
      );
    },
  };
}

export type MachineCredentials = ReturnType<typeof createMachineCredentials>;
