import { confirmUnlinkUser, fullName, MESSAGES, type UserPackageRow, type UserRow } from '@portal/domain';
import { useRef } from 'react';
import { ConfirmDialog, useDialogAction } from '../../ui';
import { useUnlinkPackage } from './mutations';

const TEXT = MESSAGES.user;

export interface UnlinkPackageDialogProps {
  user: UserRow;
  /** The package to unlink from; the dialog shows while it is set. */
  pkg: UserPackageRow | null;
  onHide: () => void;
  animation?: boolean;
}

/** The unlink user from backup package dialog (001 §2): PUT .../backuppackages/{id}?unlink=true after a confirmation. */
export function UnlinkPackageDialog({ user, pkg, onHide, animation }: UnlinkPackageDialogProps) {
  const action = useDialogAction({
    mutation: useUnlinkPackage(),
    variables: () => (pkg ? { userId: user.id, packageId: pkg.id } : null),
    onHide,
    successText: TEXT.unlinked,
    partialText: TEXT.unlinkedWithErrors,
    unknownErrorText: TEXT.unknownWhileUnlinking,
  });
  // The question stays readable while the dialog fades out after `pkg` was cleared.
  const shown = useRef(pkg);
  if (pkg) shown.current = pkg;
  return (
    <ConfirmDialog
      show={pkg !== null}
      onHide={onHide}
      {...action}
      title={TEXT.unlinkDialogTitle}
      confirmLabel={TEXT.unlinkSubmit}
      animation={animation}
      data-testid="unlink-package-dialog"
    >
      <p className="mb-0">{shown.current ? confirmUnlinkUser(fullName(user), shown.current.name) : null}</p>
    </ConfirmDialog>
  );
}
