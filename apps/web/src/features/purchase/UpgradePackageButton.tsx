import {
  canRequestPackageChange,
  isCustomerSuperAdmin,
  MESSAGES,
  mayChange,
  OUTCOME_TEXTS,
  type PackageStatus,
  packageUpgradeSchema,
} from '@portal/domain';
import { useSession } from '../../app/session';
import { DialogButton, type Refresh } from '../../ui';
import { useUpgradePackage } from './mutations';
import { TemplateChoiceDialog } from './TemplateChoiceDialog';

const T = MESSAGES.purchase;

/** What the button reads of a package row (000 §3 'Backup package'). */
export interface UpgradablePackage {
  id: number;
  name: string;
  status: PackageStatus;
  upOrDownGradeRequested: boolean;
  /** The package's template, left out of the choices; unknown: null. */
  templateId?: number | null;
}

export interface UpgradePackageButtonProps {
  pkg: UpgradablePackage;
  /** What a change makes stale on the page: its packages table (CHANGE REQUESTED), with the spec's delay. */
  refreshes: readonly Refresh[];
  animation?: boolean;
}

/**
 * 'Upgrade' of a package row and its dialog (000 §4, §6): shown to the customer super admin only, and
 * only for an ACTIVE or OVER_QUOTA package with no change already requested.
 */
export function UpgradePackageButton({ pkg, refreshes, animation }: UpgradePackageButtonProps) {
  const { actor } = useSession();
  const mutation = useUpgradePackage(pkg.id, refreshes);
  if (!actor || !isCustomerSuperAdmin(actor) || !mayChange(actor) || !canRequestPackageChange(pkg)) return null;
  return (
    <DialogButton
      size="sm"
      variant="outline-primary"
      aria-label={`${T.upgradeButton} ${pkg.name}`}
      dialog={(open) => (
        <TemplateChoiceDialog
          {...open}
          title={T.upgradeTitle}
          submitLabel={T.upgradeSubmit}
          field="newPackageTemplateId"
          schema={packageUpgradeSchema}
          mutation={mutation}
          texts={OUTCOME_TEXTS.package.upDowngrade}
          currentTemplateId={pkg.templateId ?? null}
          animation={animation}
          data-testid="upgrade-package-dialog"
        />
      )}
    >
      {T.upgradeButton}
    </DialogButton>
  );
}
