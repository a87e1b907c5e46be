import { MIGRATION_TEXTS, STORAGE_FORM_DEFAULTS, STORAGE_LOCATION_TEXTS } from '@portal/domain';
import type { z } from 'zod';
import {
  type ApiMutation,
  FormDialog,
  SelectField,
  type SelectOption,
  type SubmitTexts,
  useFormDialog,
} from '../../ui';

/** The one field of a destination form: a location (package migration) or an account (account migration). */
export type DestinationField = 'destinationStorageLocationId' | 'destinationStorageAccountId';
type DestinationForm = Record<DestinationField, string>;

/** 'Nothing chosen' of each field (001 §9: destination ids default to 0) and its label. */
const NOTHING_CHOSEN: Record<DestinationField, number> = {
  destinationStorageLocationId: STORAGE_FORM_DEFAULTS.migrationCreate.destinationStorageLocationId,
  destinationStorageAccountId: STORAGE_FORM_DEFAULTS.storageAccountMigration.destinationStorageAccountId,
};

const NOTHING_CHOSEN_LABEL: Record<DestinationField, string> = {
  destinationStorageLocationId: MIGRATION_TEXTS.chooseDestinationLocation,
  destinationStorageAccountId: STORAGE_LOCATION_TEXTS.nothingChosen,
};

export interface DestinationDialogProps<P> {
  show: boolean;
  onHide: () => void;
  title: string;
  submitLabel: string;
  field: DestinationField;
  label: string;
  /** The choices; 'nothing chosen' leads the list. */
  options: readonly SelectOption[];
  /** The domain schema the server applies too. */
  schema: z.ZodType<P>;
  mutation: ApiMutation<P, unknown>;
  texts: SubmitTexts;
  globalFieldNames: readonly string[];
  animation?: boolean;
  'data-testid': string;
}

/**
 * Choose where something migrates to (001 §2, §5): one select validated by the domain's schema on both
 * sides, its message on the field; closes on success, starts afresh at each opening.
 */
export function DestinationDialog<P>({
  title,
  submitLabel,
  field: name,
  label,
  options,
  schema,
  texts,
  globalFieldNames,
  'data-testid': testId,
  ...shown
}: DestinationDialogProps<P>) {
  const none = String(NOTHING_CHOSEN[name]);
  const { field, dialog } = useFormDialog({
    ...shown,
    ...texts,
    // The select holds ids as text; the schema turns them into the payload's number.
    schema: schema as z.ZodType<P, DestinationForm>,
    defaults: () => ({ [name]: none }) as DestinationForm,
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
        options={[{ value: none, label: NOTHING_CHOSEN_LABEL[name] }, ...options]}
      />
    </FormDialog>
  );
}
