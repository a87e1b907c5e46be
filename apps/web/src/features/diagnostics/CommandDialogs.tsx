import {
  deleteCommandQuestion,
  MESSAGES,
  type RealtimeCommandView,
  resticCommandLine,
  stopCommandQuestion,
} from '@portal/domain';
import { ConfirmDialog, type DialogSubmission, useDialogSubmit } from '../../ui';
import { useDeleteResticCommand, useStopResticCommand } from './mutations';
import type { DiagnosticsMachine } from './queries';

const TEXT = MESSAGES.resticCommand;
const LABELS = MESSAGES.resticDiagnostics;

export interface CommandDialogProps {
  show: boolean;
  /** The command the dialog is about (kept while the dialog fades out). */
  command: RealtimeCommandView | null;
  machine: DiagnosticsMachine;
  onHide: () => void;
  animation?: boolean;
}

/**
 * Cancel command (001 §2, button 'Stop'): asks the agent to stop a running command. Its finish arrives
 * over the live channel; asking twice is harmless (a finished command answers 'already finished').
 */
export function StopCommandDialog({ machine, ...dialog }: CommandDialogProps) {
  const submission = useDialogSubmit({
    mutation: useStopResticCommand(machine),
    successText: TEXT.cancellationSubmitted,
    partialText: TEXT.cancellationSubmittedWithErrors,
    unknownErrorText: TEXT.unknownWhileCancelling,
  });
  return (
    <CommandConfirmation
      {...dialog}
      submission={submission}
      title={LABELS.stopDialogTitle}
      confirmLabel={TEXT.stopButton}
      question={stopCommandQuestion}
      data-testid="stop-command-dialog"
    />
  );
}

/** Delete command (001 §2): removes a finished command and its output. */
export function DeleteCommandDialog({ machine, ...dialog }: CommandDialogProps) {
  const submission = useDialogSubmit({
    mutation: useDeleteResticCommand(machine),
    successText: TEXT.deleted,
    partialText: TEXT.deletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  return (
    <CommandConfirmation
      {...dialog}
      submission={submission}
      title={LABELS.deleteDialogTitle}
      confirmLabel={LABELS.deleteButton}
      question={deleteCommandQuestion}
      data-testid="delete-command-dialog"
    />
  );
}

/**
 * Asks `question` about the command's line; on confirmation submits its commandId, closing on success.
 * Migration command sequences use it too, with their rclone command line.
 */
export function CommandConfirmation({
  show,
  command,
  onHide,
  animation,
  submission,
  title,
  confirmLabel,
  question,
  commandLine = resticCommandLine,
  'data-testid': testId,
}: Omit<CommandDialogProps, 'machine'> & {
  submission: DialogSubmission & { submit: (commandId: string) => Promise<{ close: boolean }> };
  title: string;
  confirmLabel: string;
  question: (commandLine: string) => string;
  commandLine?: (command: RealtimeCommandView) => string;
  'data-testid': string;
}) {
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={title}
      confirmLabel={confirmLabel}
      onConfirm={async () => {
        if (command && (await submission.submit(command.commandId)).close) onHide();
      }}
      animation={animation}
      data-testid={testId}
    >
      {command && <p>{question(commandLine(command))}</p>}
    </ConfirmDialog>
  );
}
