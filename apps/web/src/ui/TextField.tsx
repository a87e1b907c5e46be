import Form from 'react-bootstrap/Form';
import type { FieldValues } from 'react-hook-form';
import { type FieldProps, LabelledField } from './LabelledField';

export interface TextFieldProps<F extends FieldValues> extends FieldProps<F> {
  type?: 'text' | 'email' | 'password' | 'tel' | 'number' | 'url' | 'datetime-local';
  autoComplete?: string;
  placeholder?: string;
}

/** A labelled input bound to react-hook-form, with its message (client or server) under it. */
export function TextField<F extends FieldValues>({
  type = 'text',
  autoComplete,
  placeholder,
  ...field
}: TextFieldProps<F>) {
  return (
    <LabelledField {...field}>
      {(invalid) => (
        <Form.Control
          type={type}
          autoComplete={autoComplete}
          placeholder={placeholder}
          {...field.form.register(field.name)}
          isInvalid={invalid}
        />
      )}
    </LabelledField>
  );
}
