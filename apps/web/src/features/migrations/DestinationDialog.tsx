import { MIGRATION_TEXTS, STORAGE_FORM_DEFAULTS, STORAGE_LOCATION_TEXTS } from '@portal/domain';
import { ChoiceDialog, type ChoiceDialogProps, type SelectOption } from '../../ui';

/** The one field of a destination form: a location (package migration) or an account (account migration). */
export type DestinationField = 'destinationStorageLocationId' | 'destinationStorageAccountId';

/** 'Nothing chosen' of each field (001 §9: destination ids default to 0) and its label. */
const NOTHING_CHOSEN: Record<DestinationField, SelectOption> = {
  destinationStorageLocationId: {
    value: STORAGE_FORM_DEFAULTS.migrationCreate.destinationStorageLocationId,
    label: MIGRATION_TEXTS.chooseDestinationLocation,
  },
  destinationStorageAccountId: {
    value: STORAGE_FORM_DEFAULTS.storageAccountMigration.destinationStorageAccountId,
    label: STORAGE_LOCATION_TEXTS.nothingChosen,
  },
};

export interface DestinationDialogProps<P> extends Omit<ChoiceDialogProps<P, unknown>, 'nothingChosen' | 'onOutcome'> {
  field: DestinationField;
  globalFieldNames: readonly string[];
  'data-testid': string;
}

/** Choose where something migrates to (001 §2, §5); closes on success. */
export function DestinationDialog<P>(props: DestinationDialogProps<P>) {
  return <ChoiceDialog {...props} nothingChosen={NOTHING_CHOSEN[props.field]} />;
}
