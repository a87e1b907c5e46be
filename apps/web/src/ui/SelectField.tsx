import Form from 'react-bootstrap/Form';
import type { FieldValues } from 'react-hook-form';
import { type FieldProps, LabelledField } from './LabelledField';

export interface SelectOption {
  value: string | number;
  label: string;
}

/** Options shown under a heading of their own (an <optgroup>). */
export interface SelectOptionGroup {
  group: string;
  options: readonly SelectOption[];
}

export interface SelectFieldProps<F extends FieldValues> extends FieldProps<F> {
  /** Options, and groups of options under their heading, in the order shown. */
  options: ReadonlyArray<SelectOption | SelectOptionGroup>;
  disabled?: boolean;
}

const optionOf = (option: SelectOption) => (
  <option key={option.value} value={option.value}>
    {option.label}
  </option>
);

/** A labelled select bound to react-hook-form, with its message (client or server) under it. */
export function SelectField<F extends FieldValues>({ options, disabled, ...field }: SelectFieldProps<F>) {
  return (
    <LabelledField {...field}>
      {(invalid) => (
        <Form.Select {...field.form.register(field.name)} disabled={disabled} isInvalid={invalid}>
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
      )}
    </LabelledField>
  );
}
