import Form from 'react-bootstrap/Form';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

export interface TextFieldProps<F extends FieldValues> {
  form: UseFormReturn<F>;
  name: Path<F>;
  label: string;
  type?: 'text' | 'email' | 'password' | 'tel' | 'number' | 'url' | 'datetime-local';
  autoComplete?: string;
  placeholder?: string;
  /** Id prefix, so two forms on one page can share field names. */
  idPrefix?: string;
}

/** A labelled input bound to react-hook-form, with its message (client or server) under it. */
export function TextField<F extends FieldValues>({
  form,
  name,
  label,
  type = 'text',
  autoComplete,
  placeholder,
  idPrefix = '',
}: TextFieldProps<F>) {
  const error = form.formState.errors[name];
  const message = typeof error?.message === 'string' ? error.message : undefined;
  return (
    <Form.Group className="mb-3" controlId={`${idPrefix}${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        autoComplete={autoComplete}
        placeholder={placeholder}
        {...form.register(name)}
        isInvalid={Boolean(error)}
      />
      <Form.Control.Feedback type="invalid">{message}</Form.Control.Feedback>
    </Form.Group>
  );
}
