import {
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  RESTIC_COMMAND_LABELS,
  resticCommandFormSchema,
} from '@portal/domain';
import { newRequestId } from '../../app/requestId';
import { type DialogProps, FormDialog, TextField, useFormDialog } from '../../ui';
import { useSubmitResticCommand } from './mutations';
import type { DiagnosticsMachine } from './queries';

const LABELS = MESSAGES.resticDiagnostics;

interface CommandFormValues {
  baseCommand: string;
  commandArguments: string;
  commandFlags: string;
}

const EMPTY: CommandFormValues = { baseCommand: '', commandArguments: '', commandFlags: '' };

/**
 * The domain's form schema: the submission without the request id, which each submission generates, with the
 * same allow-list of flags and arguments the server and the agent apply (issue 29).
 */
const formSchema = resticCommandFormSchema;

export interface SubmitResticCommandDialogProps extends DialogProps {
  machine: DiagnosticsMachine;
  /** The submitted command's id, so the diagnostics dialog shows its tab. */
  onSubmitted: (commandId: string) => void;
}

/**
 * Submit restic command (001 §2, §5): base command required (label 'base command'); arguments and flags
 * free text split on single spaces; the request id is a generated unique id (001 §9).
 */
export function SubmitResticCommandDialog({ machine, onSubmitted, ...shown }: SubmitResticCommandDialogProps) {
  const { field, dialog } = useFormDialog({
    ...shown,
    // The schema turns the free text into the payload's lists.
    schema: formSchema,
    defaults: () => EMPTY,
    mutation: useSubmitResticCommand(machine),
    variables: (payload) => ({ requestId: newRequestId(), ...payload }),
    onOutcome: (outcome, { requestId }) => {
      if (outcome.applied) onSubmitted(requestId);
      if (outcome.close) shown.onHide();
    },
    fieldNames: ['baseCommand', 'commandArguments', 'commandFlags'],
    routing: MESSAGE_ROUTING.resticCommandSubmit,
    idPrefix: 'restic-',
    ...OUTCOME_TEXTS.resticCommand.submit,
  });
  return (
    <FormDialog
      dialog={dialog}
      title={LABELS.submitDialogTitle}
      submitLabel={LABELS.submitDialogSubmit}
      data-testid="submit-restic-command-dialog"
    >
      <TextField {...field} name="baseCommand" label={RESTIC_COMMAND_LABELS.baseCommand} />
      <TextField {...field} name="commandArguments" label={RESTIC_COMMAND_LABELS.commandArguments} />
      <TextField {...field} name="commandFlags" label={RESTIC_COMMAND_LABELS.commandFlags} />
    </FormDialog>
  );
}
