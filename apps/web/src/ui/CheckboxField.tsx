import Form from 'react-bootstrap/Form';
import type { FieldValues } from 'react-hook-form';
import { type FieldProps, fieldMessage } from './LabelledField';

/** A checkbox bound to react-hook-form, with its message (client or server) under it. */
export function CheckboxField<F extends FieldValues>({ form, name, label, idPrefix = '' }: FieldProps<F>) {
  return (
    <Form.Group className="mb-3" controlId={`${idPrefix}${name}`}>
      <Form.Check
        type="checkbox"
        label={label}
        {...form.register(name)}
        isInvalid={Boolean(form.formState.errors[name])}
        feedback={fieldMessage(form, name)}
        feedbackType="invalid"
      />
    </Form.Group>
  );
}
