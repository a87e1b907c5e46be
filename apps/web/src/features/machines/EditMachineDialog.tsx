import { zodResolver } from '@hookform/resolvers/zod';
import {
  MACHINE_FORM_LABELS,
  type MachineEditForm,
  MESSAGE_ROUTING,
  MESSAGES,
  machineEditSchema,
} from '@portal/domain';
import Form from 'react-bootstrap/Form';
import { type Resolver, useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, TextField, useDialogSubmit, useOnOpen } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useEditMachine } from './mutations';

const TEXT = MESSAGES.backupMachine;

interface EditValues {
  name: string;
  description: string;
  userId: number;
}

/**
 * Edit backup machine (001 §5): name (max 50) and description (max 100), both required; the assigned
 * user is shown in a disabled select and sent as it is.
 */
export function EditMachineDialog({ show, onHide, machine, animation }: MachineDialogProps) {
  const current = (): EditValues => ({
    name: machine.name,
    description: machine.description,
    userId: machine.userId ?? 0,
  });
  const form = useForm<EditValues>({
    resolver: zodResolver(machineEditSchema) as unknown as Resolver<EditValues>,
    defaultValues: current(),
  });
  useOnOpen(show, () => form.reset(current()));
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useEditMachine(),
    successText: TEXT.edited,
    partialText: TEXT.updatedWithErrors,
    unknownErrorText: TEXT.unknownWhileEditing,
    form: {
      setError: form.setError,
      fieldNames: ['name', 'description', 'userId'],
      globalFieldNames: MESSAGE_ROUTING.machineEdit.globalFieldNames,
    },
  });
  const save = form.handleSubmit(async (values) => {
    const payload = machineEditSchema.parse(values satisfies MachineEditForm);
    const outcome = await submit({ machineId: machine.id, payload });
    if (outcome.close) onHide();
  });
  const userError = form.formState.errors.userId?.message;
  return (
    <FormModal
      show={show}
      title={TEXT.editDialogTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={form.formState.isSubmitting}
      submitLabel={TEXT.editSubmit}
      onExited={() => {
        form.reset(current());
        clearErrors();
      }}
      animation={animation}
      data-testid="edit-machine-dialog"
    >
      <TextField
        form={form}
        idPrefix="machine-"
        name="name"
        label={MACHINE_FORM_LABELS.name}
        placeholder={TEXT.namePlaceholder}
      />
      <TextField
        form={form}
        idPrefix="machine-"
        name="description"
        label={MACHINE_FORM_LABELS.description}
        placeholder={TEXT.descriptionPlaceholder}
      />
      <Form.Group className="mb-3" controlId="machine-userId">
        <Form.Label>{MACHINE_FORM_LABELS.userId}</Form.Label>
        <Form.Select value={machine.userId ?? ''} disabled isInvalid={userError !== undefined}>
          <option value={machine.userId ?? ''}>{machine.assignedUser ?? ''}</option>
        </Form.Select>
        <Form.Control.Feedback type="invalid">{userError}</Form.Control.Feedback>
      </Form.Group>
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
