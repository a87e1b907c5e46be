import {
  deleteCommandQuestion,
  MESSAGES,
  OUTCOME_TEXTS,
  type RealtimeCommandView,
  resticCommandLine,
  stopCommandQuestion,
} from '@portal/domain';
import { type ApiMutation, ConfirmActionDialog, type DialogProps } from '../../ui';
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

type CommandKind = keyof typeof CONFIRMATIONS;

/**
 * The stop and delete confirmations of a list of commands: the one `shown` names opens, about the command of the
 * last one opened (kept while it fades out). Stop asks the agent to stop a running command (001 §2, button 'Stop';
 * its finish arrives over the live channel, and asking twice is harmless); delete removes a finished command and
 * its output.
 */
export function CommandConfirmations({
  shown,
  last,
  mutations,
  ...dialog
}: Omit<CommandDialogProps, 'machine' | 'command' | 'show'> & {
  shown: CommandKind | null;
  last: { kind: CommandKind; command: RealtimeCommandView } | null;
  mutations: Record<CommandKind, ApiMutation<string, unknown>>;
  commandLine?: (command: RealtimeCommandView) => string;
}) {
  return (
    <>
      {(['stop', 'delete'] as const).map((kind) => (
        <CommandConfirmation
          {...dialog}
          key={kind}
          kind={kind}
          show={shown === kind}
          command={last?.kind === kind ? last.command : null}
          mutation={mutations[kind]}
        />
      ))}
    </>
  );
}

/** The stop or delete confirmation among a dialog's own dialogs, when it is one of those. */
export const commandDialogOf = <D extends { kind: string }>(dialog: D | null) =>
  dialog && (dialog.kind === 'stop' || dialog.kind === 'delete') ? (dialog as Extract<D, { kind: CommandKind }>) : null;

/**
 * Asks about the command's line; on confirmation submits its commandId, closing on success. Migration
 * command sequences use it too, with their rclone command line.
 */
function CommandConfirmation({
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
