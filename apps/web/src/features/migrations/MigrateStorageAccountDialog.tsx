import {
  MESSAGE_ROUTING,
  MESSAGES,
  MIGRATION_TEXTS,
  OUTCOME_TEXTS,
  storageAccountMigrationSchema,
} from '@portal/domain';
import { DialogButton } from '../../ui';
import { DestinationDialog } from './DestinationDialog';
import { useMigrateStorageAccount } from './mutations';

const TEXT = MESSAGES.storageAccount;

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
  const mutation = useMigrateStorageAccount(storageAccountId);
  return (
    <DialogButton
      variant="outline-primary"
      dialog={(open) => (
        <DestinationDialog
          {...open}
          title={TEXT.migrateDialogTitle}
          submitLabel={TEXT.migrateButton}
          field="destinationStorageAccountId"
          label={MIGRATION_TEXTS.columns.destinationAccountField}
          options={accounts.filter((a) => a.id !== storageAccountId).map((a) => ({ value: a.id, label: a.name }))}
          schema={storageAccountMigrationSchema(storageAccountId)}
          mutation={mutation}
          texts={OUTCOME_TEXTS.migration.migrateStorageAccount}
          globalFieldNames={MESSAGE_ROUTING.storageAccountMigration.globalFieldNames}
          animation={animation}
          data-testid="migrate-storage-account-dialog"
        />
      )}
    >
      {TEXT.migrateButton}
    </DialogButton>
  );
}
