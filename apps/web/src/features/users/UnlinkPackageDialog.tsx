import type { UserPackageRow, UserRow } from '@portal/domain';
import { confirmUnlinkUser, fullName, MESSAGES, userUnlinkPath } from '@portal/domain';
import { useRef } from 'react';
import { call } from '../../app/api';
import { ConfirmDialog, GlobalErrors } from '../../ui';
import { useConfirmedAction } from './useConfirmedAction';

const TEXT = MESSAGES.user;
const TEXTS = { successText: TEXT.unlinked, actionText: 'User unlinked', unknownErrorText: TEXT.unknownWhileUnlinking };

export interface UnlinkPackageDialogProps {
  user: UserRow;
  /** The package to unlink from; the dialog shows while it is set. */
  pkg: UserPackageRow | null;
  onHide: () => void;
  /** The server unlinked the user (also when it reported problems): refresh the user's packages. */
  onChanged: () => void;
  animation?: boolean;
}

/** The unlink user from backup package dialog (001 §2): PUT .../backuppackages/{id}?unlink=true after a confirmation. */
export function UnlinkPackageDialog({ user, pkg, onHide, onChanged, animation }: UnlinkPackageDialogProps) {
  const action = useConfirmedAction(TEXTS);
  // The question stays readable while the dialog fades out after `pkg` was cleared.
  const shown = useRef(pkg);
  if (pkg) shown.current = pkg;
  return (
    <ConfirmDialog
      show={pkg !== null}
      onHide={onHide}
      title={TEXT.unlinkDialogTitle}
      confirmLabel={TEXT.unlinkSubmit}
      onConfirm={async () => {
        if (!pkg) return;
        const outcome = await action.run(call<null>('PUT', userUnlinkPath(user.id, pkg.id)));
        if (outcome.applied) onChanged();
        if (outcome.close) onHide();
      }}
      onExited={action.clear}
      animation={animation}
      data-testid="unlink-package-dialog"
    >
      <p className="mb-0">{shown.current ? confirmUnlinkUser(fullName(user), shown.current.name) : null}</p>
      <GlobalErrors messages={action.errors} />
    </ConfirmDialog>
  );
}
