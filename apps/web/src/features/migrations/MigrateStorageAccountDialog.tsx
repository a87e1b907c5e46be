import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_ROUTING,
  MESSAGES,
  MIGRATION_TEXTS,
  STORAGE_FORM_DEFAULTS,
  storageAccountMigrationSchema,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { type Resolver, useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, SelectField, useDialogSubmit } from '../../ui';
import { useMigrateStorageAccount } from './mutations';

const TEXT = MESSAGES.storageAccount;

interface AccountFormValues {
  destinationStorageAccountId: string;
}
const EMPTY = {
  destinationStorageAccountId: String(STORAGE_FORM_DEFAULTS.storageAccountMigration.destinationStorageAccountId),
};

export interface MigrateStorageAccountProps {
  /** The account whose packages move. */
  storageAccountId: number;
  /** The destinations to offer: the provider's other storage accounts. */
  accounts: ReadonlyArray<{ id: number; name: string }>;
  animation?: boolean;
}

/**
 * 'Migrate' on a storage account's page (001 §2, §5): the 'Migrate Storage Account' dialog with the
 * destination account ('Must choose a destination account'). Every package of the account gets its own
 * package migration, which the server drives to its finalisation; 'Storage Account migration succeeded.'
 * says they were created and started.
 */
export function MigrateStorageAccountButton({ storageAccountId, accounts, animation }: MigrateStorageAccountProps) {
  const [show, setShow] = useState(false);
  const schema = storageAccountMigrationSchema(storageAccountId);
  const form = useForm<AccountFormValues>({
    resolver: zodResolver(schema) as unknown as Resolver<AccountFormValues>,
    defaultValues: EMPTY,
  });
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useMigrateStorageAccount(storageAccountId),
    successText: TEXT.migrationSucceeded,
    partialText: TEXT.migrationPerformedWithErrors,
    unknownErrorText: TEXT.unknownWhilePerformingMigration,
    form: {
      setError: form.setError,
      fieldNames: ['destinationStorageAccountId'],
      globalFieldNames: MESSAGE_ROUTING.storageAccountMigration.globalFieldNames,
    },
  });
  const migrate = form.handleSubmit(async (values) => {
    const outcome = await submit(schema.parse(values));
    if (outcome.close) setShow(false);
  });
  return (
    <>
      <Button variant="outline-primary" onClick={() => setShow(true)}>
        {TEXT.migrateButton}
      </Button>
      <FormModal
        show={show}
        title={TEXT.migrateDialogTitle}
        onHide={() => setShow(false)}
        onSubmit={migrate}
        submitting={form.formState.isSubmitting}
        submitLabel={TEXT.migrateButton}
        onExited={() => {
          form.reset(EMPTY);
          clearErrors();
        }}
        animation={animation}
        data-testid="migrate-storage-account-dialog"
      >
        <SelectField
          form={form}
          idPrefix="account-migration-"
          name="destinationStorageAccountId"
          label={MIGRATION_TEXTS.columns.destinationAccountField}
          options={[
            { value: '0', label: '' },
            ...accounts.filter((a) => a.id !== storageAccountId).map((a) => ({ value: a.id, label: a.name })),
          ]}
        />
        <GlobalErrors messages={globalErrors} />
      </FormModal>
    </>
  );
}
