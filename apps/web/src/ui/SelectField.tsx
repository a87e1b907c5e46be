import Form from 'react-bootstrap/Form';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

export interface SelectOption {
  value: string | number;
  label: string;
}

export interface SelectFieldProps<F extends FieldValues> {
  form: UseFormReturn<F>;
  name: Path<F>;
  label: string;
  options: readonly SelectOption[];
  disabled?: boolean;
  /** Id prefix, so two forms on one page can share field names. */
  idPrefix?: string;
}

/** A labelled select bound to react-hook-form, with its message (client or server) under it. */
export function SelectField<F extends FieldValues>({
  form,
  name,
  label,
  options,
  disabled,
  idPrefix = '',
}: SelectFieldProps<F>) {
  const error = form.formState.errors[name];
  const message = typeof error?.message === 'string' ? error.message : undefined;
  return (
    <Form.Group className="mb-3" controlId={`${idPrefix}${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Select {...form.register(name)} disabled={disabled} isInvalid={Boolean(error)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Form.Select>
      <Form.Control.Feedback type="invalid">{message}</Form.Control.Feedback>
    </Form.Group>
  );
}
