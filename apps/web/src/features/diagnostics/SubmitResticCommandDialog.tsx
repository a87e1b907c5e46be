import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGE_ROUTING, MESSAGES, RESTIC_COMMAND_LABELS, resticCommandFormSchema } from '@portal/domain';
import { type Resolver, useForm } from 'react-hook-form';
import { newRequestId } from '../../app/requestId';
import { FormModal, GlobalErrors, TextField, useDialogSubmit } from '../../ui';
import { useSubmitResticCommand } from './mutations';
import type { DiagnosticsMachine } from './queries';

const TEXT = MESSAGES.resticCommand;
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

export interface SubmitResticCommandDialogProps {
  show: boolean;
  machine: DiagnosticsMachine;
  onHide: () => void;
  /** The submitted command's id, so the diagnostics dialog shows its tab. */
  onSubmitted: (commandId: string) => void;
  animation?: boolean;
}

/**
 * Submit restic command (001 §2, §5): base command required (label 'base command'); arguments and flags
 * free text split on single spaces; the request id is a generated unique id (001 §9).
 */
export function SubmitResticCommandDialog({
  show,
  machine,
  onHide,
  onSubmitted,
  animation,
}: SubmitResticCommandDialogProps) {
  const form = useForm<CommandFormValues>({
    // The schema turns the free text into the payload's lists.
    resolver: zodResolver(formSchema) as unknown as Resolver<CommandFormValues>,
    defaultValues: EMPTY,
  });
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useSubmitResticCommand(machine),
    successText: TEXT.submitted,
    partialText: TEXT.submittedWithErrors,
    unknownErrorText: TEXT.unknownWhileSubmitting,
    form: {
      setError: form.setError,
      fieldNames: ['baseCommand', 'commandArguments', 'commandFlags'],
      globalFieldNames: MESSAGE_ROUTING.resticCommandSubmit.globalFieldNames,
    },
  });

  const send = form.handleSubmit(async (values) => {
    const requestId = newRequestId();
    const outcome = await submit({ requestId, ...formSchema.parse(values) });
    if (outcome.applied) onSubmitted(requestId);
    if (outcome.close) onHide();
  });

  return (
    <FormModal
      show={show}
      title={LABELS.submitDialogTitle}
      onHide={onHide}
      onSubmit={send}
      submitting={form.formState.isSubmitting}
      submitLabel={LABELS.submitDialogSubmit}
      onExited={() => {
        form.reset(EMPTY);
        clearErrors();
      }}
      animation={animation}
      data-testid="submit-restic-command-dialog"
    >
      <TextField form={form} idPrefix="restic-" name="baseCommand" label={RESTIC_COMMAND_LABELS.baseCommand} />
      <TextField
        form={form}
        idPrefix="restic-"
        name="commandArguments"
        label={RESTIC_COMMAND_LABELS.commandArguments}
      />
      <TextField form={form} idPrefix="restic-" name="commandFlags" label={RESTIC_COMMAND_LABELS.commandFlags} />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
