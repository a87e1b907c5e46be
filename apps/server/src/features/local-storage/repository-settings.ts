import { randomBytes } from 'node:crypto';
import { type RepositorySettings, ROUTES, type StorageAccountType } from '@portal/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { backupMachines } from '../../db/schema/index.js';
import type { SecretBox } from '../../secrets.js';
import type { FolderAccess } from '../../storage/provider.js';

/**
 * The repository URL of a machine on the embedded storage, WITHOUT credentials:
 * `rest:{publicBase}/restic/{machineId}/`. The server keeps only a hash of the machine's token, so the
 * agent puts its own credential in: `rest:https://{machineId}:{token}@host/restic/{machineId}/`
 * (see withMachineCredential).
 */
export function localRepositoryUrl(publicBase: string, machineId: number): string {
  return `rest:${publicBase.replace(/\/+$/, '')}${ROUTES.restic.create.build({ machineId })}`;
}

/** What the agent does with the URL it is sent: inserts `{machineId}:{token}@` after the scheme. */
export function withMachineCredential(repository: string, credential: { machineId: number; token: string }): string {
  const match = /^rest:(https?:\/\/)(.*)$/.exec(repository);
  if (!match) return repository;
  const user = encodeURIComponent(String(credential.machineId));
  return `rest:${match[1]}${user}:${encodeURIComponent(credential.token)}@${match[2]}`;
}

/** What a machine's settings are made of, when its caller has just read them (an agent's hello). */
export interface RepositoryFacts {
  passwordSealed: string | null;
  /** The account of the package's storage location; null when it has none (the embedded storage serves it). */
  storageAccountType: StorageAccountType | null;
}

/**
 * The repository password of each machine (DESIGN §6): made by the server on first use, stored only
 * encrypted with MASTER_KEY in backup_machines.repository_password_encrypted, never changed after.
 */
export function createRepositorySettings(deps: {
  db: Db;
  secrets: SecretBox;
  publicBase: string;
  /**
   * Issue 16: how the machine reaches its repository on an S3 location with its own storage key (restic's
   * `s3:` repository and the AWS_* environment); null on the embedded storage, which the REST URL serves.
   */
  s3Access?: (machineId: number) => Promise<FolderAccess | null>;
}) {
  const { db, secrets } = deps;

  async function repositoryPassword(machineId: number): Promise<string | null> {
    const [existing] = await db
      .select({ sealed: backupMachines.repositoryPasswordEncrypted })
      .from(backupMachines)
      .where(eq(backupMachines.id, machineId));
    if (!existing) return null;
    if (existing.sealed !== null) return secrets.decrypt(existing.sealed);
    const password = randomBytes(32).toString('base64url');
    // Two first calls at once: only one update finds the column still empty; the other reads its value.
    const [won] = await db
      .update(backupMachines)
      .set({ repositoryPasswordEncrypted: secrets.encrypt(password) })
      .where(and(eq(backupMachines.id, machineId), isNull(backupMachines.repositoryPasswordEncrypted)))
      .returning({ id: backupMachines.id });
    if (won) return password;
    const [after] = await db
      .select({ sealed: backupMachines.repositoryPasswordEncrypted })
      .from(backupMachines)
      .where(eq(backupMachines.id, machineId));
    return after?.sealed ? secrets.decrypt(after.sealed) : null;
  }

  return {
    repositoryPassword,
    /**
     * The settings sent to the machine's agent; null when the machine does not exist. `known`: the machine's sealed
     * password and storage account as just read (its agent's hello): a machine on the embedded storage whose password
     * is made then costs no statement here.
     */
    async repositorySettingsFor(machineId: number, known?: RepositoryFacts): Promise<RepositorySettings | null> {
      const password = known?.passwordSealed
        ? secrets.decrypt(known.passwordSealed)
        : await repositoryPassword(machineId);
      if (password === null) return null;
      const embedded = known !== undefined && (known.storageAccountType ?? 'LOCAL') === 'LOCAL';
      const s3 = embedded ? null : ((await deps.s3Access?.(machineId)) ?? null);
      if (s3) return { repository: s3.resticRepository, password, env: s3.env };
      return { repository: localRepositoryUrl(deps.publicBase, machineId), password };
    },
  };
}
export type RepositorySettingsService = ReturnType<typeof createRepositorySettings>;
