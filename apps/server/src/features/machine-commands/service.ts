import { randomUUID } from 'node:crypto';
import {
  type Actor,
  errorMessage,
  LOG_FILES,
  type LogFileEntry,
  MESSAGES,
  machineAudience,
  mayChange,
  type ServerToAgent,
} from '@portal/domain';
import type { MachineContext } from '../../db/machine-context.js';
import { AppError, forbidden, notFound } from '../../http/errors.js';
import type { AuthenticatedMachine, MachineCredentials } from '../machine-auth/credentials.js';
import type { MachineCommandsRepo } from './repo.js';

/** What the service needs of the live channel: false when the machine's agent is not connected. */
export interface CommandChannel {
  sendToMachine(machineId: number, message: ServerToAgent): Promise<boolean>;
}

/** A machine on the provider's paths: /boltadmin/customers/{c}/backuppackages/{p}/backupmachines/{m}. */
export interface MachinePath {
  customerId: number;
  packageId: number;
  machineId: number;
}

const TEXT = MESSAGES.backupMachine;

/** 409 at once: the machine's agent is not connected (DESIGN §5: never after a time-out). */
export const offline = () =>
  new AppError(409, 'MACHINE_OFFLINE', [errorMessage(MESSAGES.liveChannel.machineOffline, '', 'MACHINE_OFFLINE')]);

/**
 * Commands a portal user sends to a machine's agent and what comes back of them (001 §2, §7; issue #5):
 * request upload of log files and download them (provider admins), refresh storage space (any admin who
 * sees the machine). Commands are asynchronous: the answer is OK once the agent has them; a machine whose
 * agent is not connected is answered at once.
 */
export function createMachineCommandService(deps: {
  repo: MachineCommandsRepo;
  channel: () => CommandChannel;
  credentials: Pick<MachineCredentials, 'verifyAuthorization'>;
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  /** The machine when it is not being deleted and `inScope` holds; else 404, as if there were no such machine. */
  async function machineWhere(machineId: number, inScope: (machine: MachineContext) => boolean) {
    const machine = await repo.machine(machineId);
    if (!machine || machine.beingDeleted || !inScope(machine)) throw notFound(TEXT.notFound);
    return machine;
  }

  /** The provider's paths name the machine's customer and package: both must be the machine's. */
  const providerMachine = (path: MachinePath) =>
    machineWhere(path.machineId, (m) => m.customerId === path.customerId && m.backupPackageId === path.packageId);

  async function send(machineId: number, message: ServerToAgent): Promise<void> {
    if (!(await deps.channel().sendToMachine(machineId, message))) throw offline();
  }

  return {
    /** Asks the agent to upload its log files (and updater logs when asked for). */
    async uploadLogFiles(path: MachinePath, includeUpdaterLogs: boolean): Promise<{ requestId: string }> {
      const machine = await providerMachine(path);
      const requestId = `logs:${randomUUID()}`;
      await send(machine.id, { type: 'uploadLogFiles', requestId, includeUpdaterLogs });
      return { requestId };
    },

    /**
     * Asks the agent to measure the repository again (`usage` event); 404 unless the caller sees the machine
     * and it is in the path's package, so another tenant's machine ids reveal nothing. A refresh changes the
     * stored usage, so read-only admins may not ask for one.
     */
    async refreshStorage(actor: Actor, path: { packageId: number; machineId: number }): Promise<void> {
      if (!mayChange(actor)) throw forbidden();
      const machine = await machineWhere(
        path.machineId,
        (m) => m.backupPackageId === path.packageId && machineAudience(actor, m) !== null,
      );
      await send(machine.id, { type: 'refreshStorage', requestId: `storage:${randomUUID()}` });
    },

    async logFiles(path: MachinePath): Promise<LogFileEntry[]> {
      const machine = await providerMachine(path);
      const rows = await repo.listLogFiles(machine.id);
      return rows.map((row) => ({ fileName: row.fileName, lastModified: row.lastModified.toISOString() }));
    },

    async logFile(path: MachinePath, fileName: string): Promise<{ fileName: string; content: string }> {
      const machine = await providerMachine(path);
      const file = await repo.logFile(machine.id, fileName);
      if (!file) throw notFound(TEXT.logFileNotFound);
      return file;
    },

    /** The machine whose credential is in the `Authorization: Basic {machineId}:{token}` header; null if none. */
    authenticate: (authorization: string | undefined): Promise<AuthenticatedMachine | null> =>
      deps.credentials.verifyAuthorization(authorization),

    /** Stores an agent's upload; NUL characters (which a text column cannot hold) are dropped. */
    async storeLogFile(
      machineId: number,
      upload: { fileName: string; content: string; lastModified?: string | undefined },
    ): Promise<void> {
      const content = upload.content.replaceAll('\u0000', '');
      const uploadedAt = now();
      await repo.saveLogFile(
        machineId,
        {
          fileName: upload.fileName,
          content,
          sizeBytes: Buffer.byteLength(content),
          lastModified: upload.lastModified ? new Date(upload.lastModified) : uploadedAt,
          uploadedAt,
        },
        LOG_FILES.maxFilesPerMachine,
      );
    },
  };
}

export type MachineCommandService = ReturnType<typeof createMachineCommandService>;
