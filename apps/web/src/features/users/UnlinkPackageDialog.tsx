import {
  confirmUnlinkUser,
  fullName,
  MESSAGES,
  OUTCOME_TEXTS,
  type UserPackageRow,
  type UserRow,
} from '@portal/domain';
import { useRef } from 'react';
import { ConfirmActionDialog, type DialogProps } from '../../ui';
import { useUnlinkPackage } from './mutations';

const TEXT = MESSAGES.user;

export interface UnlinkPackageDialogProps extends Omit<DialogProps, 'show'> {
  user: UserRow;
  /** The package to unlink from; the dialog shows while it is set. */
  pkg: UserPackageRow | null;
}

/** The unlink user from backup package dialog (001 §2): PUT .../backuppackages/{id}?unlink=true after a confirmation. */
export function UnlinkPackageDialog({ user, pkg, ...dialog }: UnlinkPackageDialogProps) {
  const mutation = useUnlinkPackage();
  // The question stays readable while the dialog fades out after `pkg` was cleared.
  const shown = useRef(pkg);
  if (pkg) shown.current = pkg;
  return (
    <ConfirmActionDialog
      {...dialog}
      show={pkg !== null}
      action={{
        mutation,
        variables: () => (pkg ? { userId: user.id, packageId: pkg.id } : null),
        ...OUTCOME_TEXTS.user.unlinkPackage,
      }}
      title={TEXT.unlinkDialogTitle}
      confirmLabel={TEXT.unlinkSubmit}
      data-testid="unlink-package-dialog"
    >
      <p className="mb-0">{shown.current ? confirmUnlinkUser(fullName(user), shown.current.name) : null}</p>
    </ConfirmActionDialog>
  );
}
