import type { z } from 'zod';
import { FormDialog } from './FormDialog';
import type { ApiMutation } from './mutation';
import { SelectField, type SelectOption } from './SelectField';
import type { SubmitOutcome, SubmitTexts } from './serverMessages';
import { useFormDialog } from './useFormDialog';

export interface ChoiceDialogProps<P, T> {
  show: boolean;
  onHide: () => void;
  title: string;
  submitLabel: string;
  /** The payload's one field, e.g. 'destinationStorageAccountId'. */
  field: string;
  label: string;
  /** The first option, chosen at each opening: the value the schema refuses ('Must choose …'). */
  nothingChosen: SelectOption;
  options: readonly SelectOption[];
  /** The domain schema the server applies too: it turns the chosen id into the payload. */
  schema: z.ZodType<P>;
  mutation: ApiMutation<P, T>;
  texts: SubmitTexts<T>;
  /** The domain's routing of this form's messages: names that stay global. */
  globalFieldNames?: readonly string[];
  /** What follows the answer instead of closing on a clean success. */
  onOutcome?: (outcome: SubmitOutcome<T>) => void | Promise<void>;
  animation?: boolean;
  'data-testid'?: string;
}

/**
 * A dialog choosing one thing from a list (a destination, a package template): one select validated by the
 * domain's schema on both sides, its message on the field; starts afresh at each opening.
 */
export function ChoiceDialog<P, T>({
  title,
  submitLabel,
  field: name,
  label,
  nothingChosen,
  options,
  schema,
  texts,
  globalFieldNames = [],
  'data-testid': testId,
  ...shown
}: ChoiceDialogProps<P, T>) {
  const none = String(nothingChosen.value);
  const { field, dialog } = useFormDialog({
    ...shown,
    ...texts,
    // The select holds ids as text; the schema turns them into the payload's number.
    schema: schema as z.ZodType<P, Record<string, string>>,
    defaults: (): Record<string, string> => ({ [name]: none }),
    variables: (payload) => payload,
    fieldNames: [name],
    routing: { globalFieldNames },
    idPrefix: `${name}-`,
  });
  return (
    <FormDialog dialog={dialog} title={title} submitLabel={submitLabel} data-testid={testId}>
      <SelectField
        {...field}
        name={name}
        label={label}
        options={[{ value: none, label: nothingChosen.label }, ...options]}
      />
    </FormDialog>
  );
}
