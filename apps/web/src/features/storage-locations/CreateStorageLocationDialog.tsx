import {
  MESSAGE_ROUTING,
  OUTCOME_TEXTS,
  STORAGE_FORM_DEFAULTS,
  STORAGE_LOCATION_TEXTS,
  storageLocationCreateSchema,
} from '@portal/domain';
import type { z } from 'zod';
import { type DialogProps, FormDialog, SelectField, useFormDialog } from '../../ui';
import { useCreateStorageLocation } from './mutations';
import { useStorageAccountChoices } from './queries';

const T = STORAGE_LOCATION_TEXTS;

type CreateForm = z.input<typeof storageLocationCreateSchema>;

export interface CreateStorageLocationDialogProps extends DialogProps {
  customerId: number;
}

/**
 * 'Create storage location' (001 §2, §5, §7, §8): a storage account to choose (-1, nothing chosen, at
 * first: 'Must choose a storage account'), then POST storagelocations {storageAccountId}; 'Storage location
 * created.', its warning variant, or the messages in the dialog.
 */
export function CreateStorageLocationDialog({ customerId, ...shown }: CreateStorageLocationDialogProps) {
  const accounts = useStorageAccountChoices(customerId, shown.show);
  const defaults = STORAGE_FORM_DEFAULTS.storageLocationCreate;
  const { field, dialog } = useFormDialog({
    ...shown,
    schema: storageLocationCreateSchema,
    defaults: (): CreateForm => defaults,
    mutation: useCreateStorageLocation(),
    variables: ({ storageAccountId }) => ({ customerId, storageAccountId }),
    fieldNames: ['storageAccountId'],
    routing: MESSAGE_ROUTING.storageLocationCreate,
    idPrefix: 'create-location-',
    ...OUTCOME_TEXTS.storageLocation.create,
  });
  return (
    <FormDialog
      dialog={dialog}
      title={T.createTitle}
      submitLabel={T.createSubmit}
      data-testid="create-storage-location-dialog"
    >
      <SelectField
        {...field}
        name="storageAccountId"
        label={T.storageAccountLabel}
        options={[
          { value: defaults.storageAccountId, label: T.nothingChosen },
          ...(accounts.data?.elements ?? []).map((a) => ({ value: a.id, label: a.name })),
        ]}
      />
    </FormDialog>
  );
}
