import type { RealtimeCommandView } from '@portal/domain';
import type { RealtimeCommandRow } from './repo.js';

/**
 * The live messages of realtime commands on the provider's machine queue (/ws/queue/boltadmin/backupmachines/{id},
 * 001 §4): an output-line message appends lines to the command with the commandId, a finished message sets
 * its time finished and exit code. Neither the specification nor the domain names them; these are ours.
 */
export const REALTIME_MESSAGE_TYPES = {
  output: 'REALTIME_COMMAND_OUTPUT',
  finished: 'REALTIME_COMMAND_FINISHED',
} as const;

export const outputMessage = (commandId: string, lines: readonly string[]) => ({
  type: REALTIME_MESSAGE_TYPES.output,
  commandId,
  lines,
});

export const finishedMessage = (commandId: string, timeFinished: Date, exitCodeResult: string) => ({
  type: REALTIME_MESSAGE_TYPES.finished,
  commandId,
  timeFinished: timeFinished.toISOString(),
  exitCodeResult,
});

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
