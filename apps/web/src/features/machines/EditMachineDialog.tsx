import {
  MACHINE_FORM_LABELS,
  type MachineEditForm,
  MESSAGE_ROUTING,
  MESSAGES,
  machineEditSchema,
  OUTCOME_TEXTS,
} from '@portal/domain';
import Form from 'react-bootstrap/Form';
import { FormDialog, TextField, useFormDialog } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useEditMachine } from './mutations';

const TEXT = MESSAGES.backupMachine;

/**
 * Edit backup machine (001 §5): name (max 50) and description (max 100), both required; the assigned
 * user is shown in a disabled select and sent as it is.
 */
export function EditMachineDialog({ machine, ...shown }: MachineDialogProps) {
  const { form, field, dialog } = useFormDialog({
    ...shown,
    schema: machineEditSchema,
    defaults: (): MachineEditForm => ({
      name: machine.name,
      description: machine.description,
      userId: machine.userId ?? 0,
    }),
    mutation: useEditMachine(),
    variables: (payload) => ({ machineId: machine.id, payload }),
    fieldNames: ['name', 'description', 'userId'],
    routing: MESSAGE_ROUTING.machineEdit,
    idPrefix: 'machine-',
    ...OUTCOME_TEXTS.machine.edit,
  });
  const userError = form.formState.errors.userId?.message;
  return (
    <FormDialog
      dialog={dialog}
      title={TEXT.editDialogTitle}
      submitLabel={TEXT.editSubmit}
      data-testid="edit-machine-dialog"
    >
      <TextField {...field} name="name" label={MACHINE_FORM_LABELS.name} placeholder={TEXT.namePlaceholder} />
      <TextField
        {...field}
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
    </FormDialog>
  );
}
