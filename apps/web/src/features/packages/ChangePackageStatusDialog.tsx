import { MESSAGES, PACKAGE_STATUS_TEXTS, type PackageDetail, packageStatusChangeWarning } from '@portal/domain';
import { ChangeStatusDialog, useDialogSubmit } from '../../ui';
import { type AdminPackageRef, useChangePackageStatus } from './mutations';

const TEXT = MESSAGES.packagePages;

export interface AdminPackageDialogProps {
  show: boolean;
  onHide: () => void;
  pkg: PackageDetail;
  target: AdminPackageRef;
  animation?: boolean;
}

/**
 * Change backup package status (000 §4, §5): only the transitions offered from the current status, the
 * suspension warning when SUSPENDED is chosen, confirmed by typing the package's exact name.
 */
export function ChangePackageStatusDialog({ show, onHide, pkg, target, animation }: AdminPackageDialogProps) {
  const submission = useDialogSubmit({
    mutation: useChangePackageStatus(),
    successText: MESSAGES.backupPackage.statusUpdated,
    partialText: MESSAGES.backupPackage.statusUpdatedWithErrors,
    unknownErrorText: MESSAGES.backupPackage.unknownWhileChangingStatus,
  });
  return (
    <ChangeStatusDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.changeStatusTitle}
      statusOptions={pkg.statusOptions}
      statusTexts={PACKAGE_STATUS_TEXTS}
      statusLabel={TEXT.details.status}
      warningFor={packageStatusChangeWarning}
      prompt={TEXT.typeNameToConfirm}
      expectedName={pkg.name}
      mismatchMessage={MESSAGES.confirmByName.packageStatusChange}
      confirmLabel={TEXT.changeStatus}
      onConfirm={async (status) => {
        const outcome = await submission.submit({ ...target, status });
        if (outcome.close) onHide();
      }}
      animation={animation}
      data-testid="change-package-status-dialog"
    />
  );
}
