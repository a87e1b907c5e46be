import {
  MESSAGES,
  OUTCOME_TEXTS,
  type OutcomeTexts,
  STORAGE_LOCATION_TEXTS,
  type StorageLocationRow,
  storageLocationName,
  typeStorageLocationName,
} from '@portal/domain';
import { useState } from 'react';
import type { ButtonProps } from 'react-bootstrap/Button';
import { type ApiMutation, ConfirmByNameActionDialog, type DialogProps } from '../../ui';
import { useDeleteStorageLocation, useMakeDefaultStorageLocation } from './mutations';

const T = STORAGE_LOCATION_TEXTS;

export interface StorageLocationDialogProps extends DialogProps {
  /** The location acted on; the dialog shows nothing without one. */
  location: StorageLocationRow | null;
  /** The action was done (e.g. the location page goes back to the customer after a deletion). */
  onDone?: () => void;
}

interface ConfirmTexts extends OutcomeTexts {
  title: string;
  confirmLabel: string;
  mismatchMessage: string;
  variant: ButtonProps['variant'];
  testId: string;
}

/**
 * A storage location action confirmed by typing the location's name (001 §5: the bucket, plus '/' and the
 * subfolder); the server's messages show in the dialog, all global (no field name, or storageLocationId).
 */
function LocationConfirmDialog({
  show,
  onHide,
  location,
  onDone,
  animation,
  texts: { title, confirmLabel, mismatchMessage, variant, testId, ...texts },
  mutation,
}: StorageLocationDialogProps & {
  texts: ConfirmTexts;
  mutation: ApiMutation<{ customerId: number; storageLocationId: number }, unknown>;
}) {
  // Done with messages (001 §8: '… but some errors occurred.'): the dialog stays to show them, and the
  // caller hears of it once the dialog is closed.
  const [doneWithMessages, setDoneWithMessages] = useState(false);
  const hide = () => {
    onHide();
    if (doneWithMessages) {
      setDoneWithMessages(false);
      onDone?.();
    }
  };
  return (
    <ConfirmByNameActionDialog
      show={show && location !== null}
      onHide={hide}
      action={{
        mutation,
        variables: () => (location ? { customerId: location.customerId, storageLocationId: location.id } : null),
        onOutcome: (outcome) => {
          if (outcome.close) {
            onHide();
            onDone?.();
          } else if (outcome.applied) {
            setDoneWithMessages(true);
          }
        },
        ...texts,
      }}
      title={title}
      prompt={location ? typeStorageLocationName(location) : ''}
      expectedName={location ? storageLocationName(location) : ''}
      mismatchMessage={mismatchMessage}
      confirmLabel={confirmLabel}
      variant={variant}
      animation={animation}
      data-testid={testId}
    />
  );
}

/** 'Delete storage location' (001 §2, §5, §6, §8): 'Storage location has been deleted'. */
export function DeleteStorageLocationDialog(props: StorageLocationDialogProps) {
  return (
    <LocationConfirmDialog
      {...props}
      mutation={useDeleteStorageLocation()}
      texts={{
        title: T.deleteTitle,
        confirmLabel: T.deleteSubmit,
        mismatchMessage: MESSAGES.confirmByName.storageLocationDeletion,
        variant: 'danger',
        testId: 'delete-storage-location-dialog',
        ...OUTCOME_TEXTS.storageLocation.delete,
      }}
    />
  );
}

/** 'Make default storage location' (001 §2, §4, §5, §8): 'Storage location is now the default for this customer'. */
export function MakeDefaultStorageLocationDialog(props: StorageLocationDialogProps) {
  return (
    <LocationConfirmDialog
      {...props}
      mutation={useMakeDefaultStorageLocation()}
      texts={{
        title: T.makeDefaultTitle,
        confirmLabel: T.makeDefaultSubmit,
        mismatchMessage: MESSAGES.confirmByName.storageLocationMakeDefault,
        variant: 'primary',
        testId: 'make-default-storage-location-dialog',
        ...OUTCOME_TEXTS.storageLocation.makeDefault,
      }}
    />
  );
}
