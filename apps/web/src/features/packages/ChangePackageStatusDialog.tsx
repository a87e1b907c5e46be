import { MESSAGES, PACKAGE_STATUS_TEXTS, type PackageDetail, packageStatusChangeWarning } from '@portal/domain';
import { ChangeStatusDialog, useDialogAction } from '../../ui';
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
export function ChangePackageStatusDialog({ pkg, target, ...dialog }: AdminPackageDialogProps) {
  const action = useDialogAction({
    mutation: useChangePackageStatus(),
    variables: (status: (typeof pkg.statusOptions)[number]) => ({ ...target, status }),
    onHide: dialog.onHide,
    successText: MESSAGES.backupPackage.statusUpdated,
    partialText: MESSAGES.backupPackage.statusUpdatedWithErrors,
    unknownErrorText: MESSAGES.backupPackage.unknownWhileChangingStatus,
  });
  return (
    <ChangeStatusDialog
      {...dialog}
      {...action}
      title={TEXT.changeStatusTitle}
      statusOptions={pkg.statusOptions}
      statusTexts={PACKAGE_STATUS_TEXTS}
      statusLabel={TEXT.details.status}
      warningFor={packageStatusChangeWarning}
      prompt={TEXT.typeNameToConfirm}
      expectedName={pkg.name}
      mismatchMessage={MESSAGES.confirmByName.packageStatusChange}
      confirmLabel={TEXT.changeStatus}
      data-testid="change-package-status-dialog"
    />
  );
}
