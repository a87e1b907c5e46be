import {
  MESSAGES,
  STORAGE_LOCATION_TEXTS,
  type StorageLocationRow,
  storageLocationName,
  typeStorageLocationName,
} from '@portal/domain';
import { useState } from 'react';
import type { ButtonProps } from 'react-bootstrap/Button';
import { ConfirmByNameDialog, useDialogSubmit } from '../../ui';
import { useDeleteStorageLocation, useMakeDefaultStorageLocation } from './mutations';

const T = STORAGE_LOCATION_TEXTS;
const M = MESSAGES.storageLocation;

export interface StorageLocationDialogProps {
  show: boolean;
  onHide: () => void;
  /** The location acted on; the dialog shows nothing without one. */
  location: StorageLocationRow | null;
  /** The action was done (e.g. the location page goes back to the customer after a deletion). */
  onDone?: () => void;
  animation?: boolean;
}

interface ConfirmTexts {
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
  texts,
  submission,
}: StorageLocationDialogProps & {
  texts: ConfirmTexts;
  submission: ReturnType<typeof useDialogSubmit<{ customerId: number; storageLocationId: number }, unknown>>;
}) {
  // Done with messages (001 §8: '… but some errors occurred.'): the dialog stays to show them, and the
  // caller hears of it once the dialog is closed.
  const [doneWithMessages, setDoneWithMessages] = useState(false);
  const confirm = async () => {
    if (!location) return;
    const outcome = await submission.submit({ customerId: location.customerId, storageLocationId: location.id });
    if (outcome.close) {
      onHide();
      onDone?.();
    } else if (outcome.applied) {
      setDoneWithMessages(true);
    }
  };
  const hide = () => {
    onHide();
    if (doneWithMessages) {
      setDoneWithMessages(false);
      onDone?.();
    }
  };
  return (
    <ConfirmByNameDialog
      show={show && location !== null}
      onHide={hide}
      submission={submission}
      title={texts.title}
      prompt={location ? typeStorageLocationName(location) : ''}
      expectedName={location ? storageLocationName(location) : ''}
      mismatchMessage={texts.mismatchMessage}
      confirmLabel={texts.confirmLabel}
      variant={texts.variant}
      onConfirm={confirm}
      animation={animation}
      data-testid={texts.testId}
    />
  );
}

/** 'Delete storage location' (001 §2, §5, §6, §8): 'Storage location has been deleted'. */
export function DeleteStorageLocationDialog(props: StorageLocationDialogProps) {
  const submission = useDialogSubmit({
    mutation: useDeleteStorageLocation(),
    successText: M.deleted,
    partialText: M.deletedWithErrors,
    unknownErrorText: M.unknownWhileDeleting,
  });
  return (
    <LocationConfirmDialog
      {...props}
      submission={submission}
      texts={{
        title: T.deleteTitle,
        confirmLabel: T.deleteSubmit,
        mismatchMessage: MESSAGES.confirmByName.storageLocationDeletion,
        variant: 'danger',
        testId: 'delete-storage-location-dialog',
      }}
    />
  );
}

/** 'Make default storage location' (001 §2, §4, §5, §8): 'Storage location is now the default for this customer'. */
export function MakeDefaultStorageLocationDialog(props: StorageLocationDialogProps) {
  const submission = useDialogSubmit({
    mutation: useMakeDefaultStorageLocation(),
    successText: M.madeDefault,
    partialText: M.madeDefaultWithErrors,
    unknownErrorText: M.unknownWhileMakingDefault,
  });
  return (
    <LocationConfirmDialog
      {...props}
      submission={submission}
      texts={{
        title: T.makeDefaultTitle,
        confirmLabel: T.makeDefaultSubmit,
        mismatchMessage: MESSAGES.confirmByName.storageLocationMakeDefault,
        variant: 'primary',
        testId: 'make-default-storage-location-dialog',
      }}
    />
  );
}
