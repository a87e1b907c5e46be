import type { RealtimeCommandView } from '@portal/domain';
import type { RealtimeCommandRow } from './repo.js';

/** Any realtime command's row (a machine's restic command, a migration's sequence) with its output. */
type CommandRecord = Omit<RealtimeCommandRow, 'id' | 'backupMachineId'> & { output: string[] };

export const presentCommand = (row: CommandRecord): RealtimeCommandView => ({
  commandId: row.commandId,
  baseCommand: row.baseCommand,
  commandArguments: row.commandArguments,
  commandFlags: row.commandFlags,
  commandOutput: row.output,
  timeStarted: row.timeStarted.toISOString(),
  timeFinished: row.timeFinished ? row.timeFinished.toISOString() : null,
  exitCode: row.resultCode,
});
