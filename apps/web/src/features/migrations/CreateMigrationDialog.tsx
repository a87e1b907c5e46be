import {
  MESSAGE_ROUTING,
  MESSAGES,
  MIGRATION_TEXTS,
  migrationCreateSchema,
  migrationLocationText,
  OUTCOME_TEXTS,
} from '@portal/domain';
import type { DialogProps } from '../../ui';
import { DestinationDialog } from './DestinationDialog';
import { useCreateMigration } from './mutations';
import { type MigrationPackageRef, useMigrationDestinations } from './queries';

const TEXT = MESSAGES.migration;
const schema = migrationCreateSchema();

export interface CreateMigrationDialogProps extends DialogProps {
  target: MigrationPackageRef;
}

/**
 * Initialize backup package migration (001 §2, §5): a destination among the customer's other storage
 * locations (the package's current one is not offered, and the server refuses it too), 0 meaning none
 * chosen ('Must choose a destination location').
 */
export function CreateMigrationDialog({ show, target, onHide, animation }: CreateMigrationDialogProps) {
  const destinations = useMigrationDestinations(target, show);
  return (
    <DestinationDialog
      show={show}
      onHide={onHide}
      title={TEXT.createDialogTitle}
      submitLabel={TEXT.migrateButton}
      field="destinationStorageLocationId"
      label={MIGRATION_TEXTS.columns.destinationField}
      options={(destinations.data?.elements ?? []).map((location) => ({
        value: location.storageLocation.id,
        label: migrationLocationText(location),
      }))}
      schema={schema}
      mutation={useCreateMigration(target)}
      texts={OUTCOME_TEXTS.migration.create}
      globalFieldNames={MESSAGE_ROUTING.migrationCreate.globalFieldNames}
      animation={animation}
      data-testid="create-migration-dialog"
    />
  );
}
