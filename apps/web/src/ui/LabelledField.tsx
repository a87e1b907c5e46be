import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/** What every field bound to react-hook-form takes (TextField, SelectField, CheckboxField). */
export interface FieldProps<F extends FieldValues> {
  form: UseFormReturn<F>;
  name: Path<F>;
  label: string;
  /** Id prefix, so two forms on one page can share field names. */
  idPrefix?: string;
}

/** The field's message (client or server), if it has one. */
export function fieldMessage<F extends FieldValues>(form: UseFormReturn<F>, name: Path<F>): string | undefined {
  const message = form.formState.errors[name]?.message;
  return typeof message === 'string' ? message : undefined;
}

/** A field's frame: its group and label, the control it is given (told whether it is invalid), its message under it. */
export function LabelledField<F extends FieldValues>({
  form,
  name,
  label,
  idPrefix = '',
  children,
}: FieldProps<F> & { children: (invalid: boolean) => ReactNode }) {
  return (
    <Form.Group className="mb-3" controlId={`${idPrefix}${name}`}>
      <Form.Label>{label}</Form.Label>
      {children(Boolean(form.formState.errors[name]))}
      <Form.Control.Feedback type="invalid">{fieldMessage(form, name)}</Form.Control.Feedback>
    </Form.Group>
  );
}
