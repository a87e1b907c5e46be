import type { RealtimeCommandView } from '@portal/domain';
import type { RealtimeCommandRow } from './repo.js';

export const presentCommand = (row: RealtimeCommandRow & { output: string[] }): RealtimeCommandView => ({
  commandId: row.commandId,
  baseCommand: row.baseCommand,
  commandArguments: row.commandArguments,
  commandFlags: row.commandFlags,
  commandOutput: row.output,
  timeStarted: row.timeStarted.toISOString(),
  timeFinished: row.timeFinished ? row.timeFinished.toISOString() : null,
  exitCode: row.resultCode,
});
