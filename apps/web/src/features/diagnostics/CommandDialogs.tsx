import {
  deleteCommandQuestion,
  MESSAGES,
  OUTCOME_TEXTS,
  type RealtimeCommandView,
  resticCommandLine,
  stopCommandQuestion,
} from '@portal/domain';
import { type ApiMutation, ConfirmActionDialog, type DialogProps } from '../../ui';
import { useDeleteResticCommand, useStopResticCommand } from './mutations';
import type { DiagnosticsMachine } from './queries';

const TEXT = MESSAGES.resticCommand;
const LABELS = MESSAGES.resticDiagnostics;

export interface CommandDialogProps extends DialogProps {
  /** The command the dialog is about (kept while the dialog fades out). */
  command: RealtimeCommandView | null;
  machine: DiagnosticsMachine;
}

/** Stop a running command, delete a finished one: their words and the catalogue's toasts (001 §8). */
const CONFIRMATIONS = {
  stop: {
    title: LABELS.stopDialogTitle,
    confirmLabel: TEXT.stopButton,
    question: stopCommandQuestion,
    texts: OUTCOME_TEXTS.resticCommand.stop,
  },
  delete: {
    title: LABELS.deleteDialogTitle,
    confirmLabel: LABELS.deleteButton,
    question: deleteCommandQuestion,
    texts: OUTCOME_TEXTS.resticCommand.delete,
  },
} as const;

/**
 * Cancel command (001 §2, button 'Stop'): asks the agent to stop a running command. Its finish arrives
 * over the live channel; asking twice is harmless (a finished command answers 'already finished').
 */
export function StopCommandDialog({ machine, ...dialog }: CommandDialogProps) {
  return <CommandConfirmation {...dialog} kind="stop" mutation={useStopResticCommand(machine)} />;
}

/** Delete command (001 §2): removes a finished command and its output. */
export function DeleteCommandDialog({ machine, ...dialog }: CommandDialogProps) {
  return <CommandConfirmation {...dialog} kind="delete" mutation={useDeleteResticCommand(machine)} />;
}

/**
 * Asks about the command's line; on confirmation submits its commandId, closing on success. Migration
 * command sequences use it too, with their rclone command line.
 */
export function CommandConfirmation({
  kind,
  command,
  mutation,
  commandLine = resticCommandLine,
  ...dialog
}: Omit<CommandDialogProps, 'machine'> & {
  kind: keyof typeof CONFIRMATIONS;
  mutation: ApiMutation<string, unknown>;
  commandLine?: (command: RealtimeCommandView) => string;
}) {
  const { title, confirmLabel, question, texts } = CONFIRMATIONS[kind];
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{ mutation, variables: () => command?.commandId ?? null, ...texts }}
      title={title}
      confirmLabel={confirmLabel}
      data-testid={`${kind}-command-dialog`}
    >
      {command && <p>{question(commandLine(command))}</p>}
    </ConfirmActionDialog>
  );
}
