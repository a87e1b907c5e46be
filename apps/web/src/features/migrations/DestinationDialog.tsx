import { zodResolver } from '@hookform/resolvers/zod';
import { MIGRATION_TEXTS, STORAGE_FORM_DEFAULTS, STORAGE_LOCATION_TEXTS } from '@portal/domain';
import { type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type ApiMutation,
  FormModal,
  GlobalErrors,
  SelectField,
  type SelectOption,
  type SubmitTexts,
  useDialogSubmit,
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
 * sides, its message on the field; closes on success, resets when closed.
 */
export function DestinationDialog<P>({
  show,
  onHide,
  title,
  submitLabel,
  field,
  label,
  options,
  schema,
  mutation,
  texts,
  globalFieldNames,
  animation,
  'data-testid': testId,
}: DestinationDialogProps<P>) {
  const none = String(NOTHING_CHOSEN[field]);
  const empty = { [field]: none } as DestinationForm;
  const form = useForm<DestinationForm>({
    // The select holds ids as text; the schema turns them into the payload's number.
    resolver: zodResolver(schema as z.ZodType<unknown, DestinationForm>) as unknown as Resolver<DestinationForm>,
    defaultValues: empty,
  });
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation,
    ...texts,
    form: { setError: form.setError, fieldNames: [field], globalFieldNames },
  });
  const send = form.handleSubmit(async (values) => {
    const outcome = await submit(schema.parse(values));
    if (outcome.close) onHide();
  });
  return (
    <FormModal
      show={show}
      title={title}
      onHide={onHide}
      onSubmit={send}
      submitting={form.formState.isSubmitting}
      submitLabel={submitLabel}
      onExited={() => {
        form.reset(empty);
        clearErrors();
      }}
      animation={animation}
      data-testid={testId}
    >
      <SelectField
        form={form}
        idPrefix={`${field}-`}
        name={field}
        label={label}
        options={[{ value: none, label: NOTHING_CHOSEN_LABEL[field] }, ...options]}
      />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
