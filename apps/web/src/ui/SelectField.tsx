import Form from 'react-bootstrap/Form';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

export interface SelectOption {
  value: string | number;
  label: string;
}

/** Options shown under a heading of their own (an <optgroup>). */
export interface SelectOptionGroup {
  group: string;
  options: readonly SelectOption[];
}

export interface SelectFieldProps<F extends FieldValues> {
  form: UseFormReturn<F>;
  name: Path<F>;
  label: string;
  /** Options, and groups of options under their heading, in the order shown. */
  options: ReadonlyArray<SelectOption | SelectOptionGroup>;
  disabled?: boolean;
  /** Id prefix, so two forms on one page can share field names. */
  idPrefix?: string;
}

const optionOf = (option: SelectOption) => (
  <option key={option.value} value={option.value}>
    {option.label}
  </option>
);

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
        {options.map((entry) =>
          'group' in entry ? (
            <optgroup key={`group:${entry.group}`} label={entry.group}>
              {entry.options.map(optionOf)}
            </optgroup>
          ) : (
            optionOf(entry)
          ),
        )}
      </Form.Select>
      <Form.Control.Feedback type="invalid">{message}</Form.Control.Feedback>
    </Form.Group>
  );
}
