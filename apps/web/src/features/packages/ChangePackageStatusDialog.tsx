import {
  MESSAGES,
  OUTCOME_TEXTS,
  PACKAGE_STATUS_TEXTS,
  type PackageDetail,
  packageStatusChangeWarning,
} from '@portal/domain';
import { ChangeStatusActionDialog, type DialogProps } from '../../ui';
import { type AdminPackageRef, useChangePackageStatus } from './mutations';

const TEXT = MESSAGES.packagePages;

export interface AdminPackageDialogProps extends DialogProps {
  pkg: PackageDetail;
  target: AdminPackageRef;
}

/**
 * Change backup package status (000 §4, §5): only the transitions offered from the current status, the
 * suspension warning when SUSPENDED is chosen, confirmed by typing the package's exact name.
 */
export function ChangePackageStatusDialog({ pkg, target, ...dialog }: AdminPackageDialogProps) {
  const mutation = useChangePackageStatus();
  return (
    <ChangeStatusActionDialog
      {...dialog}
      action={{ mutation, variables: (status) => ({ ...target, status }), ...OUTCOME_TEXTS.package.changeStatus }}
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
