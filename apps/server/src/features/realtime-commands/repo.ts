import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { SelectedFieldsFlat } from 'drizzle-orm/pg-core';
import { type Executor, oneOrNull } from '../../db/client.js';
import { backupMachines, customers, realtimeCommandOutput, realtimeCommands } from '../../db/schema/index.js';

/** What every command holds, whatever runs it: restic on a machine, or a migration's rclone sequence. */
export interface CommandFields {
  /** The row id: for a machine's command, the agent protocol's commandId. */
  id: number;
  /** The submitter's id: for a machine's command, the browser's requestId (the commandId of the live messages). */
  commandId: string;
  baseCommand: string;
  commandArguments: string[];
  commandFlags: string[];
  timeStarted: Date;
  timeFinished: Date | null;
  resultCode: string | null;
}

/** A command as it is submitted, before it has a row or a result. */
export type NewCommand = Pick<
  CommandFields,
  'commandId' | 'baseCommand' | 'commandArguments' | 'commandFlags' | 'timeStarted'
>;

export interface RealtimeCommandRow extends CommandFields {
  backupMachineId: number;
}

/** The columns of CommandFields. */
export const commandFieldColumns = {
  id: realtimeCommands.id,
  commandId: realtimeCommands.commandId,
  baseCommand: realtimeCommands.baseCommand,
  commandArguments: realtimeCommands.commandArguments,
  commandFlags: realtimeCommands.commandFlags,
  timeStarted: realtimeCommands.timeStarted,
  timeFinished: realtimeCommands.timeFinished,
  resultCode: realtimeCommands.resultCode,
};

const columns = { ...commandFieldColumns, backupMachineId: realtimeCommands.backupMachineId };

/** Stores a new command; it answers no row when the command id is taken (by any machine or migration). */
export const insertNewCommand = <S extends SelectedFieldsFlat>(
  db: Executor,
  values: typeof realtimeCommands.$inferInsert,
  returning: S,
) =>
  db
    .insert(realtimeCommands)
    .values(values)
    .onConflictDoNothing({ target: realtimeCommands.commandId })
    .returning(returning);

const asRow = (row: Omit<RealtimeCommandRow, 'backupMachineId'> & { backupMachineId: number | null }) =>
  ({ ...row, backupMachineId: row.backupMachineId ?? 0 }) satisfies RealtimeCommandRow;

/** The output lines of commands (restic's or a migration's sequences), each command's in order. */
async function outputLinesOf(db: Executor, commandIds: number[]): Promise<Map<number, string[]>> {
  const byCommand = new Map<number, string[]>();
  if (commandIds.length === 0) return byCommand;
  const lines = await db
    .select({ commandId: realtimeCommandOutput.commandId, line: realtimeCommandOutput.line })
    .from(realtimeCommandOutput)
    .where(inArray(realtimeCommandOutput.commandId, commandIds))
    .orderBy(asc(realtimeCommandOutput.commandId), asc(realtimeCommandOutput.seq));
  for (const { commandId, line } of lines) {
    const list = byCommand.get(commandId) ?? [];
    list.push(line);
    byCommand.set(commandId, list);
  }
  return byCommand;
}

/** Command rows (restic's or a migration's sequences), each with its output lines. */
export async function withOutputLines<T extends { id: number }>(
  db: Executor,
  rows: T[],
): Promise<Array<T & { output: string[] }>> {
  const byCommand = await outputLinesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, output: byCommand.get(row.id) ?? [] }));
}

/** The queries behind realtime restic commands (001 §3, §7; issue #5). */
export function createRealtimeCommandsRepo(db: Executor) {
  /** The machine's command that `which` picks; null when it has none such. */
  const commandOf = async (machineId: number, which: SQL): Promise<RealtimeCommandRow | null> => {
    const [row] = await db
      .select(columns)
      .from(realtimeCommands)
      .where(and(eq(realtimeCommands.backupMachineId, machineId), which));
    return row ? asRow(row) : null;
  };

  return {
    /**
     * The machine when it belongs to the package of the customer (the path's scope), with what deciding who
     * may command it needs (its customer's 'Allow provider machine control').
     */
    async machineIn(customerId: number, packageId: number, machineId: number) {
      return oneOrNull(
        db
          .select({
            id: backupMachines.id,
            name: backupMachines.name,
            customerId: backupMachines.customerId,
            assignedUserId: backupMachines.assignedUserId,
            parentResellerCustomerId: customers.parentResellerCustomerId,
            allowProviderMachineControl: customers.allowProviderMachineControl,
          })
          .from(backupMachines)
          .innerJoin(customers, eq(customers.id, backupMachines.customerId))
          .where(
            and(
              eq(backupMachines.id, machineId),
              eq(backupMachines.customerId, customerId),
              eq(backupMachines.backupPackageId, packageId),
            ),
          ),
      );
    },

    /** Stores a new command; null when its command id is taken (by any machine). */
    async insert(values: NewCommand & { backupMachineId: number }): Promise<RealtimeCommandRow | null> {
      const [row] = await insertNewCommand(db, { ...values, commandType: 'RESTIC_COMMAND' }, columns);
      return row ? asRow(row) : null;
    },

    byCommandId: (machineId: number, commandId: string) =>
      commandOf(machineId, eq(realtimeCommands.commandId, commandId)),

    /** A machine's command by its row id (the agent's commandId). */
    byId: (machineId: number, id: number) => commandOf(machineId, eq(realtimeCommands.id, id)),

    /** The machine's commands, oldest first, with their output lines in order. */
    async list(machineId: number): Promise<Array<RealtimeCommandRow & { output: string[] }>> {
      const rows = (
        await db
          .select(columns)
          .from(realtimeCommands)
          .where(eq(realtimeCommands.backupMachineId, machineId))
          .orderBy(asc(realtimeCommands.timeStarted), asc(realtimeCommands.id))
      ).map(asRow);
      return withOutputLines(db, rows);
    },

    /**
     * Appends lines (at least one) after the command's last one, numbered on from it (the first line is
     * 1); answers the number of the first appended line.
     */
    async appendOutput(id: number, lines: readonly string[]): Promise<number> {
      return db.transaction(async (tx) => {
        // Serialises concurrent appends to the same command.
        await tx.execute(sql`select id from ${realtimeCommands} where id = ${id} for update`);
        const [last] = await tx
          .select({ seq: sql<number>`coalesce(max(${realtimeCommandOutput.seq}), 0)` })
          .from(realtimeCommandOutput)
          .where(eq(realtimeCommandOutput.commandId, id));
        const start = Number(last?.seq ?? 0);
        await tx
          .insert(realtimeCommandOutput)
          .values(lines.map((line, i) => ({ commandId: id, seq: start + i + 1, line })));
        return start + 1;
      });
    },

    /** Records the finish; false when the command was already finished. */
    async finish(id: number, resultCode: string, timeFinished: Date): Promise<boolean> {
      const updated = await db
        .update(realtimeCommands)
        .set({ resultCode, timeFinished })
        .where(and(eq(realtimeCommands.id, id), sql`${realtimeCommands.resultCode} is null`))
        .returning({ id: realtimeCommands.id });
      return updated.length > 0;
    },

    async remove(id: number): Promise<void> {
      await db.delete(realtimeCommands).where(eq(realtimeCommands.id, id));
    },
  };
}

export type RealtimeCommandsRepo = ReturnType<typeof createRealtimeCommandsRepo>;
