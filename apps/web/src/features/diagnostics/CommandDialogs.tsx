import {
  deleteCommandQuestion,
  MESSAGES,
  type RealtimeCommandView,
  resticCommandLine,
  stopCommandQuestion,
} from '@portal/domain';
import { ConfirmDialog, GlobalErrors, useDialogSubmit } from '../../ui';
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
export function StopCommandDialog({ show, command, machine, onHide, animation }: CommandDialogProps) {
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useStopResticCommand(machine),
    successText: TEXT.cancellationSubmitted,
    partialText: TEXT.cancellationSubmittedWithErrors,
    unknownErrorText: TEXT.unknownWhileCancelling,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      title={LABELS.stopDialogTitle}
      confirmLabel={TEXT.stopButton}
      onConfirm={async () => {
        if (!command) return;
        if ((await submit(command.commandId)).close) onHide();
      }}
      onExited={clearErrors}
      animation={animation}
      data-testid="stop-command-dialog"
    >
      {command && <p>{stopCommandQuestion(resticCommandLine(command))}</p>}
      <GlobalErrors messages={globalErrors} />
    </ConfirmDialog>
  );
}

/** Delete command (001 §2): removes a finished command and its output. */
export function DeleteCommandDialog({ show, command, machine, onHide, animation }: CommandDialogProps) {
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useDeleteResticCommand(machine),
    successText: TEXT.deleted,
    partialText: TEXT.deletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      title={LABELS.deleteDialogTitle}
      confirmLabel={LABELS.deleteButton}
      onConfirm={async () => {
        if (!command) return;
        if ((await submit(command.commandId)).close) onHide();
      }}
      onExited={clearErrors}
      animation={animation}
      data-testid="delete-command-dialog"
    >
      {command && <p>{deleteCommandQuestion(resticCommandLine(command))}</p>}
      <GlobalErrors messages={globalErrors} />
    </ConfirmDialog>
  );
}
