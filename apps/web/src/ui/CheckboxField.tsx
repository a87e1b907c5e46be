import Form from 'react-bootstrap/Form';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

export interface CheckboxFieldProps<F extends FieldValues> {
  form: UseFormReturn<F>;
  name: Path<F>;
  label: string;
  /** Id prefix, so two forms on one page can share field names. */
  idPrefix?: string;
}

/** A checkbox bound to react-hook-form, with its message (client or server) under it. */
export function CheckboxField<F extends FieldValues>({ form, name, label, idPrefix = '' }: CheckboxFieldProps<F>) {
  const error = form.formState.errors[name];
  const message = typeof error?.message === 'string' ? error.message : undefined;
  return (
    <Form.Group className="mb-3" controlId={`${idPrefix}${name}`}>
      <Form.Check
        type="checkbox"
        label={label}
        {...form.register(name)}
        isInvalid={Boolean(error)}
        feedback={message}
        feedbackType="invalid"
      />
    </Form.Group>
  );
}
