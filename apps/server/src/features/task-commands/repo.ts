import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { backupTasks, machineCommandRequests } from '../../db/schema/index.js';
import { taskOfMachine } from '../../db/task-of-machine.js';

export interface CommandReply {
  success: boolean;
  messages: string[];
}

/** The queries behind task commands from browsers. */
export function createTaskCommandsRepo(db: Executor) {
  return {
    /** The machine with what the permission checks and the task form read (db/machine-context.ts). */
    machine: (machineId: number) => machineContext(db, machineId),

    async task(machineId: number, taskId: number) {
      return taskOfMachine(db, machineId, taskId, {
        id: backupTasks.id,
        status: backupTasks.status,
        lastExecutionMissed: backupTasks.lastExecutionMissed,
        statusOfLastRun: backupTasks.statusOfLastRun,
        statusOfRunBeforeLast: backupTasks.statusOfRunBeforeLast,
      });
    },

    /** Claims a request id for the machine; the earlier reply when it was claimed before (null while pending). */
    async claim(
      machineId: number,
      requestId: string,
      userId: number,
      command: string,
    ): Promise<{ claimed: true } | { claimed: false; reply: CommandReply | null }> {
      const inserted = await db
        .insert(machineCommandRequests)
        .values({ backupMachineId: machineId, requestId, userId, command })
        .onConflictDoNothing()
        .returning({ requestId: machineCommandRequests.requestId });
      if (inserted.length > 0) return { claimed: true };
      const [row] = await db
        .select({ reply: machineCommandRequests.reply })
        .from(machineCommandRequests)
        .where(
          and(eq(machineCommandRequests.backupMachineId, machineId), eq(machineCommandRequests.requestId, requestId)),
        );
      return { claimed: false, reply: row?.reply ?? null };
    },

    async saveReply(machineId: number, requestId: string, reply: CommandReply): Promise<void> {
      await db
        .update(machineCommandRequests)
        .set({ reply })
        .where(
          and(eq(machineCommandRequests.backupMachineId, machineId), eq(machineCommandRequests.requestId, requestId)),
        );
    },

    /** Forgets a claim whose command failed before doing anything, so the browser may try again. */
    async release(machineId: number, requestId: string): Promise<void> {
      await db
        .delete(machineCommandRequests)
        .where(
          and(eq(machineCommandRequests.backupMachineId, machineId), eq(machineCommandRequests.requestId, requestId)),
        );
    },

    async taskVersion(taskId: number): Promise<number> {
      const [row] = await db
        .select({ version: backupTasks.version })
        .from(backupTasks)
        .where(eq(backupTasks.id, taskId));
      return row?.version ?? 0;
    },

    async updateTaskDefinition(taskId: number, values: Partial<typeof backupTasks.$inferInsert>): Promise<void> {
      await db.update(backupTasks).set(values).where(eq(backupTasks.id, taskId));
    },
  };
}

export type TaskCommandsRepo = ReturnType<typeof createTaskCommandsRepo>;
