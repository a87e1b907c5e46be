import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_ROUTING,
  MESSAGES,
  MIGRATION_TEXTS,
  migrationCreateSchema,
  migrationLocationText,
  STORAGE_FORM_DEFAULTS,
} from '@portal/domain';
import { type Resolver, useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, SelectField, useDialogSubmit } from '../../ui';
import { useCreateMigration } from './mutations';
import { type MigrationPackageRef, useMigrationDestinations } from './queries';

const TEXT = MESSAGES.migration;

interface CreateFormValues {
  destinationStorageLocationId: string;
}
const EMPTY = {
  destinationStorageLocationId: String(STORAGE_FORM_DEFAULTS.migrationCreate.destinationStorageLocationId),
};

export interface CreateMigrationDialogProps {
  show: boolean;
  target: MigrationPackageRef;
  onHide: () => void;
  animation?: boolean;
}

/**
 * Initialize backup package migration (001 §2, §5): a destination among the customer's other storage
 * locations, 0 meaning none chosen ('Must choose a destination location'), with the schema the server
 * applies.
 */
const schema = migrationCreateSchema();

export function CreateMigrationDialog({ show, target, onHide, animation }: CreateMigrationDialogProps) {
  // The package's current location is not among them (the server refuses it too).
  const destinations = useMigrationDestinations(target, show);
  const form = useForm<CreateFormValues>({
    // The select holds ids as text; the schema turns them into the payload's number.
    resolver: zodResolver(schema) as unknown as Resolver<CreateFormValues>,
    defaultValues: EMPTY,
  });
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useCreateMigration(target),
    successText: TEXT.initialized,
    partialText: TEXT.initializedWithErrors,
    unknownErrorText: TEXT.unknownWhileInitializing,
    form: {
      setError: form.setError,
      fieldNames: ['destinationStorageLocationId'],
      globalFieldNames: MESSAGE_ROUTING.migrationCreate.globalFieldNames,
    },
  });
  const create = form.handleSubmit(async (values) => {
    const outcome = await submit(schema.parse(values));
    if (outcome.close) onHide();
  });
  return (
    <FormModal
      show={show}
      title={TEXT.createDialogTitle}
      onHide={onHide}
      onSubmit={create}
      submitting={form.formState.isSubmitting}
      submitLabel={TEXT.migrateButton}
      onExited={() => {
        form.reset(EMPTY);
        clearErrors();
      }}
      animation={animation}
      data-testid="create-migration-dialog"
    >
      <SelectField
        form={form}
        idPrefix="migration-"
        name="destinationStorageLocationId"
        label={MIGRATION_TEXTS.columns.destinationField}
        options={[
          { value: '0', label: '' },
          ...(destinations.data?.elements ?? []).map((location) => ({
            value: location.storageLocation.id,
            label: migrationLocationText(location),
          })),
        ]}
      />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
