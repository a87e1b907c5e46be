import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_ROUTING,
  MESSAGES,
  STORAGE_FORM_DEFAULTS,
  STORAGE_LOCATION_TEXTS,
  type StorageLocationCreatePayload,
  storageLocationCreateSchema,
} from '@portal/domain';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormModal, GlobalErrors, SelectField, useDialogSubmit, useOnOpen } from '../../ui';
import { useCreateStorageLocation } from './mutations';
import { useStorageAccountChoices } from './queries';

const T = STORAGE_LOCATION_TEXTS;
const M = MESSAGES.storageLocation;

type CreateForm = z.input<typeof storageLocationCreateSchema>;

export interface CreateStorageLocationDialogProps {
  show: boolean;
  onHide: () => void;
  customerId: number;
  animation?: boolean;
}

/**
 * 'Create storage location' (001 §2, §5, §7, §8): a storage account to choose (-1, nothing chosen, at
 * first: 'Must choose a storage account'), then POST storagelocations {storageAccountId}; 'Storage location
 * created.', its warning variant, or the messages in the dialog.
 */
export function CreateStorageLocationDialog({ show, onHide, customerId, animation }: CreateStorageLocationDialogProps) {
  const accounts = useStorageAccountChoices(customerId, show);
  const defaults = STORAGE_FORM_DEFAULTS.storageLocationCreate;
  const form = useForm<CreateForm, unknown, StorageLocationCreatePayload>({
    resolver: zodResolver(storageLocationCreateSchema),
    defaultValues: defaults,
  });
  useOnOpen(show, () => form.reset(defaults));

  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useCreateStorageLocation(),
    successText: M.created,
    partialText: M.createdWithErrors,
    unknownErrorText: M.unknownWhileCreating,
    form: {
      setError: form.setError,
      fieldNames: ['storageAccountId'],
      globalFieldNames: MESSAGE_ROUTING.storageLocationCreate.globalFieldNames,
    },
  });

  const create = form.handleSubmit(async ({ storageAccountId }) => {
    const outcome = await submit({ customerId, storageAccountId });
    if (outcome.close) onHide();
  });

  return (
    <FormModal
      show={show}
      title={T.createTitle}
      onHide={onHide}
      onSubmit={create}
      submitting={form.formState.isSubmitting}
      submitLabel={T.createSubmit}
      onExited={clearErrors}
      animation={animation}
      data-testid="create-storage-location-dialog"
    >
      <SelectField
        form={form}
        idPrefix="create-location-"
        name="storageAccountId"
        label={T.storageAccountLabel}
        options={[
          { value: defaults.storageAccountId, label: T.nothingChosen },
          ...(accounts.data?.elements ?? []).map((a) => ({ value: a.id, label: a.name })),
        ]}
      />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
