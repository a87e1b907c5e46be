import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { TextField, type TextFieldProps } from './TextField';

/** One input of a list of text fields: what TextField takes besides the form. */
export type TextFieldSpec<F extends FieldValues> = Omit<TextFieldProps<F>, 'form' | 'idPrefix'>;

/** A form's text fields in the order given (name, e-mail, passwords …), each a TextField. */
export function TextFields<F extends FieldValues>({
  fields,
  ...field
}: {
  form: UseFormReturn<F>;
  idPrefix?: string;
  fields: ReadonlyArray<TextFieldSpec<F>>;
}) {
  return fields.map((spec) => <TextField key={spec.name} {...field} {...spec} />);
}
