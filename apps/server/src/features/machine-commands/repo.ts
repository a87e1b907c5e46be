import { and, asc, desc, eq, notInArray } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { logFiles } from '../../db/schema/index.js';

export interface StoredLogFile {
  fileName: string;
  lastModified: Date;
  content: string;
  sizeBytes: number;
  uploadedAt: Date;
}

/** The queries behind machine commands, log files and storage refresh (001 §2, §7; issue #5). */
export function createMachineCommandsRepo(db: Executor) {
  return {
    /** A machine with its customer, package and who may see it (db/machine-context.ts). */
    machine: (machineId: number) => machineContext(db, machineId),

    /**
     * Stores an upload, replacing the machine's earlier file of that name, and keeps only the `keep` most
     * recently uploaded files of the machine.
     */
    async saveLogFile(machineId: number, file: StoredLogFile, keep: number): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .insert(logFiles)
          .values({ backupMachineId: machineId, ...file })
          .onConflictDoUpdate({
            target: [logFiles.backupMachineId, logFiles.fileName],
            set: {
              lastModified: file.lastModified,
              content: file.content,
              sizeBytes: file.sizeBytes,
              uploadedAt: file.uploadedAt,
            },
          });
        const kept = tx
          .select({ id: logFiles.id })
          .from(logFiles)
          .where(eq(logFiles.backupMachineId, machineId))
          .orderBy(desc(logFiles.uploadedAt), desc(logFiles.id))
          .limit(keep);
        await tx.delete(logFiles).where(and(eq(logFiles.backupMachineId, machineId), notInArray(logFiles.id, kept)));
      });
    },

    /** The machine's log files by name, without their content. */
    listLogFiles(machineId: number) {
      return db
        .select({ fileName: logFiles.fileName, lastModified: logFiles.lastModified })
        .from(logFiles)
        .where(eq(logFiles.backupMachineId, machineId))
        .orderBy(asc(logFiles.fileName));
    },

    async logFile(machineId: number, fileName: string) {
      return oneOrNull(
        db
          .select({ fileName: logFiles.fileName, content: logFiles.content })
          .from(logFiles)
          .where(and(eq(logFiles.backupMachineId, machineId), eq(logFiles.fileName, fileName))),
      );
    },
  };
}

export type MachineCommandsRepo = ReturnType<typeof createMachineCommandsRepo>;
